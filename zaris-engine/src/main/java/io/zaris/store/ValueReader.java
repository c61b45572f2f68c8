package io.zaris.store;

/**
 * Receives a stored value in place, straight out of its slab slot, so a read can copy it once (into a response)
 * instead of twice. The bytes are only valid during {@link #read}; see {@link NodeStore#read}.
 */
public interface ValueReader {

    /** Copies {@code length} bytes of {@code slab} from {@code offset}; must not keep a reference to {@code slab}. */
    void read(byte[] slab, int offset, int length, long version, long ttlRemainingMillis);

    /**
     * The slot was reused while {@link #read} copied it: forget that copy. {@link #read} is called again with the
     * key's current value, unless the key is gone by then.
     */
    void discard();
}
