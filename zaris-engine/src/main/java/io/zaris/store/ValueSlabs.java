package io.zaris.store;

import java.util.ArrayList;
import java.util.Map;

/**
 * Where one segment keeps its values: in slots of shared arrays ({@link SlabChunk}), one size class per slot
 * size, instead of one array per value. An overwrite then reuses a slot rather than leaving a dead array in the
 * old generation: under a write load of 10 KiB values the collector spent about a fifth of the wall time in
 * pauses (full collections every few seconds, each moving the whole live set) before values moved here.
 *
 * <p><b>Size classes.</b> Up to 128 bytes a slot is the value rounded up to 8 bytes; up to
 * {@link #LARGEST_SLOT_BYTES} there are four classes per power of two (so a slot wastes under a fifth of
 * itself); a larger value gets an array of exactly its size (a chunk of one slot, dropped when freed).
 *
 * <p><b>Bounded slack.</b> A new chunk holds an eighth of the class's slots so far (at least one, at most about
 * 64 KiB), so a segment holding a few values holds little more. When over an eighth of a class's slots are
 * free (and more than one) and the other chunks can take the sparsest chunk's values, that chunk is emptied: its values move to
 * free slots of the other chunks (a new {@link StoredEntry} with the same version, expiry, access time and sampling slots replaces
 * the old one in the map; the old one is marked freed) and the chunk is dropped. A move is not a change:
 * nothing is logged, replicated or re-charged.
 *
 * <p><b>Concurrency.</b> Confined to the owning segment's write lock: every store, free and move happens under
 * it. Lock-free readers copy a value out of its chunk and then check that its entry was not freed meanwhile
 * ({@link StoredEntry#stillHolds}); a slot is only reused after its entry is marked freed.
 */
final class ValueSlabs {

    /** Values up to this size share chunks; larger ones get an array of their own. */
    static final int LARGEST_SLOT_BYTES = 64 * 1024;
    /** A chunk grows to about this many bytes (at least one slot). */
    static final int CHUNK_TARGET_BYTES = 64 * 1024;
    /** And to at most this many slots, so tiny values do not make a huge owner table. */
    static final int MAX_SLOTS_PER_CHUNK = 256;
    private static final int SMALL_CLASSES = 16;
    private static final int CLASSES = SMALL_CLASSES + 4 * 9; // 4 per power of two over 2^7..2^16

    private final Map<ByteKey, StoredEntry> entries;
    /** Created on first use; most segments of a node hold one or two classes. */
    private SizeClass[] classes;
    private long movedValues;

    /** @param entries the segment's map, in which a moved value's entry is replaced */
    ValueSlabs(Map<ByteKey, StoredEntry> entries) {
        this.entries = entries;
    }

    /** The slot size a value of {@code length} bytes occupies. */
    static int slotBytes(int length) {
        if (length <= 128) {
            return Math.max(8, (length + 7) & ~7);
        }
        if (length > LARGEST_SLOT_BYTES) {
            return length;
        }
        int step = stepAbove128(length);
        return (length + step - 1) / step * step;
    }

    /** The class of a value of {@code length} bytes, at most {@link #LARGEST_SLOT_BYTES}. */
    static int classOf(int length) {
        if (length <= 128) {
            return Math.max(0, (length + 7) / 8 - 1);
        }
        int highBit = 31 - Integer.numberOfLeadingZeros(length - 1); // 2^highBit < length <= 2^(highBit+1)
        int step = 1 << (highBit - 2);
        int steps = (length + step - 1) / step; // 5..8
        return SMALL_CLASSES + (highBit - 7) * 4 + (steps - 5);
    }

    private static int stepAbove128(int length) {
        int highBit = 31 - Integer.numberOfLeadingZeros(length - 1);
        return 1 << (highBit - 2);
    }

