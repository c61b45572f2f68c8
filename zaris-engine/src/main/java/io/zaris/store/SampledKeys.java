package io.zaris.store;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The keys of a segment in a dense array, so that a uniformly random key can be picked in O(1) (what
 * sampled eviction and active expiry need; a {@code ConcurrentHashMap} cannot give a random element).
 * Removal moves the last key into the freed slot; the caller updates that key's recorded slot.
 *
 * <p>Not thread-safe: owned by its {@link Segment} and used only under the segment's write lock.
 */
final class SampledKeys {

    private static final int INITIAL_CAPACITY = 8;

    private ByteKey[] keys = new ByteKey[INITIAL_CAPACITY];
    private int size;

    /** Appends a key; returns its slot. */
    int add(ByteKey key) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
        }
        keys[size] = key;
        return size++;
    }

    /**
     * Removes the key in {@code slot}; returns the key moved into that slot from the end (whose recorded
     * slot is now {@code slot}), or {@code null} when the removed key was the last one.
     */
    ByteKey remove(int slot) {
        if (slot < 0 || slot >= size) {
            throw new IllegalStateException("slot " + slot + " outside 0.." + (size - 1));
        }
        int last = --size;
        ByteKey moved = keys[last];
        keys[last] = null;
        if (slot == last) {
            return null;
        }
        keys[slot] = moved;
        return moved;
    }

    ByteKey random(RandomGenerator random) {
        return keys[random.nextInt(size)];
    }

    int size() {
        return size;
    }

    void clear() {
        keys = new ByteKey[INITIAL_CAPACITY];
        size = 0;
    }
}
