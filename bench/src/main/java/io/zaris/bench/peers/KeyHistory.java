package io.zaris.bench.peers;

import java.util.List;

/**
 * What one key of a failover run went through: its completed writes in send order (a key has at most one write
 * in flight, so send order is completion order too), and when the write still in flight, if any, was sent.
 * Immutable: a snapshot of a {@link KeyTimeline}.
 *
 * @param inFlightSince when the write still in flight was sent, {@link #NONE_IN_FLIGHT} if none is
 */
record KeyHistory(List<WriteAttempt> attempts, long inFlightSince) {

    static final long NONE_IN_FLIGHT = Long.MIN_VALUE;

    KeyHistory {
        attempts = List.copyOf(attempts);
    }

    boolean hasWriteInFlight() {
        return inFlightSince != NONE_IN_FLIGHT;
    }

    /** The highest sequence number the client acknowledged, {@link SequenceValue#ABSENT} if none. */
    long lastAcknowledged() {
        long last = SequenceValue.ABSENT;
        for (WriteAttempt attempt : attempts) {
            if (attempt.isAcknowledged()) {
                last = Math.max(last, attempt.sequence());
            }
        }
        return last;
    }
}
