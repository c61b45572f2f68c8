package io.zaris.client;

/**
 * A moment's counts of a client's near cache.
 *
 * @param hits          reads answered locally
 * @param misses        reads that went to the owner (nothing cached, or the entry could not be vouched for)
 * @param invalidations keys dropped because a node pushed their change or this client wrote them
 * @param evictions     entries dropped to keep the bounds
 * @param entries       entries held now
 * @param bytes         bytes held now (keys, values and per-entry overhead)
 * @param resumedStreams segment streams that moved to a new owner, epoch or connection and resumed from the last
 *                      revision heard, keeping their entries (minus the keys changed since)
 * @param droppedStreams segment streams that could not resume (the new owner's op log did not reach back, or a push
 *                      skipped a revision) and dropped that segment's entries
 */
public record NearCacheStats(long hits, long misses, long invalidations, long evictions, int entries, long bytes,
                             long resumedStreams, long droppedStreams) {

    /** What a client without a near cache reports. */
    public static final NearCacheStats NONE = new NearCacheStats(0, 0, 0, 0, 0, 0, 0, 0);
}
