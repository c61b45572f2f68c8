package io.zaris.store;

/**
 * Where each of a segment's most recent epochs began: the segment revision just before the first change
 * written under that epoch. After a promotion, the new active's start revision for its epoch is exactly
 * the history it inherited; an acknowledged write of an older epoch above it is lost.
 *
 * <p>Not thread-safe: owned by one {@link Segment} and used only under its write lock.
 */
final class EpochStarts {

    static final long UNKNOWN = -1;

    private final long[] epochs;
    private final long[] starts;
    /** Slots filled so far; entries are ordered by epoch, the newest last. */
    private int size;

    EpochStarts(int capacity) {
        this.epochs = new long[capacity];
        this.starts = new long[capacity];
    }

    /** Records a change of {@code epoch} at {@code revision}; only the first change of a newer epoch counts. */
    void onChange(long epoch, long revision) {
        if (size > 0 && epochs[size - 1] >= epoch) {
            return;
        }
        if (size == epochs.length) {
            System.arraycopy(epochs, 1, epochs, 0, size - 1);
            System.arraycopy(starts, 1, starts, 0, size - 1);
            size--;
        }
        epochs[size] = epoch;
        starts[size] = revision - 1;
        size++;
    }

    /**
     * The revision before the first change of {@code epoch}; {@code currentRevision} when no change of that
     * or a newer epoch exists yet (the epoch has not written here); {@link #UNKNOWN} when it is too old to
     * be remembered or never wrote here while newer epochs did.
     */
    long startOf(long epoch, long currentRevision) {
        if (size == 0 || epochs[size - 1] < epoch) {
            return currentRevision;
        }
        for (int i = size - 1; i >= 0; i--) {
            if (epochs[i] == epoch) {
                return starts[i];
            }
        }
        return UNKNOWN;
    }

    /** The newest epoch a remembered change was written under; {@link #UNKNOWN} when none is remembered. */
    long newest() {
        return size == 0 ? UNKNOWN : epochs[size - 1];
    }

    /** A snapshot replaced the segment's history. */
    void clear() {
        size = 0;
    }
}
