package io.zaris.chaos;

import java.util.List;
import java.util.Set;

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
     * An increment by {@code delta} that returned {@code result}, the counter's new value ({@code 0} when it
     * failed): an INCREMENT of a string counter, an HINCRBY of a hash's counter field, or a ZINCRBY of a sorted-set
     * member's score, as {@code target} says. Each counter key holds one counter, read back the same way.
     *
     * @param revision the revision of the acknowledged change, {@code -1} when not acknowledged or when the
     *                 operation's API returns none (the sorted-set one)
     */
    record Increment(int client, String key, long delta, long result, long revision, long invokedNanos,
                     long completedNanos, Reply reply, boolean ambiguousAttemptBefore, Target target)
            implements Change {

        /** What is incremented. */
        enum Target {
            /** A string key holding a decimal counter (INCREMENT). */
            COUNTER,
            /** The counter field {@link Workload#HASH_FIELD} of a hash (HINCRBY). */
            HASH_FIELD,
            /** The score of the member {@link Workload#SCORE_MEMBER} of a sorted set (ZINCRBY). */
            SORTED_SET_SCORE
        }

        /** An INCREMENT of a string counter. */
        Increment(int client, String key, long delta, long result, long revision, long invokedNanos,
                  long completedNanos, Reply reply, boolean ambiguousAttemptBefore) {
            this(client, key, delta, result, revision, invokedNanos, completedNanos, reply, ambiguousAttemptBefore,
                    Target.COUNTER);
        }

        /** The counter's value just before this increment, as its result says. */
        long before() {
            return result - delta;
        }
    }

    /**
     * An SADD of one {@code member}, unique in the run ({@code s<client>:<sequence>}), to the set at the key.
     * Its API returns no revision.
     */
    record SetAdd(int client, String key, String member, long invokedNanos, long completedNanos, Reply reply,
                  boolean ambiguousAttemptBefore) implements Change {
    }

    /**
     * An SMEMBERS that read {@code members} ({@code null} when the read failed; see {@link #reply()}; an absent
     * key reads as the empty set).
     *
     * @param afterHealing whether it is one of the reads of every written key once the cluster healed
     */
    record SetRead(int client, String key, Set<String> members, boolean afterHealing, long invokedNanos,
                   long completedNanos, Reply reply) implements Op {

        public SetRead {
            members = members == null ? null : Set.copyOf(members);
        }

        boolean answered() {
            return reply.tookEffect() && members != null;
        }
    }

    /**
     * An RPUSH of one {@code element}, unique in the run ({@code q<client>:<sequence>}), onto the tail of the list at
     * the key, by the list's only producer. Not repeated by the client once it may have been applied.
     */
    record Push(int client, String key, String element, long invokedNanos, long completedNanos, Reply reply,
                boolean ambiguousAttemptBefore) implements Change {
    }

    /**
     * An LPOP of one element from the head of the list at the key, by the list's only consumer: {@code element} is
     * what it took ({@code null} when the list was empty, {@link Reply#NOT_FOUND}, or the pop failed). Not repeated
     * by the client once it may have been applied, so an indeterminate pop may have taken an element no one saw.
     */
    record Pop(int client, String key, String element, long invokedNanos, long completedNanos, Reply reply,
               boolean ambiguousAttemptBefore) implements Change {
    }

    /** An LRANGE of the whole list at the key once the cluster healed ({@code null} when not answered). */
    record ListRead(int client, String key, List<String> elements, long invokedNanos, long completedNanos,
                    Reply reply) implements Op {

        public ListRead {
            elements = elements == null ? null : List.copyOf(elements);
        }

        boolean answered() {
            return reply.tookEffect() && elements != null;
        }
    }
}
