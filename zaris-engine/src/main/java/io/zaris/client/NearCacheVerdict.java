package io.zaris.client;

/**
 * Whether a near-cache entry may answer a read now, and if not, why. The decision is a pure function of the
 * entry's provenance and the client's current routing ({@link #of}).
 *
 * <p>An entry is only as good as its segment's invalidation stream ({@link SegmentStreams}). It is served only
 * while that stream is live on the connection and epoch the client routes the segment to now, and that connection
 * is open. Any change of owner or epoch (a failover, a planned move, a healing hand-back), or a lost connection,
 * makes the entries of the segment unservable at once, until the stream resumed on the new route.
 */
enum NearCacheVerdict {

    /** The stream is intact and the value has not reached its time to live: answer locally. */
    SERVE(true),
    /** The segment's stream is not live, or its connection is closed: changes since may not have been heard. */
    STREAM_DOWN(false),
    /** The segment is routed elsewhere now (another node, another connection or another epoch) than its stream. */
    OWNER_CHANGED(false),
    /** Its time to live, counted conservatively from when the read was sent, is over. */
    EXPIRED(false);

    private final boolean servable;

    NearCacheVerdict(boolean servable) {
        this.servable = servable;
    }

    /** Whether the entry answers the read; otherwise the read goes to the owner and the entry is dropped. */
    boolean servable() {
        return servable;
    }

    /**
     * @param streamLive     whether the segment's stream is live
     * @param sameRoute      whether the stream runs on the connection and epoch the client routes the segment by now
     * @param connectionOpen whether that connection is open
     * @param expiresAtNanos time-source time the value expires, {@link Long#MAX_VALUE} for never
     * @param nowNanos       time-source time now
     */
    static NearCacheVerdict of(boolean streamLive, boolean sameRoute, boolean connectionOpen, long expiresAtNanos,
                               long nowNanos) {
        if (expiresAtNanos != Long.MAX_VALUE && nowNanos - expiresAtNanos >= 0) {
            return EXPIRED;
        }
        if (!sameRoute) {
            return OWNER_CHANGED;
        }
        if (!streamLive || !connectionOpen) {
            return STREAM_DOWN;
        }
        return SERVE;
    }
}
