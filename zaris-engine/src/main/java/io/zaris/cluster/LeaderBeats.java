package io.zaris.cluster;

import java.util.HashSet;
import java.util.Set;

/**
 * The leader's side of its own lease: it sends numbered beats, members answer, and once a majority of the
 * voting nodes (the leader counted) answered a beat, the leader's lease is confirmed as of that
 * beat's send time. Only the most recent beats are remembered; a late answer to a forgotten beat counts
 * for nothing.
 *
 * <p>Pure and not thread-safe: owned by the membership events thread.
 */
final class LeaderBeats {

    private static final int REMEMBERED = 16;

    private final int[] majorities = new int[REMEMBERED];
    private final long[] sentNanos = new long[REMEMBERED];
    private final long[] rounds = new long[REMEMBERED];
    private final Set<?>[] answered = new Set<?>[REMEMBERED];
    private long nextRound = 1;

    /**
     * Starts a beat sent at {@code nowNanos} that {@code majority} answers confirm (a majority of the nodes
     * voting when it is sent: the cluster grows and shrinks); returns its round number.
     */
    long begin(long nowNanos, int majority) {
        long round = nextRound++;
        int slot = (int) (round % REMEMBERED);
        rounds[slot] = round;
        majorities[slot] = majority;
        sentNanos[slot] = nowNanos;
        answered[slot] = new HashSet<>();
        return round;
    }

    /** When beat {@code round} was sent, or {@code null} when it is no longer remembered (or was never sent). */
    Long sentAt(long round) {
        int slot = (int) (round % REMEMBERED);
        return round <= 0 || rounds[slot] != round ? null : sentNanos[slot];
    }

    /**
     * Records {@code member}'s answer (the leader answers its own beats too); returns the beat's send time
     * when this answer completes a majority, else {@code null}.
     */
    @SuppressWarnings("unchecked")
    Long answer(long round, Object member) {
        int slot = (int) (round % REMEMBERED);
        if (round <= 0 || rounds[slot] != round) {
            return null;
        }
        Set<Object> members = (Set<Object>) answered[slot];
        if (members.add(member) && members.size() == majorities[slot]) {
            return sentNanos[slot];
        }
        return null;
    }
}
