package io.zaris.resp;

/**
 * What one RESP command may be: a stream that exceeds a limit is answered with
 * {@code -ERR Protocol error: …} and that connection is closed (its framing can no longer be trusted).
 *
 * @param maxBulkBytes    largest bulk string argument
 * @param maxArrayLength  most arguments of one command
 * @param maxInlineBytes  longest inline command line (what {@code redis-cli} and telnet send)
 * @param maxCommandBytes most argument bytes of one command in total, so a long array of large bulks
 *                        cannot hold a node's memory hostage
 */
public record RespLimits(int maxBulkBytes, int maxArrayLength, int maxInlineBytes, long maxCommandBytes) {

    /** Largest bulk: the engine's largest value (32 MiB) plus room for nothing else. */
    public static final int DEFAULT_MAX_BULK_BYTES = 32 * 1024 * 1024;
    /** Most arguments of one command (Redis itself allows far more; a cache needs far fewer). */
    public static final int DEFAULT_MAX_ARRAY_LENGTH = 1024 * 1024;
    /** Longest inline command, as Redis: 64 KiB. */
    public static final int DEFAULT_MAX_INLINE_BYTES = 64 * 1024;
    /** Most bytes of one command's arguments together. */
    public static final long DEFAULT_MAX_COMMAND_BYTES = 64L * 1024 * 1024;

    public RespLimits {
        if (maxBulkBytes < 1 || maxArrayLength < 1 || maxInlineBytes < 16 || maxCommandBytes < 1) {
            throw new IllegalArgumentException("RESP limits must be positive (inline at least 16 bytes): bulk "
                    + maxBulkBytes + ", array " + maxArrayLength + ", inline " + maxInlineBytes + ", command " + maxCommandBytes);
        }
    }

    /** Largest bulk an operator may configure: 1 GiB, the largest value a node can be configured to take. */
    public static final int MAX_BULK_BYTES = 1024 * 1024 * 1024;

    /**
     * The three limits an operator sets, with the per-command total at its default, or at the largest bulk
     * when that is bigger (a command must be able to carry one bulk of the permitted size).
     */
    public static RespLimits of(int maxBulkBytes, int maxArrayLength, int maxInlineBytes) {
        return new RespLimits(maxBulkBytes, maxArrayLength, maxInlineBytes,
                Math.max(DEFAULT_MAX_COMMAND_BYTES, maxBulkBytes));
    }

    public static RespLimits defaults() {
        return new RespLimits(DEFAULT_MAX_BULK_BYTES, DEFAULT_MAX_ARRAY_LENGTH, DEFAULT_MAX_INLINE_BYTES,
                DEFAULT_MAX_COMMAND_BYTES);
    }
}
