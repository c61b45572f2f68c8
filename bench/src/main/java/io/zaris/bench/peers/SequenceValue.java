package io.zaris.bench.peers;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The value a failover run writes: the key's sequence number (8 bytes, big-endian) then filler up to
 * {@link #BYTES}, so that reading a key back tells which of its writes the cluster kept.
 */
final class SequenceValue {

    /** Size of every value written: a small cache entry, the same for every system. */
    static final int BYTES = 100;
    /** What {@link #decode} returns for an absent key: no write of it survived. */
    static final long ABSENT = 0;
    /** What {@link #decode} returns for a value this class did not write. */
    static final long MALFORMED = -1;

    private static final byte FILLER = 'z';

    private SequenceValue() {
    }

    /** @param sequence the key's sequence number, {@code >= 1} (the first write of a key is 1) */
    static byte[] encode(long sequence) {
        if (sequence < 1) {
            throw new IllegalArgumentException("a sequence number starts at 1, not " + sequence);
        }
        byte[] value = new byte[BYTES];
        ByteBuffer.wrap(value).putLong(sequence);
        Arrays.fill(value, Long.BYTES, BYTES, FILLER);
        return value;
    }

    /** The sequence number the value carries; {@link #ABSENT} for {@code null}, {@link #MALFORMED} for anything else. */
    static long decode(byte[] value) {
        if (value == null) {
            return ABSENT;
        }
        if (value.length != BYTES) {
            return MALFORMED;
        }
        long sequence = ByteBuffer.wrap(value).getLong();
        return sequence >= 1 ? sequence : MALFORMED;
    }
}
