package io.zaris.client;

import io.zaris.model.KvStatus;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.time.Duration;

/**
 * The retry brain: given how an attempt failed, decides whether to try again, whether the routing map
 * must be refreshed first, and how long to wait. Pure — time comes in as arguments — so every decision is
 * tested on a fake clock.
 *
 * <table>
 *   <caption>Decisions</caption>
 *   <tr><th>failure</th><th>retry</th><th>refresh map first</th><th>delay</th></tr>
 *   <tr><td>MOVED, REPLICA_WRITE_REJECTED, OWNERSHIP_CHANGING</td><td>yes</td><td>yes</td><td>backoff × attempt</td></tr>
 *   <tr><td>UNAVAILABLE</td><td>yes</td><td>no</td><td>backoff × attempt</td></tr>
 *   <tr><td>UNACKNOWLEDGED (applied, replicas missing), idempotent request</td><td>yes</td><td>no</td>
 *       <td>backoff × attempt</td></tr>
 *   <tr><td>UNACKNOWLEDGED, non-idempotent request</td><td>no</td><td>—</td><td>—</td></tr>
 *   <tr><td>MIGRATING</td><td>yes</td><td>no</td><td>8 × backoff × attempt</td></tr>
 *   <tr><td>transport fault or timeout, request not delivered or idempotent; no serving owner in the
 *       client's map (not sent, surfaces as UNAVAILABLE)</td><td>yes</td><td>yes</td><td>backoff × attempt</td></tr>
 *   <tr><td>transport fault or timeout, non-idempotent request maybe applied</td><td>no</td><td>—</td><td>—</td></tr>
 *   <tr><td>request errors, anything not understood</td><td>no</td><td>—</td><td>—</td></tr>
 * </table>
 *
 * Answers ({@code OK}, {@code NOT_FOUND}, {@code CONFLICT}) never reach the brain: they are values. Every
 * delay is capped at {@link #MAX_DELAY} and at half the time left before the deadline — so the attempt it
 * leads to starts before the deadline and keeps the other half to be answered, instead of sleeping into
 * it — and another attempt is made only while {@code attempt <= maxAttempts && now < deadline}. The
 * client checks the deadline again right before it sends an attempt (a map refresh may have taken the
 * time in between).
 *
 * <p><b>Attempts are counted per routing.</b> {@code attempt} is the number of attempts made on the routing
 * the failed one used (the partition's active owner and epoch, and whether the client was connected to it): a
 * retry that goes to a newer owner or epoch starts a new count. So a failover, which changes the routing,
 * never spends the attempts the request needs at its new owner. When the attempts on one routing are spent —
 * or at once when the owner could not be reached, as repeating the send cannot help — the client waits on
 * the map ({@link #whileOwnerMoves}) for the cluster to route the partition elsewhere, for up to the map
 * refresh wait from the first failure on that routing, looking again every {@link #lookInterval}. A push, poll or
 * refresh that changes the routing ends any wait at once. The deadline bounds everything.
 *
 * <p>Not retrying a maybe-applied INCREMENT or conditional write is deliberate: a second attempt could
 * count twice, or report CONFLICT for a write that in fact succeeded. The caller gets the indeterminate
 * failure instead.
 */
final class RetryPolicy {

    /** Upper bound of any single retry delay. */
    static final Duration MAX_DELAY = Duration.ofSeconds(2);
    /** How much longer a MIGRATING segment is waited for than other transient statuses. */
    static final int MIGRATING_BACKOFF_FACTOR = 8;

    private final int maxAttempts;
    private final long backoffNanos;

