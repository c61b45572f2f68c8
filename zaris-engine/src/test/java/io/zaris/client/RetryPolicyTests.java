package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.KvStatus;
import io.zaris.transport.ZarisException;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryPolicyTests {

    private static final long MS = 1_000_000L;
    private static final long NOW = 5_000 * MS;
    private static final long SIXTY_SECONDS = NOW + 60_000 * MS;

    private final RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(100));

    @Test
    void wrongNodeStatusesRetryAfterARefresh() {
        for (KvStatus status : List.of(KvStatus.MOVED, KvStatus.REPLICA_WRITE_REJECTED, KvStatus.OWNERSHIP_CHANGING)) {
            RetryPolicy.Decision decision = policy.afterFailure(status(status), true, 1, NOW, SIXTY_SECONDS);
            assertThat(decision.retry()).as(status.name()).isTrue();
            assertThat(decision.refreshMap()).as(status.name()).isTrue();
            assertThat(decision.delayNanos()).isEqualTo(100 * MS);
        }
    }

    @Test
    void unavailableRetriesWithoutRefreshing() {
        RetryPolicy.Decision decision = policy.afterFailure(status(KvStatus.UNAVAILABLE), true, 1, NOW, SIXTY_SECONDS);
        assertThat(decision.retry()).isTrue();
        assertThat(decision.refreshMap()).isFalse();
    }

    @Test
    void migratingWaitsEightTimesLongerWithoutRefreshing() {
        RetryPolicy.Decision decision = policy.afterFailure(status(KvStatus.MIGRATING), true, 2, NOW, SIXTY_SECONDS);
        assertThat(decision.retry()).isTrue();
        assertThat(decision.refreshMap()).isFalse();
        assertThat(decision.delayNanos()).isEqualTo(8 * 100 * 2 * MS);
    }

    @Test
    void transportFaultsAndTimeoutsRetryAfterARefresh() {
        for (Throwable fault : List.of(new ZarisTransportException("reset"), new ZarisTimeoutException("late"))) {
            RetryPolicy.Decision decision = policy.afterFailure(fault, true, 1, NOW, SIXTY_SECONDS);
            assertThat(decision.retry()).isTrue();
            assertThat(decision.refreshMap()).isTrue();
        }
    }

    @Test
    void noServingOwnerInTheClientsMapRefreshesAndRetriesEvenANonIdempotentRequest() {
        RetryPolicy.Decision decision = policy.afterFailure(new NoServingOwnerException("partition 3"), false, 1, NOW,
                SIXTY_SECONDS);
        assertThat(decision.retry()).isTrue();
        assertThat(decision.refreshMap()).as("the map may be what is out of date").isTrue();
        assertThat(new NoServingOwnerException("partition 3").status()).isEqualTo(KvStatus.UNAVAILABLE);
    }

    @Test
    void maybeAppliedNonIdempotentRequestsAreNotRepeated() {
        assertThat(policy.afterFailure(new ZarisTimeoutException("late"), false, 1, NOW, SIXTY_SECONDS).retry()).isFalse();
        assertThat(policy.afterFailure(new ZarisTransportException("reset", true), false, 1, NOW, SIXTY_SECONDS).retry())
                .isFalse();
        assertThat(policy.afterFailure(new ZarisTransportException("never sent", false), false, 1, NOW, SIXTY_SECONDS)
                .retry()).isTrue();
    }

    @Test
    void anAppliedButUnacknowledgedWriteIsRepeatedOnlyWhenIdempotent() {
        assertThat(policy.afterFailure(status(KvStatus.UNACKNOWLEDGED), true, 1, NOW, SIXTY_SECONDS).retry()).isTrue();
        assertThat(policy.afterFailure(status(KvStatus.UNACKNOWLEDGED), false, 1, NOW, SIXTY_SECONDS).retry()).isFalse();
    }

    @Test
    void requestErrorsAndUnknownFailuresAreHandedBackAtOnce() {
        for (KvStatus status : List.of(KvStatus.BAD_REQUEST, KvStatus.TOO_LARGE, KvStatus.UNAUTHORIZED, KvStatus.WRONG_TYPE,
                KvStatus.CONFLICT, KvStatus.NOT_FOUND)) {
            assertThat(policy.afterFailure(status(status), true, 1, NOW, SIXTY_SECONDS).retry()).as(status.name()).isFalse();
        }
        assertThat(policy.afterFailure(new IllegalStateException("bug"), true, 1, NOW, SIXTY_SECONDS).retry()).isFalse();
        assertThat(policy.afterFailure(new ZarisException("client is closed"), true, 1, NOW, SIXTY_SECONDS).retry()).isFalse();
    }

    /** The policy alone; {@code ZarisClientRetryLoopTests} runs the client's own loop against a stub node. */
    @Test
    void threeAttemptsWithASixtySecondDeadlineMeansExactlyThreeAttempts() {
        long now = NOW;
        int attempts = 1;
        List<Long> delays = new ArrayList<>();
        while (true) {
            RetryPolicy.Decision decision = policy.afterFailure(status(KvStatus.MOVED), true, attempts, now, SIXTY_SECONDS);
            if (!decision.retry()) {
                break;
            }
            delays.add(decision.delayNanos() / MS);
            now += decision.delayNanos();
            attempts++;
        }
        assertThat(attempts).isEqualTo(3);
        assertThat(delays).containsExactly(100L, 200L);
    }

    @Test
    void everyDelayIsCappedAtTwoSeconds() {
        RetryPolicy patient = new RetryPolicy(50, Duration.ofMillis(700));
        assertThat(patient.afterFailure(status(KvStatus.UNAVAILABLE), true, 2, NOW, SIXTY_SECONDS).delayNanos())
                .isEqualTo(1_400 * MS);
        assertThat(patient.afterFailure(status(KvStatus.UNAVAILABLE), true, 3, NOW, SIXTY_SECONDS).delayNanos())
                .isEqualTo(2_000 * MS);
        assertThat(patient.afterFailure(status(KvStatus.MIGRATING), true, 40, NOW, Long.MAX_VALUE).delayNanos())
                .isEqualTo(2_000 * MS);
    }

    @Test
    void noRetryStartsAtOrAfterTheDeadlineAndNoDelayRunsPastIt() {
        assertThat(policy.afterFailure(status(KvStatus.MOVED), true, 1, SIXTY_SECONDS, SIXTY_SECONDS).retry()).isFalse();
        assertThat(policy.afterFailure(status(KvStatus.MOVED), true, 1, SIXTY_SECONDS + 1, SIXTY_SECONDS).retry()).isFalse();
    }

    @Test
    void aDelayIsClampedToHalfTheTimeLeftSoTheNextAttemptStartsBeforeTheDeadline() {
        // 100 ms backoff with 150 ms left: wait 75 ms, leaving 75 ms for the attempt.
        RetryPolicy.Decision clamped = policy.afterFailure(status(KvStatus.MOVED), true, 1, SIXTY_SECONDS - 150 * MS,
                SIXTY_SECONDS);
        assertThat(clamped.retry()).isTrue();
        assertThat(clamped.delayNanos()).isEqualTo(75 * MS);
        // MIGRATING would wait 800 ms; with 50 ms left it waits 25 ms.
        assertThat(policy.afterFailure(status(KvStatus.MIGRATING), true, 1, SIXTY_SECONDS - 50 * MS, SIXTY_SECONDS)
                .delayNanos()).isEqualTo(25 * MS);
        // With 300 ms left the 100 ms backoff is not clamped.
        assertThat(policy.afterFailure(status(KvStatus.MOVED), true, 1, SIXTY_SECONDS - 300 * MS, SIXTY_SECONDS)
                .delayNanos()).isEqualTo(100 * MS);
    }

    @Test
    void disabledRetriesMeanOneAttempt() {
        RetryPolicy once = ZarisClientOptions.builder().seeds("127.0.0.1:1").disableRetries(true)
                .environment(java.util.Map.of()).build().retryPolicy();
        assertThat(once.afterFailure(status(KvStatus.MOVED), true, 1, NOW, SIXTY_SECONDS).retry()).isFalse();
    }

    @Test
    void infiniteDeadlineIsBoundedByAttemptsOnly() {
        assertThat(policy.afterFailure(status(KvStatus.UNAVAILABLE), true, 2, NOW, Long.MAX_VALUE).retry()).isTrue();
        assertThat(policy.afterFailure(status(KvStatus.UNAVAILABLE), true, 3, NOW, Long.MAX_VALUE).retry()).isFalse();
        assertThat(RequestTimeout.INFINITE.deadlineFrom(NOW)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void waitingOnTheMapLooksAgainEveryEightBackoffsUntilTheRefreshWaitHasPassed() {
        long patience = 15_000 * MS;
        RetryPolicy.Decision first = policy.whileOwnerMoves(RetryPolicy.FailureClass.TRANSPORT, NOW, NOW, SIXTY_SECONDS,
                patience);
        assertThat(first.retry()).isTrue();
        assertThat(first.refreshMap()).isTrue();
        assertThat(first.delayNanos()).isEqualTo(800 * MS);

        RetryPolicy.Decision last = policy.whileOwnerMoves(RetryPolicy.FailureClass.WRONG_NODE, NOW, NOW + 14_900 * MS,
                SIXTY_SECONDS, patience);
        assertThat(last.delayNanos()).as("never past the patience").isEqualTo(100 * MS);

        assertThat(policy.whileOwnerMoves(RetryPolicy.FailureClass.TRANSIENT, NOW, NOW + patience, SIXTY_SECONDS, patience)
                .retry()).isFalse();
    }

    @Test
    void waitingOnTheMapEndsAtTheDeadlineAndNeverRetriesWhatMustNotBeRetried() {
        assertThat(policy.whileOwnerMoves(RetryPolicy.FailureClass.TRANSPORT, NOW, SIXTY_SECONDS, SIXTY_SECONDS,
                15_000 * MS).retry()).isFalse();
        assertThat(policy.whileOwnerMoves(RetryPolicy.FailureClass.TRANSPORT, NOW, SIXTY_SECONDS - 1_000 * MS, SIXTY_SECONDS,
                120_000 * MS).delayNanos()).as("half the time left").isEqualTo(500 * MS);
        assertThat(policy.whileOwnerMoves(RetryPolicy.FailureClass.FINAL, NOW, NOW, SIXTY_SECONDS, 15_000 * MS).retry())
                .isFalse();
    }

    private static ZarisStatusException status(KvStatus status) {
        return new ZarisStatusException(status, "scripted");
    }
}
