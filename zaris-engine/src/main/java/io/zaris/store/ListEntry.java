package io.zaris.store;

import java.util.ArrayList;
import java.util.List;

/**
 * A key holding a list: its elements in order, its expiry, and the bytes they are charged for. Like a hash it is
 * changed in place (an element pushed, popped, set or removed at a time), so a write to a long list costs and ships
 * what it changed. Its expiry, TTL slot and charged bytes are kept as for every {@link CollectionEntry}.
 *
 * <p>The elements sit in a circular array, so a push or pop at either end is O(1) (amortised) and an index read is
 * O(1); an insert or removal inside moves the shorter side.
 *
 * <p>Concurrency: the elements are read and written only under the segment's write lock (list reads take it too: a
 * range read sees one state of the list).
 */
final class ListEntry extends CollectionEntry {

    /**
     * Bytes charged per element on top of its length: its array's header with alignment (24) and its slot in the
     * circular array, which grows by doubling (8, counted twice for the room a doubling leaves).
     */
    static final int ELEMENT_OVERHEAD_BYTES = 40;

    private static final int INITIAL_CAPACITY = 8;

    /** Guarded by the segment's write lock: {@code size} elements from {@code head}, wrapping around. */
    private byte[][] ring = new byte[INITIAL_CAPACITY][];
    private int head;
    private int size;

    ListEntry(long version, long expiresAtMillis, long nowMillis) {
        super(version, expiresAtMillis, nowMillis);
    }

    static long elementBytes(byte[] element) {
        return ELEMENT_OVERHEAD_BYTES + element.length;
    }

    @Override
    String typeName() {
        return "list";
    }

    int size() {
        return size;
    }

    /** The element at {@code index} (0 ≤ index &lt; size). */
    byte[] get(int index) {
        return ring[slot(index)];
    }

    /** Elements {@code from} to {@code to} inclusive (0 ≤ from ≤ to &lt; size), in order. */
    List<byte[]> range(int from, int to) {
        List<byte[]> out = new ArrayList<>(to - from + 1);
        for (int i = from; i <= to; i++) {
            out.add(get(i));
        }
        return out;
    }

    /** Inserts {@code element} before {@code index} (0 ≤ index ≤ size; size appends); returns the bytes charged. */
    long insert(int index, byte[] element) {
        if (size == ring.length) {
            grow();
        }
        if (index < size - index) { // move the head side one to the left
            head = (head - 1 + ring.length) % ring.length;
            for (int i = 0; i < index; i++) {
                ring[slot(i)] = ring[slot(i + 1)];
            }
        } else { // move the tail side one to the right
            for (int i = size; i > index; i--) {
                ring[slot(i)] = ring[slot(i - 1)];
            }
        }
        ring[slot(index)] = element;
        size++;
        long charged = elementBytes(element);
        charge(charged);
        return charged;
    }

    /** Removes {@code count} elements from {@code index} (within the list); returns the bytes freed. */
    long remove(int index, int count) {
        long freed = 0;
        for (int i = index; i < index + count; i++) {
            freed += elementBytes(get(i));
        }
        int after = size - index - count;
        if (index < after) { // close the gap from the head side
            for (int i = index - 1; i >= 0; i--) {
                ring[slot(i + count)] = ring[slot(i)];
            }
            for (int i = 0; i < count; i++) {
                ring[slot(i)] = null;
            }
            head = (head + count) % ring.length;
        } else { // close it from the tail side
            for (int i = index; i < index + after; i++) {
                ring[slot(i)] = ring[slot(i + count)];
            }
            for (int i = size - count; i < size; i++) {
                ring[slot(i)] = null;
            }
        }
        size -= count;
        charge(-freed);
        if (size == 0) {
            head = 0;
        }
        return freed;
    }

    /** Replaces the element at {@code index}; returns the change of the charged bytes. */
    long set(int index, byte[] element) {
        int at = slot(index);
        long delta = elementBytes(element) - elementBytes(ring[at]);
        ring[at] = element;
        charge(delta);
        return delta;
    }

    /**
     * The list's content as one byte string for {@link ContentDigest}: a type marker, then each element with its
     * length, in order, so two copies digest alike exactly when they hold the same elements in the same order.
     */
    byte[] digest() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write('L');
        for (int i = 0; i < size; i++) {
            byte[] element = get(i);
            out.write(element.length >>> 24);
            out.write(element.length >>> 16);
            out.write(element.length >>> 8);
            out.write(element.length);
            out.writeBytes(element);
        }
        return out.toByteArray();
    }

    private int slot(int index) {
        return (head + index) % ring.length;
    }

    private void grow() {
        byte[][] bigger = new byte[ring.length * 2][];
        for (int i = 0; i < size; i++) {
            bigger[i] = get(i);
        }
        ring = bigger;
        head = 0;
    }
}