    RetryPolicy(int maxAttempts, Duration backoff) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1 but was " + maxAttempts);
        }
        this.maxAttempts = maxAttempts;
        this.backoffNanos = backoff.toNanos();
    }

    /** How a failure is treated. */
    enum FailureClass {
        /** The map is wrong: refresh, then retry. */
        WRONG_NODE(true, true, 1),
        /** Nobody serves the segment right now: wait and retry on the same map. */
        TRANSIENT(true, false, 1),
        /** The segment is moving: wait longer, retry on the same map. */
        MIGRATING(true, false, MIGRATING_BACKOFF_FACTOR),
        /** The node could not be reached or did not answer: refresh (it may be gone), then retry. */
        TRANSPORT(true, true, 1),
        /** Retrying cannot help or could do harm: hand the failure to the caller untouched. */
        FINAL(false, false, 0);

        final boolean retryable;
        final boolean refreshesMap;
        final int backoffFactor;

        FailureClass(boolean retryable, boolean refreshesMap, int backoffFactor) {
            this.retryable = retryable;
            this.refreshesMap = refreshesMap;
            this.backoffFactor = backoffFactor;
        }
    }

    /**
     * @param idempotent whether repeating the request after it may already have been applied is harmless
     */
    static FailureClass classify(Throwable failure, boolean idempotent) {
        if (failure instanceof NoServingOwnerException) {
            return FailureClass.TRANSPORT; // never sent, and the client's map may be what is out of date
        }
        if (failure instanceof ZarisStatusException statusFailure) {
            KvStatus status = statusFailure.status();
            if (status == KvStatus.MIGRATING) {
                return FailureClass.MIGRATING;
            }
            if (status == KvStatus.UNAVAILABLE) {
                return FailureClass.TRANSIENT;
            }
            if (status == KvStatus.UNACKNOWLEDGED) {
                // Applied on the owner already: repeating an INCREMENT or a CAS could apply it twice.
                return idempotent ? FailureClass.TRANSIENT : FailureClass.FINAL;
            }
            return status.meansWrongNode() ? FailureClass.WRONG_NODE : FailureClass.FINAL;
        }
        if (failure instanceof ZarisTransportException transport) {
            return idempotent || !transport.mayHaveBeenApplied() ? FailureClass.TRANSPORT : FailureClass.FINAL;
        }
        if (failure instanceof ZarisTimeoutException) {
            return idempotent ? FailureClass.TRANSPORT : FailureClass.FINAL;
        }
        return FailureClass.FINAL;
    }

    /**
     * Decides what follows failed attempt number {@code attempt} (1-based).
     *
     * @param nowNanos      the time source's current time
     * @param deadlineNanos the operation's deadline ({@link Long#MAX_VALUE} when infinite)
     */
    Decision afterFailure(Throwable failure, boolean idempotent, int attempt, long nowNanos, long deadlineNanos) {
        FailureClass failureClass = classify(failure, idempotent);
        if (!failureClass.retryable) {
            return Decision.giveUp(failureClass);
        }
        int nextAttempt = attempt + 1;
        long timeLeft = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - nowNanos;
        if (nextAttempt > maxAttempts || timeLeft <= 0) {
            return Decision.giveUp(failureClass);
        }
        long delay = Math.min(delayFor(failureClass, attempt), timeLeft / 2);
        return new Decision(true, failureClass.refreshesMap, delay, failureClass);
    }

    /**
     * The attempts on one routing are spent, or its owner could not be reached: whether to keep waiting for the
     * map to route the partition elsewhere, and how long until the next look. The cluster replaces a failed
     * owner within its detection time (a crash at once, a hang after the escalation timeout), so the wait lasts
     * up to {@code patienceNanos} (the client's map refresh wait) from {@code stalledSinceNanos}, the first
     * failure on this routing; each look refreshes the map. Non-retryable failures give up as before.
     */
    Decision whileOwnerMoves(FailureClass failureClass, long stalledSinceNanos, long nowNanos, long deadlineNanos,
                             long patienceNanos) {
        if (!failureClass.retryable) {
            return Decision.giveUp(failureClass);
        }
        long timeLeft = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - nowNanos;
        long patienceLeft = patienceNanos - (nowNanos - stalledSinceNanos);
        if (timeLeft <= 0 || patienceLeft <= 0) {
            return Decision.giveUp(failureClass);
        }
        long delay = Math.min(lookInterval(), Math.min(patienceLeft, timeLeft / 2));
        return new Decision(true, true, delay, failureClass);
    }

    /**
     * The whole rule for what follows a failed attempt, as the {@link RequestExecutor} applies it: the ordinary
     * decision ({@link #afterFailure}) while attempts on the failed attempt's routing are left; once they are spent,
     * or at once when the owner could not be reached (a transport fault other than a timeout, or no serving owner
     * in the client's map: sending again cannot help), the wait on the map ({@link #whileOwnerMoves}), unless that
     * gives up while the ordinary decision would still retry. With one attempt allowed (retries disabled) nothing
     * waits on the map. A wrong-node answer whose routing hint already re-routed the partition needs no refresh.
     *
     * @param attemptsOnRouting attempts made on the failed attempt's routing, the failed one included
     * @param stalledSinceNanos when the first attempt on that routing failed
     * @param patienceNanos     how long to wait on the map from {@code stalledSinceNanos} (the map refresh wait)
     * @param hintRetargeted    whether the failure's routing hint changed how the table routes the partition
     */
    Decision nextStep(Throwable failure, boolean idempotent, int attemptsOnRouting, long stalledSinceNanos,
                      long nowNanos, long deadlineNanos, long patienceNanos, boolean hintRetargeted) {
        Decision decision = afterFailure(failure, idempotent, attemptsOnRouting, nowNanos, deadlineNanos);
        boolean ownerUnreachable = decision.failureClass() == FailureClass.TRANSPORT
                && !(failure instanceof ZarisTimeoutException);
        if ((!decision.retry() || ownerUnreachable) && maxAttempts > 1) {
            Decision waiting = whileOwnerMoves(decision.failureClass(), stalledSinceNanos, nowNanos, deadlineNanos,
                    patienceNanos);
            if (waiting.retry() || !decision.retry()) {
                decision = waiting;
            }
        }
        return hintRetargeted && decision.refreshMap() ? decision.withoutRefresh() : decision;
    }

    /**
     * Whether a failure handed to the caller is final only because repeating it could apply it twice: a
     * non-idempotent operation that may have been applied (its outcome is unknown to the caller).
     */
    static boolean ambiguous(Throwable failure, boolean idempotent) {
        return !idempotent && !classify(failure, false).retryable && classify(failure, true).retryable;
    }

    /** How often a client waiting on the map looks again: {@code 8 × backoff} (800 ms by default), at most {@link #MAX_DELAY}. */
    long lookInterval() {
        return delayFor(FailureClass.MIGRATING, 1);
    }

    /** {@code backoff * attempt * factor}, capped at {@link #MAX_DELAY}; overflow-safe. */
    long delayFor(FailureClass failureClass, int attempt) {
        long cap = MAX_DELAY.toNanos();
        double delay = (double) backoffNanos * attempt * failureClass.backoffFactor;
        return delay >= cap ? cap : (long) delay;
    }

    int maxAttempts() {
        return maxAttempts;
    }

    /** The brain's answer for one failed attempt. */
    record Decision(boolean retry, boolean refreshMap, long delayNanos, FailureClass failureClass) {

        static Decision giveUp(FailureClass failureClass) {
            return new Decision(false, false, 0, failureClass);
        }

        /** The same retry, on the table as it is. */
        Decision withoutRefresh() {
            return new Decision(retry, false, delayNanos, failureClass);
        }
    }
}
