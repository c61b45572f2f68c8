package io.zaris.cluster;

import java.time.Duration;

/**
 * A node's permission to act as an active owner: granted for {@code duration} from the moment the node
 * <em>sent</em> a request that the leader (holding a majority) answered, measured on this node's monotonic
 * clock. A paused or cut-off node stops renewing, and its lease runs out before the majority can confirm
 * it gone and promote a replacement (the lease is shorter than the escalation timeout). Answers that were
 * in flight during a pause renew nothing: they carry the send time of a request made before it.
 *
 * <p>Pure and not thread-safe: written on the membership events thread; readers use {@link #validUntil}.
 */
final class OwnerLease {

    private final long durationNanos;
    private long confirmedAtNanos;
    private boolean everConfirmed;

    OwnerLease(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("lease duration must be positive but was " + duration);
        }
        this.durationNanos = duration.toNanos();
    }

    /** A grant answered a request sent at {@code sentNanos}; an older one than the last renews nothing. */
    void confirmedAt(long sentNanos) {
        if (!everConfirmed || sentNanos - confirmedAtNanos > 0) {
            confirmedAtNanos = sentNanos;
            everConfirmed = true;
        }
    }

    /** Until when (monotonic nanos) the lease holds; {@link Long#MIN_VALUE} before the first grant. */
    long validUntil() {
        return everConfirmed ? confirmedAtNanos + durationNanos : Long.MIN_VALUE;
    }

    static boolean holds(long validUntilNanos, long nowNanos) {
        return validUntilNanos != Long.MIN_VALUE && nowNanos - validUntilNanos < 0;
    }
}
