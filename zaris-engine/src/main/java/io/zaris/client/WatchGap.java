package io.zaris.client;

/**
 * A watcher was not handed some changes, and is told so instead of being skipped past them silently. After a gap
 * the watcher should re-read what it watches; changes after the gap are delivered as before.
 *
 * @param reason         why
 * @param segment        the segment whose changes are missing, {@code -1} for {@link Reason#LISTENER_TOO_SLOW}
 * @param afterRevision  changes of {@code segment} after this revision may be missing ({@code -1} when not known)
 * @param upToRevision   ... up to and including this one ({@code -1} when not known)
 * @param droppedChanges how many changes were dropped, {@code -1} when not known
 */
public record WatchGap(Reason reason, int segment, long afterRevision, long upToRevision, long droppedChanges) {

    public enum Reason {
        /** The segment's new owner no longer holds the changes since the last one delivered (failover, long outage). */
        HISTORY_LOST,
        /** A push skipped a revision: a change was never heard. */
        CHANGE_NOT_HEARD,
        /** The listener did not keep up: its queue of undelivered changes was full, and changes were dropped. */
        LISTENER_TOO_SLOW
    }
}
