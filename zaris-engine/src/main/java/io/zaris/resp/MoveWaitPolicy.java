package io.zaris.resp;

import io.zaris.model.KvStatus;
import java.time.Duration;

/**
 * Which engine refusals a Redis command waits out on the node instead of answering them, and when it tries again.
 * Pure: time comes in as arguments, so every decision is tested on a fake clock.
 *
 * <p><b>Why.</b> While a partition changes hands by plan (a node joins, drains or comes back) or after a failover,
 * its new active owner refuses requests until its catch-up from the previous owner ends ({@code MIGRATING},
 * {@code OWNERSHIP_CHANGING}), and a node whose map lags names itself the owner of a partition the engine already
 * calls moved. Redis cluster clients (Lettuce, Jedis) follow only {@code -MOVED} and {@code -ASK} by themselves and
 * hand {@code -TRYAGAIN} to the application, so the node retries for them: each refused command is run again after a
 * short, growing delay, and answered with the first reply that is not such a refusal — the value, or {@code -MOVED}
 * once the map names another owner. Only after {@link #BOUND} does the refusal reach the client as
 * {@code -TRYAGAIN}. A refused request changed nothing, so running it again is always safe.
 *
 * <p><b>Bounds.</b> {@link #BOUND} covers a catch-up that gives up on a silent peer (five seconds, plus one
 * two-second pull attempt) with room for the map to reach this node, and stays far below Lettuce's default
 * 60 s command timeout. At most {@link #MAX_WAITING} commands wait on a node at once; one more is answered at
 * once. A connection's waiting commands also count towards its bound of replies waiting in pipeline order
 * ({@code RespConnectionHandler.MAX_PENDING}), past which the node stops reading from it.
 */
final class MoveWaitPolicy {

    /** The longest a command waits for its partition to settle before its refusal is answered. */
    static final Duration BOUND = Duration.ofSeconds(10);
    /** Commands that may wait on one node at once. */
    static final int MAX_WAITING = 16_384;
    /** The delay before the first retry; each later one doubles, up to {@link #MAX_DELAY}. */
    static final Duration FIRST_DELAY = Duration.ofMillis(2);
    static final Duration MAX_DELAY = Duration.ofMillis(100);

    /** Returned by {@link #nextDelayNanos} when the command is answered now. */
    static final long ANSWER_NOW = -1;

    private MoveWaitPolicy() {
    }

    /**
     * Whether a request refused with {@code status} is waited out.
     *
     * @param movedToSelf for {@code MOVED}/{@code REPLICA_WRITE_REJECTED}: this node's map still names it the
     *                    partition's active owner, so a {@code -MOVED} would point the client back here
     */
    static boolean waitsOut(KvStatus status, boolean movedToSelf) {
        return switch (status) {
            case OWNERSHIP_CHANGING, MIGRATING -> true;
            case MOVED, REPLICA_WRITE_REJECTED -> movedToSelf;
            default -> false;
        };
    }

    /**
     * The delay before the next attempt of a refused command, or {@link #ANSWER_NOW}.
     *
     * @param attempts    attempts made so far (at least 1)
     * @param waitedNanos time since the first attempt was refused
     * @param waiting     commands waiting on this node now, this one not included
     */
    static long nextDelayNanos(int attempts, long waitedNanos, int waiting) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, was " + attempts);
        }
        if (waiting >= MAX_WAITING) {
            return ANSWER_NOW;
        }
        long delay = FIRST_DELAY.toNanos() << Math.min(attempts - 1, 20);
        delay = Math.min(delay, MAX_DELAY.toNanos());
        long left = BOUND.toNanos() - waitedNanos;
        if (left <= 0) {
            return ANSWER_NOW;
        }
        // The last attempt runs at the bound, not after it.
        return Math.min(delay, left);
    }
}
