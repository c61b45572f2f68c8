package io.zaris.server;

/**
 * When a client stops waiting for a request, on the node's monotonic clock, and whether that moment passed. A frame
 * carries the milliseconds its client still waits (0: no deadline); the deadline counts from the moment the socket
 * read that delivered the frame happened, so a backlog on the connection does not stretch it. Pure.
 */
final class RequestDeadline {

    /** A request without a deadline. */
    static final long NONE = Long.MAX_VALUE;

    private RequestDeadline() {
    }

    /** The deadline of a frame read at {@code arrivedNanos} whose client waits {@code waitMillis} (0: none). */
    static long of(long arrivedNanos, int waitMillis) {
        return waitMillis == 0 ? NONE : arrivedNanos + waitMillis * 1_000_000L;
    }

    /** Whether nobody waits for the answer at {@code nowNanos} any more; never for {@link #NONE}. */
    static boolean passed(long nowNanos, long deadlineNanos) {
        return deadlineNanos != NONE && nowNanos - deadlineNanos > 0;
    }
}
