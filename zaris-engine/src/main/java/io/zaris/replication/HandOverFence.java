package io.zaris.replication;

import java.time.Duration;

/**
 * The first phase of a planned hand-over, on the partition's old active owner: it stops taking writes of its epoch
 * (they are refused with {@code OWNERSHIP_CHANGING}, nothing applied) and waits until every write it applied before
 * has its replicas' verdicts, so that none is still on its way to a replica when the new epoch is published (a
 * replica at the new epoch refuses it, and its outcome is unknown). The leader publishes the hand-over once the old
 * active answered, or after {@link #LEADER_WAIT} without an answer.
 *
 * <p>Bounds: the old active waits at most {@link #SETTLE_WAIT} for the verdicts (then it answers that it could
 * not settle, and the leader publishes anyway: today's path, where such a write may still fail); it lifts the
 * fence after {@link #HOLD} unless the new active's pull made it final, so a hand-over that is never published
 * (the leader lost its place, or decided otherwise) stalls the partition's writes for at most that long. Pure.
 */
public final class HandOverFence {

    /** How long the old active waits for the verdicts of the writes it applied before the fence. */
    public static final Duration SETTLE_WAIT = Duration.ofSeconds(1);
    /**
     * How long the leader waits for the old active's answer before it publishes the hand-over anyway: the settle
     * wait plus a generous round trip and connection set-up on a loaded machine.
     */
    public static final Duration LEADER_WAIT = Duration.ofSeconds(2);
    /**
     * How long the old active keeps the fence when no pull made it final: the leader's wait plus time for the
     * published view to reach the new active, whose pull then retires the segments for good.
     */
    public static final Duration HOLD = Duration.ofSeconds(5);
    /** How often the old active looks at its count of shipments awaiting verdicts while it settles. */
    static final Duration POLL = Duration.ofMillis(2);

    /** What the old active does next while it settles. */
    enum Step {
        /** Every write applied before the fence has its verdicts: answer that the partition is fenced. */
        SETTLED,
        /** Shipments are still waiting for verdicts and the wait has time left: look again after {@link #POLL}. */
        WAIT,
        /** The wait ran out: answer that it could not settle. */
        GAVE_UP
    }

    private HandOverFence() {
    }

    /**
     * @param awaitingVerdicts shipments of the partition still waiting for a replica's verdict (none is added once
     *                         the fence is up, so this only falls)
     * @param now              the clock's reading, in nanoseconds
     * @param deadline         when the settle wait ends, on the same clock
     */
    static Step next(int awaitingVerdicts, long now, long deadline) {
        if (awaitingVerdicts <= 0) {
            return Step.SETTLED;
        }
        return now - deadline >= 0 ? Step.GAVE_UP : Step.WAIT;
    }
}
