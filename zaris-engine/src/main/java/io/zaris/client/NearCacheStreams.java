package io.zaris.client;

/**
 * A moment's view of a near cache's segment streams: one per segment the client has read since it connected.
 *
 * @param live           streams live on the connection and epoch their segment is routed to now: its entries are
 *                       served
 * @param resuming       streams whose {@code TRACK_SEGMENT} is sent and not answered yet
 * @param down           streams whose connection closed or whose segment moved (a failover, a planned move, a new
 *                       epoch): their entries are kept but not served until the segment's next read resumes them
 * @param resumedTotal   streams that moved and resumed from the last revision heard, since the client connected
 * @param droppedTotal   streams that moved or skipped a revision and dropped their segment's entries, since then
 */
public record NearCacheStreams(int live, int resuming, int down, long resumedTotal, long droppedTotal) {

    /** What a client without a near cache reports. */
    public static final NearCacheStreams NONE = new NearCacheStreams(0, 0, 0, 0, 0);
}
