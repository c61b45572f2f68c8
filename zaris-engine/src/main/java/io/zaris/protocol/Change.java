package io.zaris.protocol;

/**
 * One change of one key, as the op log records it and replication ships it: the effect, not the
 * command, so applying it is deterministic on every replica (an INCREMENT ships the resulting value).
 *
 * @param revision        the segment revision this change received; also the key's new version
 * @param epoch           the partition epoch under which the active owner made the change
 * @param value           the new value, or {@code null} when the key was removed
 * @param expiresAtMillis wall-clock expiry, {@code 0} for none
 */
public record Change(long revision, long epoch, byte[] key, byte[] value, long expiresAtMillis) {

    /** Bookkeeping bytes per change beyond key and value, for log retention accounting. */
    public static final int OVERHEAD_BYTES = 64;

    public boolean isRemoval() {
        return value == null;
    }

    /** Approximate heap footprint, for bounding the op log by bytes. */
    public long sizeBytes() {
        return OVERHEAD_BYTES + key.length + (value == null ? 0 : value.length);
    }
}
