package io.zaris.protocol;

import io.zaris.model.KvStatus;

/**
 * Size limits a node enforces on incoming frames. A frame over {@link #maxFrameBytes()} closes the
 * connection (the stream cannot be trusted to resynchronise); a key or value over its limit inside a
 * well-formed frame is answered with {@link KvStatus#TOO_LARGE} and the connection stays open.
 */
public record ProtocolLimits(int maxFrameBytes, int maxKeyBytes, int maxValueBytes, int maxBatchKeys) {

    /** Largest key: 64 KiB. */
    public static final int DEFAULT_MAX_KEY_BYTES = 64 * 1024;
    /** Largest value: 32 MiB. */
    public static final int DEFAULT_MAX_VALUE_BYTES = 32 * 1024 * 1024;
    /** Room a frame needs beyond one key and one value: frame, request and operation headers. */
    public static final int FRAME_HEADROOM_BYTES = 1024;
    /** Largest frame: one maximal key and value plus room for headers. */
    public static final int DEFAULT_MAX_FRAME_BYTES = DEFAULT_MAX_VALUE_BYTES + DEFAULT_MAX_KEY_BYTES + FRAME_HEADROOM_BYTES;
    /**
     * Smallest frame limit a cluster node can run with: node-to-node frames (replication snapshot chunks of up
     * to 1 MiB of entries) arrive on the data port under the same limit.
     */
    public static final int MIN_NODE_FRAME_BYTES = 2 * 1024 * 1024;
    /** Most keys in one multi-key request. */
    public static final int DEFAULT_MAX_BATCH_KEYS = 10_000;

    public ProtocolLimits {
        require(maxKeyBytes >= 1, "maxKeyBytes must be >= 1 but was %d", maxKeyBytes);
        require(maxValueBytes >= 0, "maxValueBytes must be >= 0 but was %d", maxValueBytes);
        require(maxBatchKeys >= 1, "maxBatchKeys must be >= 1 but was %d", maxBatchKeys);
        require(maxFrameBytes >= 64, "maxFrameBytes must be >= 64 but was %d", maxFrameBytes);
    }

    /**
     * The smallest frame limit a cluster node with these key and value limits can run with: a request with the
     * largest key and value must fit (else it would close its connection instead of being answered), and so
     * must node-to-node frames.
     */
    public static long nodeFrameBytesFor(int maxKeyBytes, int maxValueBytes) {
        return Math.max(MIN_NODE_FRAME_BYTES, (long) maxKeyBytes + maxValueBytes + FRAME_HEADROOM_BYTES);
    }

    public static ProtocolLimits defaults() {
        return new ProtocolLimits(DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_KEY_BYTES, DEFAULT_MAX_VALUE_BYTES,
                DEFAULT_MAX_BATCH_KEYS);
    }

    private static void require(boolean condition, String format, Object... args) {
        if (!condition) {
            throw new IllegalArgumentException(String.format(format, args));
        }
    }
}
