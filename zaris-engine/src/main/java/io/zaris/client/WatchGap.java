package io.zaris.client;

/**
 * A watcher was not handed some changes, and is told so instead of being skipped past them silently. After a gap
 * the watcher should re-read what it watches; changes after the gap are delivered as before.
 *
 * @param reason         why
 * @param segment        the segment whose changes are missing, {@code -1} for {@link Reason#LISTENER_TOO_SLOW}
 * @param afterRevision  changes of {@code segment} after this revision may be missing ({@code -1}: any up to
 *                       {@code upToRevision})
 * @param upToRevision   ... up to and including this one ({@code -1} when not known)
 * @param droppedChanges how many changes were dropped, {@code -1} when not known
 */
public record WatchGap(Reason reason, int segment, long afterRevision, long upToRevision, long droppedChanges) {

    /**
     * The segment's new owner could not resume the watch's stream at the position it reached: any change up to
     * {@code upToRevision} may be missing, not only those after the position. The position may lie beside the new
     * owner's history rather than behind it: a push is sent when the active applies a change, before its replicas
     * have it, so a watch can be handed a change its active never replicated (it paused or died just then), and the
     * new owner writes other changes under the same revisions. A chaos run skipped an acknowledged change silently
     * while this notice said "after the position".
     */
    static WatchGap historyLost(int segment, long upToRevision) {
        return new WatchGap(Reason.HISTORY_LOST, segment, -1, upToRevision, -1);
    }

    public enum Reason {
        /**
         * The segment's new owner cannot prove it holds the changes since the last one delivered (failover, long
         * outage, a history that went another way): any change up to {@code upToRevision} may be missing.
         */
        HISTORY_LOST,
        /** A push skipped a revision: a change was never heard. */
        CHANGE_NOT_HEARD,
        /** The listener did not keep up: its queue of undelivered changes was full, and changes were dropped. */
        LISTENER_TOO_SLOW
    }
}
