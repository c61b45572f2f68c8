package io.zaris.cluster;

import java.time.Duration;

/**
 * How often a node asks its peers for their cluster view (the first one it lacks, or a newer one it missed): at most
 * once per interval, whichever of the two asks.
 *
 * <p>Concurrency: not thread-safe; owned by the cluster member's events thread.
 */
final class ViewFetchPacer {

    private final long intervalNanos;
    /** When the last fetch went out (monotonic nanos); {@link Long#MIN_VALUE}: never. */
    private long lastNanos = Long.MIN_VALUE;

    ViewFetchPacer(Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the view fetch interval must be positive, was " + interval);
        }
        this.intervalNanos = interval.toNanos();
    }

    /** Whether a fetch may go out at {@code now}; if so, it counts as sent then. */
    boolean tryFetch(long now) {
        if (lastNanos != Long.MIN_VALUE && now - lastNanos < intervalNanos) {
            return false;
        }
        lastNanos = now;
        return true;
    }
}
