package io.zaris.model;

/**
 * One change of one key, as replication ships it: the effect, not the command, so applying it is
 * deterministic on every replica (an INCREMENT ships the resulting value).
 *
 * <p>A change shipped from the op log may be <em>superseded</em>: the key changed again later in the same
 * tail, and the op log, which does not keep values, can no longer say what this change wrote. Applying it
 * only advances the revision; the later change sets the key. A tail is applied whole under one lock, or
 * cut only where no superseded change waits for a later one ({@code TailCut}), so nobody sees the key between.
 *
 * @param revision        the segment revision this change received; also the key's new version
 * @param epoch           the partition epoch under which the active owner made the change
 * @param value           the new value, or {@code null} when the key was removed or the change is superseded
 * @param expiresAtMillis wall-clock expiry, {@code 0} for none
 * @param superseded      the key changed again later in the same tail; {@code value} is {@code null}
 */
public record Change(long revision, long epoch, byte[] key, byte[] value, long expiresAtMillis, boolean superseded) {

    /** Bookkeeping bytes per change beyond key and value, for accounting what a tail or snapshot holds. */
    public static final int OVERHEAD_BYTES = 64;

    /** A put (with {@code value}) or a removal (with {@code null}). */
    public Change(long revision, long epoch, byte[] key, byte[] value, long expiresAtMillis) {
        this(revision, epoch, key, value, expiresAtMillis, false);
    }

    public Change {
        if (superseded && value != null) {
            throw new IllegalArgumentException("a superseded change carries no value");
        }
    }

    /** A change of {@code key} that a later change in the same tail overwrites. */
    public static Change superseded(long revision, long epoch, byte[] key) {
        return new Change(revision, epoch, key, null, 0, true);
    }

    public boolean isRemoval() {
        return value == null && !superseded;
    }

    public boolean hasValue() {
        return value != null;
    }

    /** Approximate heap footprint, for bounding the op log by bytes. */
    public long sizeBytes() {
        return OVERHEAD_BYTES + key.length + (value == null ? 0 : value.length);
    }
}
