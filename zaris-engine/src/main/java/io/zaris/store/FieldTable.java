package io.zaris.store;

import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * The fields of a hash (or members of a set, which have no values): byte-string names, each with a byte-string value,
 * in parallel arrays, without an object per field. Two layouts, as Redis's hashes have:
 * <ul>
 *     <li><b>compact</b>, up to {@value #COMPACT_LIMIT} fields: the fields side by side in the order they were first
 *     set, found by a scan of their cached hashes; a removal shifts the fields after it down (fewer than
 *     {@value #COMPACT_LIMIT}). A walk lists them in that order, as Redis's listpack does.</li>
 *     <li><b>hashed</b>, past that (and never back): open addressing with linear probing over arrays of a power-of-two
 *     size, at most three quarters full; a walk lists the fields in slot order, which depends on the table's history.
 *     Growth is progressive, as Redis rehashes its dictionaries: the write that fills the table to three quarters
 *     allocates arrays of twice the size, and it and every later write move the fields of the next
 *     {@value #MOVE_STEP} old slots into them, so no write moves the whole table (one moves at most
 *     {@value #MOVE_STEP} fields, as does the switch from the compact layout).</li>
 * </ul>
 *
 * <p>While a move is under way the old arrays are frozen but for values set in place and removals: a field is in the
 * old arrays at a slot the move has not reached yet, or in the new ones, never both. A field the move passed stays in
 * its old slot (only the new slot counts), so the old probe sequences stay whole without tombstones of their own; a
 * field removed before the move reaches it leaves {@link #REMOVED} behind for the same reason. Lookups consult the
 * old arrays first, then the new ones.
 *
 * <p>The hash of a name is {@link Arrays#hashCode(byte[])}, the one {@link ByteKey} caches, so a caller holding a
 * {@link ByteKey} passes its hash; slots are picked by its Fibonacci product's high bits, which spreads the
 * polynomial hash's similar values.
 *
 * <p>Not thread-safe: its {@link HashEntry} reads and writes it only under the segment's write lock.
 */
final class FieldTable {

    /** The most fields kept in the compact layout (Redis's {@code hash-max-listpack-entries} default). */
    static final int COMPACT_LIMIT = 128;
    /** Old slots a write moves while a growth is under way; also the most fields one write moves. */
    static final int MOVE_STEP = 128;
    /** What a table without values answers for a name it holds. */
    static final byte[] NO_VALUE = new byte[0];

    private static final int FIRST_COMPACT_CAPACITY = 4;
    /** Left in an old slot whose field was removed before the move reached it: probes go on past it. */
    private static final byte[] REMOVED = new byte[0];
    private static final int GOLDEN = 0x9E3779B9;

    private final boolean withValues;
    private int size;
    private boolean compact = true;

    /** Compact: the fields in [0, size) in order. Hashed: the current (during a move, the new) slots, null empty. */
    private byte[][] names;
    /** Parallel to {@link #names}; {@code null} in a table without values. */
    private byte[][] values;
    private int[] hashes;
    /** Hashed: 32 − log2(slots), so a hash's slot is its Fibonacci product shifted right by it. */
    private int shift;

    /** The old slots while a move is under way ({@code null} otherwise); only fields at slots from {@link #moveFrom} on count. */
    private byte[][] oldNames;
    private byte[][] oldValues;
    private int[] oldHashes;
    private int oldShift;
    private int moveFrom;
    /** Fields moved so far, from the compact layout or from old slots (for tests that bound a write's work). */
    private long moved;

    /** @param withValues whether fields carry values (a hash) or not (a set) */
    FieldTable(boolean withValues) {
        this.withValues = withValues;
        names = new byte[FIRST_COMPACT_CAPACITY][];
        values = withValues ? new byte[FIRST_COMPACT_CAPACITY][] : null;
        hashes = new int[FIRST_COMPACT_CAPACITY];
    }

    /** The hash every method takes with a name: {@link ByteKey}'s. */
    static int hashOf(byte[] name) {
        return Arrays.hashCode(name);
    }

    int size() {
        return size;
    }

    /** The value of {@code name} ({@link #NO_VALUE} in a table without values), or {@code null} when absent. */
    byte[] get(byte[] name, int hash) {
        if (compact) {
            int at = compactIndex(name, hash);
            return at < 0 ? null : valueAt(values, at);
        }
        if (oldNames != null) {
            int at = oldSlot(name, hash);
            if (at >= moveFrom) {
                return valueAt(oldValues, at);
            }
        }
        int at = slot(names, hashes, shift, name, hash);
        return names[at] == null ? null : valueAt(values, at);
    }

    /**
     * Sets {@code name} to {@code value} (ignored in a table without values) with one lookup, adding it when absent;
     * returns its previous value ({@link #NO_VALUE} without values), or {@code null} when it was added.
     */
    byte[] put(byte[] name, int hash, byte[] value) {
        if (compact) {
            int at = compactIndex(name, hash);
            if (at >= 0) {
                return replaceAt(values, at, value);
            }
            if (size < COMPACT_LIMIT) {
                appendCompact(name, hash, value);
                return null;
            }
            toHashed();
        } else if (oldNames != null) {
            moveSome();
            if (oldNames != null) {
                int at = oldSlot(name, hash);
                if (at >= moveFrom) {
                    return replaceAt(oldValues, at, value);
                }
            }
        }
        int at = slot(names, hashes, shift, name, hash);
        if (names[at] != null) {
            return replaceAt(values, at, value);
        }
        fill(at, name, hash, value);
        size++;
        if (oldNames == null && size > names.length / 4 * 3) {
            startGrowth();
        }
        return null;
    }

    /** Removes {@code name}; returns its value ({@link #NO_VALUE} without values), or {@code null} when absent. */
    byte[] remove(byte[] name, int hash) {
        if (compact) {
            int at = compactIndex(name, hash);
            if (at < 0) {
                return null;
            }
            byte[] previous = valueAt(values, at);
            removeCompact(at);
            return previous;
        }
        if (oldNames != null) {
            moveSome();
            if (oldNames != null) {
                int at = oldSlot(name, hash);
                if (at >= moveFrom) {
                    byte[] previous = valueAt(oldValues, at);
                    oldNames[at] = REMOVED;
                    if (oldValues != null) {
                        oldValues[at] = null;
                    }
                    size--;
                    return previous;
                }
            }
        }
        int at = slot(names, hashes, shift, name, hash);
        if (names[at] == null) {
            return null;
        }
        byte[] previous = valueAt(values, at);
        removeHashed(at);
        size--;
        return previous;
    }

    /**
     * Hands every field to {@code visitor} once, with its value ({@link #NO_VALUE} without values): in the order first
     * set while compact, else the old slots the move has not reached, then the current ones. Nothing may change the
     * table during the walk.
     */
    void forEach(BiConsumer<byte[], byte[]> visitor) {
        if (compact) {
            for (int i = 0; i < size; i++) {
                visitor.accept(names[i], valueAt(values, i));
            }
            return;
        }
        if (oldNames != null) {
            for (int i = moveFrom; i < oldNames.length; i++) {
                byte[] name = oldNames[i];
                if (name != null && name != REMOVED) {
                    visitor.accept(name, valueAt(oldValues, i));
                }
            }
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i] != null) {
                visitor.accept(names[i], valueAt(values, i));
            }
        }
    }

    /** Whether a growth's move is under way (for tests). */
    boolean moving() {
        return oldNames != null;
    }

    /** Whether the fields are in the compact layout (for tests). */
    boolean compact() {
        return compact;
    }

    /** Fields moved since the table was made (for tests that bound one write's work). */
    long moved() {
        return moved;
    }

    private byte[] valueAt(byte[][] valueArray, int at) {
        return withValues ? valueArray[at] : NO_VALUE;
    }

    private byte[] replaceAt(byte[][] valueArray, int at, byte[] value) {
        if (!withValues) {
            return NO_VALUE;
        }
        byte[] previous = valueArray[at];
        valueArray[at] = value;
        return previous;
    }

    private int compactIndex(byte[] name, int hash) {
        for (int i = 0; i < size; i++) {
            if (hashes[i] == hash && Arrays.equals(names[i], name)) {
                return i;
            }
        }
        return -1;
    }

    private void appendCompact(byte[] name, int hash, byte[] value) {
        if (size == names.length) { // at most COMPACT_LIMIT fields copied
            int capacity = Math.min(names.length * 2, COMPACT_LIMIT);
            names = Arrays.copyOf(names, capacity);
            hashes = Arrays.copyOf(hashes, capacity);
            if (withValues) {
                values = Arrays.copyOf(values, capacity);
            }
        }
        names[size] = name;
        hashes[size] = hash;
        if (withValues) {
            values[size] = value;
        }
        size++;
    }

    private void removeCompact(int at) {
        int after = size - at - 1;
        System.arraycopy(names, at + 1, names, at, after);
        System.arraycopy(hashes, at + 1, hashes, at, after);
        if (withValues) {
            System.arraycopy(values, at + 1, values, at, after);
            values[size - 1] = null;
        }
        names[size - 1] = null;
        size--;
    }

    /** The compact fields (COMPACT_LIMIT of them) into slots twice their number: half full, one bounded move. */
    private void toHashed() {
        byte[][] compactNames = names;
        byte[][] compactValues = values;
        int[] compactHashes = hashes;
        allocate(COMPACT_LIMIT * 2);
        compact = false;
        for (int i = 0; i < size; i++) {
            fill(slot(names, hashes, shift, compactNames[i], compactHashes[i]), compactNames[i], compactHashes[i],
                    withValues ? compactValues[i] : null);
        }
        moved += size;
    }

    /** The current slots become the old ones, moved from the next write on into slots twice as many. */
    private void startGrowth() {
        oldNames = names;
        oldValues = values;
        oldHashes = hashes;
        oldShift = shift;
        moveFrom = 0;
        allocate(names.length * 2);
    }

    private void allocate(int slots) {
        names = new byte[slots][];
        values = withValues ? new byte[slots][] : null;
        hashes = new int[slots];
        shift = 32 - Integer.numberOfTrailingZeros(slots);
    }

    /**
     * Moves the fields of the next {@value #MOVE_STEP} old slots into the current ones (none is there yet: the two
     * hold no field in common). The move ends before the current slots are three quarters full: they are twice the
     * old, which held at most three quarters of theirs, and each write moves {@value #MOVE_STEP} old slots while it
     * adds at most one field.
     */
    private void moveSome() {
        int end = Math.min(moveFrom + MOVE_STEP, oldNames.length);
        for (int i = moveFrom; i < end; i++) {
            byte[] name = oldNames[i];
            if (name != null && name != REMOVED) {
                int hash = oldHashes[i];
                fill(slot(names, hashes, shift, name, hash), name, hash, withValues ? oldValues[i] : null);
                moved++;
            }
        }
        moveFrom = end;
        if (end == oldNames.length) {
            oldNames = null;
            oldValues = null;
            oldHashes = null;
        }
    }

    private void fill(int at, byte[] name, int hash, byte[] value) {
        names[at] = name;
        hashes[at] = hash;
        if (withValues) {
            values[at] = value;
        }
    }

    /** The old slot holding {@code name}, or −1; a slot before {@link #moveFrom} is a field moved away. */
    private int oldSlot(byte[] name, int hash) {
        int mask = oldNames.length - 1;
        for (int at = (hash * GOLDEN) >>> oldShift; ; at = (at + 1) & mask) {
            byte[] held = oldNames[at];
            if (held == null) {
                return -1;
            }
            if (held != REMOVED && oldHashes[at] == hash && Arrays.equals(held, name)) {
                return at;
            }
        }
    }

    /** The slot holding {@code name}, or the empty slot ending its probe sequence, where it would go. */
    private static int slot(byte[][] nameArray, int[] hashArray, int shift, byte[] name, int hash) {
        int mask = nameArray.length - 1;
        for (int at = (hash * GOLDEN) >>> shift; ; at = (at + 1) & mask) {
            byte[] held = nameArray[at];
            if (held == null || (hashArray[at] == hash && Arrays.equals(held, name))) {
                return at;
            }
        }
    }

    /**
     * Empties slot {@code at} of the current slots, shifting later fields of its probe run back so that no probe
     * sequence is broken (no tombstones in the current slots): a field moves into the hole when its home slot is not
     * between the hole and where it sits.
     */
    private void removeHashed(int at) {
        int mask = names.length - 1;
        int hole = at;
        for (int next = (hole + 1) & mask; names[next] != null; next = (next + 1) & mask) {
            int home = (hashes[next] * GOLDEN) >>> shift;
            if (((next - home) & mask) >= ((next - hole) & mask)) {
                names[hole] = names[next];
                hashes[hole] = hashes[next];
                if (withValues) {
                    values[hole] = values[next];
                }
                hole = next;
            }
        }
        names[hole] = null;
        if (withValues) {
            values[hole] = null;
        }
    }
}
