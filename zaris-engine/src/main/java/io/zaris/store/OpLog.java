package io.zaris.store;

import io.zaris.protocol.Change;
import java.util.ArrayList;
import java.util.List;

/**
 * The recent changes of one segment in revision order, bounded by count and by bytes: the oldest are
 * dropped first. A replica that is behind is caught up from here when the log still reaches back to its
 * revision; otherwise it needs a snapshot.
 *
 * <p>Layout: a ring of slots, {@code head} the oldest, {@code count} slots in use. Each slot keeps the change
 * and, in primitive arrays beside it, the change's revision and retained bytes, so trimming and the "does the
 * log reach back" check read only those arrays and never touch an old (likely cold) {@link Change}. The ring
 * starts small and doubles up to the smallest power of two holding {@code maxChanges}, so a segment that
 * sees few writes (or whose byte budget keeps few changes) never pays for the count limit.
 *
 * <p>Invariants: revisions increase from {@code head} onwards; {@code count <= maxChanges}; {@code bytes}
 * is the sum of the retained sizes, at most {@code maxBytes} unless a single change alone exceeds it (the
 * newest change is always kept).
 *
 * <p>Not thread-safe: owned by its {@link Segment} and used only under the segment's write lock.
 */
final class OpLog {

    /** Slots a log starts with; it grows by doubling as the retention limits allow. */
    static final int INITIAL_SLOTS = 16;

    private final int maxChanges;
    private final long maxBytes;
    private final int maxSlots;
    private Change[] changes;
    private long[] revisions;
    private long[] sizes;
    /** Slot of the oldest retained change. */
    private int head;
    private int count;
    private long bytes;

    OpLog(int maxChanges, long maxBytes) {
        if (maxChanges < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("op log limits must be >= 1 but were " + maxChanges + " changes, "
                    + maxBytes + " bytes");
        }
        this.maxChanges = maxChanges;
        this.maxBytes = maxBytes;
        this.maxSlots = Math.max(1, Integer.highestOneBit(maxChanges - 1) << 1);
        allocate(Math.min(INITIAL_SLOTS, maxSlots));
    }

    void append(Change change) {
        if (count == maxChanges) {
            dropOldest();
        } else if (count == changes.length) {
            grow();
        }
        int slot = (head + count) & (changes.length - 1);
        long size = change.sizeBytes();
        changes[slot] = change;
        revisions[slot] = change.revision();
        sizes[slot] = size;
        count++;
        bytes += size;
        while (bytes > maxBytes && count > 1) {
            dropOldest();
        }
    }

    /**
     * The changes after {@code revision}, or {@code null} when the log no longer reaches back that far
     * (a change the caller misses has been dropped).
     *
     * @param currentRevision the segment's latest revision
     */
    List<Change> since(long revision, long currentRevision) {
        if (revision >= currentRevision) {
            return List.of();
        }
        if (count == 0 || revisions[head] > revision + 1) {
            return null;
        }
        int mask = changes.length - 1;
        int newer = 0;
        while (newer < count && revisions[(head + count - 1 - newer) & mask] > revision) {
            newer++;
        }
        List<Change> tail = new ArrayList<>(newer);
        for (int i = count - newer; i < count; i++) {
            tail.add(changes[(head + i) & mask]);
        }
        return tail;
    }

    /** Forgets everything (the segment's content was replaced by a snapshot). */
    void clear() {
        allocate(Math.min(INITIAL_SLOTS, maxSlots));
        head = 0;
        count = 0;
        bytes = 0;
    }

    int size() {
        return count;
    }

    long bytes() {
        return bytes;
    }

    private void dropOldest() {
        bytes -= sizes[head];
        changes[head] = null;
        head = (head + 1) & (changes.length - 1);
        count--;
    }

    /** Doubles the ring, moving the retained changes to the front in order. */
    private void grow() {
        Change[] oldChanges = changes;
        long[] oldRevisions = revisions;
        long[] oldSizes = sizes;
        int mask = oldChanges.length - 1;
        allocate(oldChanges.length << 1);
        for (int i = 0; i < count; i++) {
            int from = (head + i) & mask;
            changes[i] = oldChanges[from];
            revisions[i] = oldRevisions[from];
            sizes[i] = oldSizes[from];
        }
        head = 0;
    }

    private void allocate(int slots) {
        changes = new Change[slots];
        revisions = new long[slots];
        sizes = new long[slots];
    }
}
