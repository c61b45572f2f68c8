package io.zaris.store;

import io.zaris.protocol.Change;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The recent changes of one segment in revision order, bounded by count and by bytes: the oldest are
 * dropped first. A replica that is behind is caught up from here when the log still reaches back to its
 * revision; otherwise it needs a snapshot.
 *
 * <p>Not thread-safe: owned by its {@link Segment} and used only under the segment's write lock.
 */
final class OpLog {

    private final int maxChanges;
    private final long maxBytes;
    private final ArrayDeque<Change> changes = new ArrayDeque<>();
    private long bytes;

    OpLog(int maxChanges, long maxBytes) {
        this.maxChanges = maxChanges;
        this.maxBytes = maxBytes;
    }

    void append(Change change) {
        changes.addLast(change);
        bytes += change.sizeBytes();
        while (changes.size() > maxChanges || (bytes > maxBytes && changes.size() > 1)) {
            bytes -= changes.removeFirst().sizeBytes();
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
        Change oldest = changes.peekFirst();
        if (oldest == null || oldest.revision() > revision + 1) {
            return null;
        }
        List<Change> tail = new ArrayList<>();
        for (Iterator<Change> it = changes.descendingIterator(); it.hasNext(); ) {
            Change change = it.next();
            if (change.revision() <= revision) {
                break;
            }
            tail.add(change);
        }
        java.util.Collections.reverse(tail);
        return tail;
    }

    /** Forgets everything (the segment's content was replaced by a snapshot). */
    void clear() {
        changes.clear();
        bytes = 0;
    }

    int size() {
        return changes.size();
    }

    long bytes() {
        return bytes;
    }
}