    /**
     * Copies {@code value} into a slot owned by {@code key} and returns the entry that reads it. When
     * {@code replacing} (the key's current entry, or {@code null}) sits in a slot of the same class, the value
     * goes there and the caller must not {@link #free} it: with no TTL on either side {@code replacing} itself
     * is rewritten in place and returned ({@link StoredEntry#rewrite}); otherwise it is marked freed first, so a
     * lock-free reader of it retries, and a new entry reads the slot. Otherwise a new slot is taken and the
     * caller frees the old entry.
     */
    StoredEntry store(ByteKey key, byte[] value, long version, long expiresAtMillis, long nowMillis,
                      StoredEntry replacing) {
        if (replacing != null && expiresAtMillis == 0 && replacing.canRewrite(value.length)) {
            replacing.rewrite(value, version, nowMillis);
            return replacing;
        }
        SlabChunk chunk;
        int slot;
        if (replacing != null && sameClass(replacing.length(), value.length)) {
            replacing.markFreed();
            chunk = replacing.chunk();
            slot = replacing.slot();
        } else if (value.length > LARGEST_SLOT_BYTES) {
            chunk = new SlabChunk(value.length, 1);
            slot = chunk.take(key);
        } else {
            SizeClass sizeClass = sizeClass(value.length);
            chunk = sizeClass.chunkWithSpace();
            slot = sizeClass.take(chunk, key);
        }
        System.arraycopy(value, 0, chunk.data, chunk.offset(slot), value.length);
        return StoredEntry.of(chunk, slot, value.length, version, expiresAtMillis, nowMillis);
    }

    private static boolean sameClass(int length, int otherLength) {
        return length <= LARGEST_SLOT_BYTES && otherLength <= LARGEST_SLOT_BYTES && classOf(length) == classOf(otherLength);
    }

    /**
     * Frees the entry's slot (the entry has left the map or been replaced in it); may move other values of
     * its class to drop a sparse chunk.
     */
    void free(StoredEntry entry) {
        entry.markFreed();
        SlabChunk chunk = entry.chunk();
        chunk.release(entry.slot());
        if (entry.length() > LARGEST_SLOT_BYTES) {
            return; // its own array: unreachable once readers let go
        }
        SizeClass sizeClass = classes[classOf(entry.length())];
        sizeClass.released(chunk);
        for (SlabChunk sparse = sizeClass.toEvacuate(); sparse != null; sparse = sizeClass.toEvacuate()) {
            evacuate(sizeClass, sparse);
        }
    }

    /** Forgets every chunk (the segment's map was cleared). Readers still holding entries read the old arrays. */
    void clear() {
        classes = null;
    }

    /** Values moved to empty sparse chunks, since the segment started. */
    long movedValues() {
        return movedValues;
    }

    /** Bytes of every pooled chunk (used and free slots); values too large for a class are not counted. */
    long pooledBytes() {
        long total = 0;
        if (classes != null) {
            for (SizeClass sizeClass : classes) {
                if (sizeClass != null) {
                    total += (long) sizeClass.capacity * sizeClass.slotBytes;
                }
            }
        }
        return total;
    }

    /** Slots in use in the class of {@code length}-byte values, and slots of its chunks in all. */
    int[] usage(int length) {
        SizeClass sizeClass = classes == null ? null : classes[classOf(length)];
        return sizeClass == null ? new int[] {0, 0} : new int[] {sizeClass.used, sizeClass.capacity};
    }

    private SizeClass sizeClass(int length) {
        if (classes == null) {
            classes = new SizeClass[CLASSES];
        }
        int index = classOf(length);
        SizeClass sizeClass = classes[index];
        if (sizeClass == null) {
            sizeClass = new SizeClass(slotBytes(length));
            classes[index] = sizeClass;
        }
        return sizeClass;
    }

