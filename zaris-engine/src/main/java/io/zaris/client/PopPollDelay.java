package io.zaris.client;

import java.util.concurrent.TimeUnit;

/**
 * How long {@link ZarisClient#listBlockingPop} waits before it looks at its list again. The native protocol has no
 * request that waits for data on the node, so the client looks (a length read, then a pop when there is something):
 * soon after the call starts, less often while the list stays empty, never more than {@link #LONGEST_NANOS} apart and
 * never past the caller's deadline. Pure: the caller owns the previous delay.
 */
final class PopPollDelay {

    /** The first wait after a look that found the list empty. */
    static final long FIRST_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** The longest wait between two looks: bounds how late an element pushed to a waited-on list is seen. */
    static final long LONGEST_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Returned by {@link #next} when the deadline has passed: no more looks. */
    static final long OVER = -1;

    private PopPollDelay() {
    }

    /**
     * The wait before the next look: double {@code previousNanos} ({@link #FIRST_NANOS} when it is 0), capped at
     * {@link #LONGEST_NANOS} and at {@code remainingNanos}; {@link #OVER} when no time remains.
     */
    static long next(long previousNanos, long remainingNanos) {
        if (remainingNanos <= 0) {
            return OVER;
        }
        long doubled = previousNanos <= 0 ? FIRST_NANOS : Math.min(LONGEST_NANOS, previousNanos * 2);
        return Math.min(doubled, remainingNanos);
    }
}
