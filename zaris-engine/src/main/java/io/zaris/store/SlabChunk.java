package io.zaris.store;

/**
 * One array cut into equal slots, each holding one value of its size class (or, for a value too large for
 * any class, one array holding exactly that value). It remembers which key owns each slot, so a sparse chunk
 * can be emptied by moving its values elsewhere ({@link ValueSlabs}).
 *
 * <p>Confined to its segment's write lock, except {@link #data}, which lock-free readers copy from and then
 * validate ({@link StoredEntry#stillHolds}); the array itself is never replaced, so a reader racing a reuse
 * of its slot reads bytes of the right array, only possibly the wrong ones, and the validation tells.
 */
final class SlabChunk {

    final byte[] data;
    final int slotBytes;
    /** Key owning each slot, {@code null} when the slot is free. */
    private final ByteKey[] owners;
    /** Stack of free slot numbers; the first {@code freeCount} are valid. */
    private final int[] freeSlots;
    private int freeCount;
    /** Position in its class's list of chunks with a free slot, -1 when full (or not pooled). */
    int partialIndex = -1;

    SlabChunk(int slotBytes, int slots) {
        this.data = new byte[Math.multiplyExact(slotBytes, slots)];
        this.slotBytes = slotBytes;
        this.owners = new ByteKey[slots];
        this.freeSlots = new int[slots];
        for (int i = 0; i < slots; i++) {
            freeSlots[i] = slots - 1 - i; // slot 0 is taken first
        }
        this.freeCount = slots;
    }

    int slots() {
        return owners.length;
    }

    int freeCount() {
        return freeCount;
    }

    int usedCount() {
        return owners.length - freeCount;
    }

    /** Takes a free slot for {@code owner}; the caller checked {@link #freeCount} is positive. */
    int take(ByteKey owner) {
        int slot = freeSlots[--freeCount];
        owners[slot] = owner;
        return slot;
    }

    void release(int slot) {
        owners[slot] = null;
        freeSlots[freeCount++] = slot;
    }

    /** The key owning {@code slot}, {@code null} when it is free. */
    ByteKey owner(int slot) {
        return owners[slot];
    }

    int offset(int slot) {
        return slot * slotBytes;
    }
}
