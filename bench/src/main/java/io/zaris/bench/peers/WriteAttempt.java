package io.zaris.bench.peers;

/**
 * One completed write of a failover run's key.
 *
 * @param sequence   the key's sequence number the value carried (1, 2, … in send order)
 * @param sentNanos  when the write was handed to the client, on the run's monotonic clock
 * @param doneNanos  when the client reported its outcome, {@code >= sentNanos}
 * @param failure    {@code null} when the client acknowledged the write, else the kind of exception it reported
 *                   (see {@link ExceptionKinds#of})
 */
record WriteAttempt(long sequence, long sentNanos, long doneNanos, String failure) {

    WriteAttempt {
        if (doneNanos < sentNanos) {
            throw new IllegalArgumentException("write " + sequence + " done at " + doneNanos + " before it was sent at "
                    + sentNanos);
        }
    }

    static WriteAttempt acknowledged(long sequence, long sentNanos, long doneNanos) {
        return new WriteAttempt(sequence, sentNanos, doneNanos, null);
    }

    static WriteAttempt failed(long sequence, long sentNanos, long doneNanos, String failure) {
        return new WriteAttempt(sequence, sentNanos, doneNanos, failure);
    }

    boolean isAcknowledged() {
        return failure == null;
    }

    long latencyNanos() {
        return doneNanos - sentNanos;
    }
}
