package io.zaris.client;

/**
 * One operation's count of attempts per routing, the count {@link RetryPolicy} decides by: an attempt that goes out
 * on a routing other than the previous one's (another partition owner or epoch, or a connection to the owner that
 * was missing before) starts a new count, so a failover never spends the attempts the operation needs at its new
 * owner. Also remembers when the first attempt on the routing failed: the wait on the map for a new owner counts
 * from there. Pure: the routing and the time come in as values.
 *
 * <p>Threads: one attempt of an operation runs at a time, and each hands the operation to the next through a
 * future's completion (which orders the writes before the reads), so the fields need neither a lock nor volatile.
 */
final class RoutingAttempts {

    private int partition = -1;
    private RoutingWatch.Routing routing;
    private int count;
    private boolean stalled;
    private long stalledSinceNanos;

    /** An attempt goes out on {@code routing} of {@code partition}: a new routing starts a new count. */
    void routedTo(int partition, RoutingWatch.Routing routing) {
        if (partition != this.partition || !routing.equals(this.routing)) {
            this.partition = partition;
            this.routing = routing;
            count = 0;
            stalled = false;
        }
        count++;
    }

    /** The attempt on the current routing failed at {@code nowNanos}; only the first failure on it is kept. */
    void failed(long nowNanos) {
        if (!stalled) {
            stalled = true;
            stalledSinceNanos = nowNanos;
        }
    }

    /** The partition the latest attempt went to. */
    int partition() {
        return partition;
    }

    /** How the latest attempt was routed; {@code null} before the first. */
    RoutingWatch.Routing routing() {
        return routing;
    }

    /** Attempts made on the current routing, the latest included. */
    int count() {
        return count;
    }

    /** When the first attempt on the current routing failed; meaningful only after {@link #failed}. */
    long stalledSince() {
        return stalledSinceNanos;
    }
}