    /** Moves every value out of {@code chunk} into the class's other chunks, then drops it. */
    private void evacuate(SizeClass sizeClass, SlabChunk chunk) {
        sizeClass.remove(chunk);
        for (int slot = 0; slot < chunk.slots(); slot++) {
            ByteKey key = chunk.owner(slot);
            if (key == null) {
                continue;
            }
            StoredEntry old = entries.get(key);
            if (old == null || old.chunk() != chunk || old.slot() != slot) {
                throw new IllegalStateException("slab slot " + slot + " is owned by a key whose entry lives elsewhere");
            }
            SlabChunk target = sizeClass.chunkWithSpace();
            int targetSlot = sizeClass.take(target, key);
            System.arraycopy(chunk.data, chunk.offset(slot), target.data, target.offset(targetSlot), old.length());
            entries.put(key, old.movedTo(target, targetSlot));
            old.markFreed();
            chunk.release(slot);
            movedValues++;
        }
    }

    /**
     * The chunks of one slot size. {@code partial} lists the chunks with a free slot (each knows its index
     * there, so leaving the list is O(1)); {@code all} lists every chunk, for finding the sparsest.
     */
    private static final class SizeClass {
        final int slotBytes;
        final int maxSlotsPerChunk;
        final ArrayList<SlabChunk> all = new ArrayList<>();
        final ArrayList<SlabChunk> partial = new ArrayList<>();
        int capacity;
        int used;

        SizeClass(int slotBytes) {
            this.slotBytes = slotBytes;
            this.maxSlotsPerChunk = Math.max(1, Math.min(MAX_SLOTS_PER_CHUNK, CHUNK_TARGET_BYTES / slotBytes));
        }

        /** A chunk with a free slot, adding one (an eighth of the class's capacity, up to a full-size chunk) if none. */
        SlabChunk chunkWithSpace() {
            if (!partial.isEmpty()) {
                return partial.get(partial.size() - 1);
            }
            SlabChunk chunk = new SlabChunk(slotBytes, Math.max(1, Math.min(maxSlotsPerChunk, capacity / 8)));
            all.add(chunk);
            capacity += chunk.slots();
            addPartial(chunk);
            return chunk;
        }

        int take(SlabChunk chunk, ByteKey key) {
            int slot = chunk.take(key);
            used++;
            if (chunk.freeCount() == 0) {
                removePartial(chunk);
            }
            return slot;
        }

        /** A slot of {@code chunk} was released. */
        void released(SlabChunk chunk) {
            used--;
            if (chunk.partialIndex < 0) {
                addPartial(chunk);
            }
        }

        /**
         * The chunk to empty: the sparsest, when over an eighth of the slots (and more than one) are free and the
         * other chunks' free slots can take its values (free slots in all at least its slots); else {@code null}.
         */
        SlabChunk toEvacuate() {
            int free = capacity - used;
            if (free * 8L <= capacity || free < 2) {
                return null; // one spare slot stays: an overwrite into another class stores the new value before it frees the old
            }
            SlabChunk sparsest = sparsest();
            return free >= sparsest.slots() ? sparsest : null;
        }

        private SlabChunk sparsest() {
            SlabChunk sparsest = all.get(0);
            for (SlabChunk chunk : all) {
                if (chunk.usedCount() < sparsest.usedCount()) {
                    sparsest = chunk;
                }
            }
            return sparsest;
        }

        /** Takes {@code chunk} out of the class, with its slots; its values must be moved by the caller. */
        void remove(SlabChunk chunk) {
            all.remove(chunk);
            if (chunk.partialIndex >= 0) {
                removePartial(chunk);
            }
            capacity -= chunk.slots();
            used -= chunk.usedCount();
        }

        private void addPartial(SlabChunk chunk) {
            chunk.partialIndex = partial.size();
            partial.add(chunk);
        }

        private void removePartial(SlabChunk chunk) {
            int index = chunk.partialIndex;
            SlabChunk last = partial.remove(partial.size() - 1);
            if (last != chunk) {
                partial.set(index, last);
                last.partialIndex = index;
            }
            chunk.partialIndex = -1;
        }
    }
}
