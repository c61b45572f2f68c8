package io.zaris.chaos;

/**
 * One operation of a chaos history: who ran it (a client, one operation at a time), on which key, when it
 * was invoked and when it completed (nanoseconds of one injected clock shared by every client of the run),
 * and what its caller got back.
 *
 * <p>Values are strings. Every value a workload writes is unique in the run (its writer and a sequence
 * number), so a read names the one write it came from; {@code null} stands for "absent".
 */
sealed interface Op {

    int client();

    String key();

    long invokedNanos();

    long completedNanos();

    Reply reply();

    /** An operation that changes state. */
    sealed interface Change extends Op {

        /** Whether an earlier attempt of this call was sent and got no answer or an ambiguous one. */
        boolean ambiguousAttemptBefore();

        default Outcome outcome() {
            return Outcome.of(reply(), ambiguousAttemptBefore());
        }
    }

    /**
     * An unconditional PUT of {@code value}, or a DELETE when {@code value} is {@code null}.
     *
     * @param revision the key's revision its acknowledgement named, {@code -1} when none did (not acknowledged,
     *                 or a DELETE, whose API returns no revision)
     */
    record Write(int client, String key, String value, long revision, long invokedNanos, long completedNanos,
                 Reply reply, boolean ambiguousAttemptBefore) implements Change {
    }

    /**
     * A GET that read {@code value} ({@code null}: absent, or the read failed; see {@link #reply()}).
     *
     * @param afterHealing whether it is one of the reads of every written key once the cluster healed
     * @param local        whether the client's near cache answered it (no round trip); such a read may be stale
     *                     within the near cache's bound, see {@link RegisterCheck}
     */
    record Read(int client, String key, String value, boolean afterHealing, boolean local, long invokedNanos,
                long completedNanos, Reply reply) implements Op {

        /** Whether the read was answered, so {@link #value()} is what the key held. */
        boolean answered() {
            return reply.tookEffect();
        }
    }

    /**
     * A compare-and-set that replaces {@code expected} (the value its caller read with the version it sent;
     * {@code null}: absent) by {@code value}. Applied = {@link Reply#OK}; condition failed =
     * {@link Reply#CONFLICT}.
     *
     * @param revision the revision of the applied write, {@code -1} when not applied
     */
    record Cas(int client, String key, String expected, String value, long revision, long invokedNanos,
               long completedNanos, Reply reply, boolean ambiguousAttemptBefore) implements Change {
    }

    /**
     * An INCREMENT by {@code delta} that returned {@code result}, the counter's new value ({@code 0} when it
     * failed).
     *
     * @param revision the revision of the acknowledged change, {@code -1} when not acknowledged
     */
    record Increment(int client, String key, long delta, long result, long revision, long invokedNanos,
                     long completedNanos, Reply reply, boolean ambiguousAttemptBefore) implements Change {

        /** The counter's value just before this increment, as its result says. */
        long before() {
            return result - delta;
        }
    }
}
