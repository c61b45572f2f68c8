package io.zaris.client;

/**
 * Whether a near-cache entry may answer a read now, and if not, why. The decision is a pure function of the
 * entry's provenance and the client's current routing ({@link #of}).
 *
 * <p>An entry is only as good as the invalidation stream that would have told of its change: the tracked
 * connection it was read on, to the owner under the epoch it was read in. The entry is served only while that
 * stream is still the one the client routes the key's segment to, and open. Any change of owner or epoch (a
 * failover, a planned move, a healing hand-back), or a lost connection, makes every entry of the old stream
 * unservable at once, whether or not the new owner has the same value: the client cannot prove it current.
 */
enum NearCacheVerdict {

    /** The stream is intact and the value has not reached its time to live: answer locally. */
    SERVE(true),
    /** The connection it was read on is closed: changes since may never have been pushed. */
    STREAM_DOWN(false),
    /** The segment is routed elsewhere now (another node, another connection or another epoch). */
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
     * @param readEpoch      the partition epoch the entry was read under
     * @param routedEpoch    the epoch the client routes the segment by now
     * @param sameConnection whether the client routes the segment to the very connection the entry was read on
     * @param connectionOpen whether that connection is open
     * @param expiresAtNanos time-source time the value expires, {@link Long#MAX_VALUE} for never
     * @param nowNanos       time-source time now
     */
    static NearCacheVerdict of(long readEpoch, long routedEpoch, boolean sameConnection, boolean connectionOpen,
                               long expiresAtNanos, long nowNanos) {
        if (!sameConnection || readEpoch != routedEpoch) {
            return OWNER_CHANGED;
        }
        if (!connectionOpen) {
            return STREAM_DOWN;
        }
        if (expiresAtNanos != Long.MAX_VALUE && nowNanos - expiresAtNanos >= 0) {
            return EXPIRED;
        }
        return SERVE;
    }
}
