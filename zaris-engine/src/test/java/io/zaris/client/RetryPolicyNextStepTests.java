package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.KvStatus;
import io.zaris.time.FakeTime;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The rule the request executor applies after a failed attempt ({@link RetryPolicy#nextStep}): retried at the
 * backoff pace, waited on the map for a new owner, or surfaced. Driven by a fake clock; each test pins one clause
 * of the rule and fails when that clause is taken out.
 */
@Tag("unit")
class RetryPolicyNextStepTests {

    private static final long MS = 1_000_000L;
    private static final long BACKOFF = 100 * MS;
    private static final long LOOK_INTERVAL = 800 * MS;
    private static final long REFRESH_WAIT = 15_000 * MS;

    private final FakeTime clock = new FakeTime();
    private final RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(100));
    /** When the first attempt on the routing failed. */
    private final long stalledSince = clock.nanoTime();
    private final long deadline = stalledSince + 60_000 * MS;

    @Test
    void whileAttemptsAreLeftOnTheRoutingAWrongNodeAnswerIsRetriedAtTheBackoffPaceAfterARefresh() {
        RetryPolicy.Decision step = next(status(KvStatus.MOVED), true, 1, false);

        assertThat(step.retry()).isTrue();
        assertThat(step.refreshMap()).isTrue();
        assertThat(step.delayNanos()).as("the backoff, not the look interval").isEqualTo(BACKOFF);
    }

    @Test
    void spentAttemptsWaitOnTheMapForANewOwnerUntilTheRefreshWaitHasPassed() {
        clock.advance(Duration.ofSeconds(2));
        RetryPolicy.Decision waiting = next(status(KvStatus.OWNERSHIP_CHANGING), true, 3, false);

        assertThat(waiting.retry()).isTrue();
        assertThat(waiting.refreshMap()).isTrue();
        assertThat(waiting.delayNanos()).isEqualTo(LOOK_INTERVAL);

        clock.advance(Duration.ofSeconds(13));
        assertThat(next(status(KvStatus.OWNERSHIP_CHANGING), true, 3, false).retry())
                .as("15 s after the first failure on the routing").isFalse();
    }

    @Test
    void anOwnerThatCannotBeReachedIsWaitedOnAtOnceRatherThanAskedAgainAtTheBackoffPace() {
        for (Throwable unreachable : List.of(new ZarisTransportException("connection refused", false),
                new NoServingOwnerException("partition 3 has no serving owner"))) {
            RetryPolicy.Decision step = next(unreachable, false, 1, false);

            assertThat(step.retry()).as(unreachable.getMessage()).isTrue();
            assertThat(step.refreshMap()).isTrue();
            assertThat(step.delayNanos()).as(unreachable.getMessage()).isEqualTo(LOOK_INTERVAL);
        }
    }

    @Test
    void aTimedOutAttemptIsRetriedAtTheBackoffPaceNotWaitedOn() {
        RetryPolicy.Decision step = next(new ZarisTimeoutException("no answer"), true, 1, false);

        assertThat(step.retry()).isTrue();
        assertThat(step.delayNanos()).isEqualTo(BACKOFF);
    }

    @Test
    void anUnreachableOwnerPastTheRefreshWaitStillGetsTheAttemptsLeftOnItsRouting() {
        clock.advance(Duration.ofSeconds(20));

        RetryPolicy.Decision step = next(new ZarisTransportException("connection refused", false), true, 1, false);

        assertThat(step.retry()).as("the wait gave up, the ordinary rule has not").isTrue();
        assertThat(step.delayNanos()).isEqualTo(BACKOFF);
        assertThat(next(new ZarisTransportException("connection refused", false), true, 3, false).retry()).isFalse();
    }

    @Test
    void withRetriesDisabledNothingWaitsOnTheMap() {
        RetryPolicy once = new RetryPolicy(1, Duration.ofMillis(100));

        assertThat(once.nextStep(new ZarisTransportException("connection refused", false), true, 1, stalledSince,
                clock.nanoTime(), deadline, REFRESH_WAIT, false).retry()).isFalse();
        assertThat(once.nextStep(status(KvStatus.MOVED), true, 1, stalledSince, clock.nanoTime(), deadline,
                REFRESH_WAIT, false).retry()).isFalse();
    }

    @Test
    void aHintThatAlreadyReroutedThePartitionSavesTheRefresh() {
        RetryPolicy.Decision retried = next(status(KvStatus.MOVED), true, 1, true);
        assertThat(retried.retry()).isTrue();
        assertThat(retried.refreshMap()).isFalse();
        assertThat(retried.delayNanos()).isEqualTo(BACKOFF);

        RetryPolicy.Decision waiting = next(status(KvStatus.MOVED), true, 3, true);
        assertThat(waiting.retry()).isTrue();
        assertThat(waiting.refreshMap()).isFalse();
        assertThat(next(status(KvStatus.MOVED), true, 3, false).refreshMap()).as("without the hint").isTrue();
    }

    @Test
    void answersAndRequestErrorsAreSurfacedAtOnceWhateverTheMapMightStillDo() {
        for (KvStatus final_ : List.of(KvStatus.BAD_REQUEST, KvStatus.NOT_FOUND, KvStatus.CONFLICT, KvStatus.WRONG_TYPE)) {
            assertThat(next(status(final_), true, 1, false).retry()).as(final_.name()).isFalse();
            assertThat(next(status(final_), true, 3, false).retry()).as(final_.name()).isFalse();
        }
        assertThat(next(new ZarisTimeoutException("no answer"), false, 1, false).retry())
                .as("a non-idempotent write that may have been applied").isFalse();
    }

    @Test
    void theDeadlineEndsTheWaitOnTheMap() {
        clock.advance(Duration.ofSeconds(2));
        RetryPolicy.Decision waiting = policy.nextStep(status(KvStatus.MOVED), true, 3, stalledSince, clock.nanoTime(),
                clock.nanoTime() + 200 * MS, REFRESH_WAIT, false);
        assertThat(waiting.delayNanos()).as("half the 200 ms left").isEqualTo(100 * MS);

        assertThat(policy.nextStep(status(KvStatus.MOVED), true, 3, stalledSince, clock.nanoTime(), clock.nanoTime(),
                REFRESH_WAIT, false).retry()).isFalse();
    }

    @Test
    void onlyANonIdempotentFailureThatRetryingCouldHaveFixedIsAmbiguous() {
        assertThat(RetryPolicy.ambiguous(new ZarisTimeoutException("no answer"), false)).isTrue();
        assertThat(RetryPolicy.ambiguous(new ZarisTransportException("reset", true), false)).isTrue();
        assertThat(RetryPolicy.ambiguous(status(KvStatus.UNACKNOWLEDGED), false)).isTrue();

        assertThat(RetryPolicy.ambiguous(new ZarisTimeoutException("no answer"), true)).as("idempotent").isFalse();
        assertThat(RetryPolicy.ambiguous(new ZarisTransportException("never sent", false), false)).isFalse();
        assertThat(RetryPolicy.ambiguous(status(KvStatus.BAD_REQUEST), false)).as("final for anyone").isFalse();
    }

    private RetryPolicy.Decision next(Throwable failure, boolean idempotent, int attemptsOnRouting, boolean retargeted) {
        return policy.nextStep(failure, idempotent, attemptsOnRouting, stalledSince, clock.nanoTime(), deadline,
                REFRESH_WAIT, retargeted);
    }

    private static ZarisStatusException status(KvStatus status) {
        return new ZarisStatusException(status, "scripted");
    }
}
