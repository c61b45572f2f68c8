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
 *     <li><b>hashed</b>, past that (and never back): open addressing with linear probing over {@link Slots}, a
 *     power-of-two number of them, at most three quarters full; a walk lists the fields in slot order, which depends on
 *     the table's history. Growth is progressive, as Redis rehashes its dictionaries: the write that fills the slots
 *     to three quarters makes twice as many, and it and every later write move the fields of the next
 *     {@value #MOVE_STEP} old slots into them, so no write moves the whole table (one moves at most
 *     {@value #MOVE_STEP} fields, as does the switch from the compact layout).</li>
 * </ul>
 *
 * <p>While a move is under way the old slots are frozen but for values set in place and removals: a field is in an old
 * slot the move has not reached yet, or in the new slots, never both. A field the move passed stays in its old slot
 * (only the new slot counts), so the old probe sequences stay whole without tombstones of their own; a field removed
 * before the move reaches it leaves {@link #REMOVED} behind for the same reason. Lookups consult the old slots
 * first, then the new ones.
 *
 * <p>The hash of a name is {@link Arrays#hashCode(byte[])}, the one {@link ByteKey} caches, so a caller holding a
 * {@link ByteKey} passes its hash; slots are picked by its Fibonacci product's high bits, which spreads the
 * polynomial hash's similar values. Doubling the slots adds one such bit, so the fields of neighbouring old slots land
 * in neighbouring new ones, and a move fills the new slots' pages in order.
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

    /** The compact layout's fields in [0, size), in the order first set; {@code null} once hashed. */
    private byte[][] names;
    /** Parallel to {@link #names}; {@code null} in a table without values. */
    private byte[][] values;
    private int[] hashes;

    /** The hashed layout's slots (during a move, the new ones); {@code null} while compact. */
    private Slots slots;
    /** The old slots while a move is under way ({@code null} otherwise); only fields at slots from {@link #moveFrom} on count. */
    private Slots old;
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
        if (slots == null) {
            int at = compactIndex(name, hash);
            return at < 0 ? null : withValues ? values[at] : NO_VALUE;
        }
        if (old != null) {
            int at = oldSlot(name, hash);
            if (at >= moveFrom) {
                return old.value(at);
            }
        }
        int at = slots.find(name, hash);
        return slots.name(at) == null ? null : slots.value(at);
    }

    /**
     * Sets {@code name} to {@code value} (ignored in a table without values) with one lookup, adding it when absent;
     * returns its previous value ({@link #NO_VALUE} without values), or {@code null} when it was added.
     */
    byte[] put(byte[] name, int hash, byte[] value) {
        if (slots == null) {
            int at = compactIndex(name, hash);
            if (at >= 0) {
                if (!withValues) {
                    return NO_VALUE;
                }
                byte[] previous = values[at];
                values[at] = value;
                return previous;
            }
            if (size < COMPACT_LIMIT) {
                appendCompact(name, hash, value);
                return null;
            }
            toHashed();
        } else if (old != null) {
            moveSome();
            if (old != null) {
                int at = oldSlot(name, hash);
                if (at >= moveFrom) {
                    return old.replace(at, value);
                }
            }
        }
        int at = slots.find(name, hash);
        if (slots.name(at) != null) {
            return slots.replace(at, value);
        }
        slots.fill(at, name, hash, value);
        size++;
        if (old == null && size > slots.capacity / 4 * 3) {
            old = slots; // the move starts with the next write
            moveFrom = 0;
            slots = new Slots(old.capacity * 2, withValues);
        }
        return null;
    }

    /** Removes {@code name}; returns its value ({@link #NO_VALUE} without values), or {@code null} when absent. */
    byte[] remove(byte[] name, int hash) {
        if (slots == null) {
            int at = compactIndex(name, hash);
            if (at < 0) {
                return null;
            }
            byte[] previous = withValues ? values[at] : NO_VALUE;
            removeCompact(at);
            return previous;
        }
        if (old != null) {
            moveSome();
            if (old != null) {
                int at = oldSlot(name, hash);
                if (at >= moveFrom) {
                    byte[] previous = old.value(at);
                    old.fill(at, REMOVED, 0, null);
                    size--;
                    return previous;
                }
            }
        }
        int at = slots.find(name, hash);
        if (slots.name(at) == null) {
            return null;
        }
        byte[] previous = slots.value(at);
        slots.removeAt(at);
        size--;
        return previous;
    }

    /**
     * Hands every field to {@code visitor} once, with its value ({@link #NO_VALUE} without values): in the order first
     * set while compact, else the old slots the move has not reached, then the current ones. Nothing may change the
     * table during the walk.
     */
    void forEach(BiConsumer<byte[], byte[]> visitor) {
        if (slots == null) {
            for (int i = 0; i < size; i++) {
                visitor.accept(names[i], withValues ? values[i] : NO_VALUE);
            }
            return;
        }
        if (old != null) {
            for (int i = moveFrom; i < old.capacity; i++) {
                byte[] name = old.name(i);
                if (name != null && name != REMOVED) {
                    visitor.accept(name, old.value(i));
                }
            }
        }
        for (int i = 0; i < slots.capacity; i++) {
            byte[] name = slots.name(i);
            if (name != null) {
                visitor.accept(name, slots.value(i));
            }
        }
    }

    /** Whether a growth's move is under way (for tests). */
    boolean moving() {
        return old != null;
    }

    /** Whether the fields are in the compact layout (for tests). */
    boolean compact() {
        return slots == null;
    }

    /** Fields moved since the table was made (for tests that bound one write's work). */
    long moved() {
        return moved;
    }

    /** Pages of slots allocated now, old and new (for tests that bound one write's allocation). */
    int pages() {
        return (slots == null ? 0 : slots.allocatedPages) + (old == null ? 0 : old.allocatedPages);
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
        slots = new Slots(COMPACT_LIMIT * 2, withValues);
        for (int i = 0; i < size; i++) {
            slots.fill(slots.find(names[i], hashes[i]), names[i], hashes[i], withValues ? values[i] : null);
        }
        moved += size;
        names = null;
        values = null;
        hashes = null;
    }

    /**
     * Moves the fields of the next {@value #MOVE_STEP} old slots into the current ones (none is there yet: the two
     * hold no field in common). The move ends before the current slots are three quarters full: they are twice the
     * old, which held at most three quarters of theirs, and each write moves {@value #MOVE_STEP} old slots while it
     * adds at most one field.
     */
    private void moveSome() {
        int end = Math.min(moveFrom + MOVE_STEP, old.capacity);
        for (int i = moveFrom; i < end; i++) {
            byte[] name = old.name(i);
            if (name != null && name != REMOVED) {
                int hash = old.hash(i);
                slots.fill(slots.find(name, hash), name, hash, old.value(i));
                moved++;
            }
        }
        moveFrom = end;
        if (end == old.capacity) {
            old = null;
        }
    }

    /** The old slot holding {@code name}, or −1; a slot before {@link #moveFrom} is a field moved away. */
    private int oldSlot(byte[] name, int hash) {
        for (int at = old.home(hash); ; at = old.next(at)) {
            byte[] held = old.name(at);
            if (held == null) {
                return -1;
            }
            if (held != REMOVED && old.hash(at) == hash && Arrays.equals(held, name)) {
                return at;
            }
        }
    }

    /**
     * A power-of-two number of slots, each a name, its value (none without values) and its hash, in pages of at most
     * {@value #PAGE_SLOTS} slots made when a field first goes into them: a growth allocates no large array at once
     * (nor one the collector must place whole in regions of its own), and a slot of a page not made yet is empty.
     */
    private static final class Slots {

        static final int PAGE_BITS = 12;
        static final int PAGE_SLOTS = 1 << PAGE_BITS;
        private static final int PAGE_MASK = PAGE_SLOTS - 1;

        final int capacity;
        private final int shift;
        private final boolean withValues;
        private final byte[][][] names;
        private final byte[][][] values;
        private final int[][] hashes;
        int allocatedPages;

        Slots(int capacity, boolean withValues) {
            this.capacity = capacity;
            this.shift = 32 - Integer.numberOfTrailingZeros(capacity);
            this.withValues = withValues;
            int pages = Math.max(1, capacity >>> PAGE_BITS);
            names = new byte[pages][][];
            values = withValues ? new byte[pages][][] : null;
            hashes = new int[pages][];
        }

        int home(int hash) {
            return (hash * GOLDEN) >>> shift;
        }

        int next(int at) {
            return (at + 1) & (capacity - 1);
        }

        byte[] name(int at) {
            byte[][] page = names[at >>> PAGE_BITS];
            return page == null ? null : page[at & PAGE_MASK];
        }

        /** The hash at a slot holding a name. */
        int hash(int at) {
            return hashes[at >>> PAGE_BITS][at & PAGE_MASK];
        }

        /** The value at a slot holding a name. */
        byte[] value(int at) {
            return withValues ? values[at >>> PAGE_BITS][at & PAGE_MASK] : NO_VALUE;
        }

        /** Sets the value at a slot holding a name; returns the previous one. */
        byte[] replace(int at, byte[] value) {
            if (!withValues) {
                return NO_VALUE;
            }
            byte[][] page = values[at >>> PAGE_BITS];
            byte[] previous = page[at & PAGE_MASK];
            page[at & PAGE_MASK] = value;
            return previous;
        }

        void fill(int at, byte[] name, int hash, byte[] value) {
            int page = at >>> PAGE_BITS;
            if (names[page] == null) {
                int slots = Math.min(capacity, PAGE_SLOTS);
                names[page] = new byte[slots][];
                hashes[page] = new int[slots];
                if (withValues) {
                    values[page] = new byte[slots][];
                }
                allocatedPages++;
            }
            names[page][at & PAGE_MASK] = name;
            hashes[page][at & PAGE_MASK] = hash;
            if (withValues) {
                values[page][at & PAGE_MASK] = value;
            }
        }

        /** The slot holding {@code name}, or the empty slot ending its probe sequence, where it would go. */
        int find(byte[] name, int hash) {
            for (int at = home(hash); ; at = next(at)) {
                byte[] held = name(at);
                if (held == null || (hash(at) == hash && Arrays.equals(held, name))) {
                    return at;
                }
            }
        }

        /**
         * Empties slot {@code at}, shifting later fields of its probe run back so that no probe sequence is broken (no
         * tombstones): a field moves into the hole when its home slot is not between the hole and where it sits.
         */
        void removeAt(int at) {
            int mask = capacity - 1;
            int hole = at;
            for (int next = next(hole); name(next) != null; next = next(next)) {
                int hash = hash(next);
                if (((next - home(hash)) & mask) >= ((next - hole) & mask)) {
                    fill(hole, name(next), hash, value(next));
                    hole = next;
                }
            }
            fill(hole, null, 0, null);
        }
    }
}
