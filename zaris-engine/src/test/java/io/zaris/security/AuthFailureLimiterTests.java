package io.zaris.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.time.FakeTime;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class AuthFailureLimiterTests {

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final AuthFailureLimiter limiter = new AuthFailureLimiter(3, Duration.ofSeconds(1), 4, FakeTime.followingNanos(nanos::get));

    @Test
    void peerMayFailUpToTheBurstWithoutWaiting() {
        limiter.recordFailure("10.0.0.1");
        limiter.recordFailure("10.0.0.1");
        assertThat(limiter.waitBeforeAttempt("10.0.0.1")).isZero();
        limiter.recordFailure("10.0.0.1");
        assertThat(limiter.waitBeforeAttempt("10.0.0.1")).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void oneAttemptComesBackPerRefillInterval() {
        for (int i = 0; i < 3; i++) {
            limiter.recordFailure("10.0.0.1");
        }
        advance(Duration.ofMillis(400));
        assertThat(limiter.waitBeforeAttempt("10.0.0.1")).isEqualTo(Duration.ofMillis(600));
        advance(Duration.ofMillis(600));
        assertThat(limiter.waitBeforeAttempt("10.0.0.1")).isZero();
        limiter.recordFailure("10.0.0.1");
        assertThat(limiter.waitBeforeAttempt("10.0.0.1")).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void peersAreCountedApart() {
        for (int i = 0; i < 3; i++) {
            limiter.recordFailure("10.0.0.1");
        }
        assertThat(limiter.waitBeforeAttempt("10.0.0.2")).isZero();
    }

    @Test
    void aPeerIsForgottenOnceItsBucketIsFullAgain() {
        limiter.recordFailure("10.0.0.1");
        assertThat(limiter.trackedPeers()).isEqualTo(1);
        advance(Duration.ofSeconds(1));
        assertThat(limiter.waitBeforeAttempt("10.0.0.1")).isZero();
        assertThat(limiter.trackedPeers()).isZero();
    }

    @Test
    void trackedPeersStayBoundedByLettingGoOfTheOldest() {
        for (int peer = 0; peer < 10; peer++) {
            for (int i = 0; i < 3; i++) {
                limiter.recordFailure("10.0.0." + peer);
            }
        }
        assertThat(limiter.trackedPeers()).isEqualTo(4);
        assertThat(limiter.waitBeforeAttempt("10.0.0.9")).isPositive();
        assertThat(limiter.waitBeforeAttempt("10.0.0.0")).isZero();
    }

    @Test
    void rejectsSettingsThatCouldNeverAllowALogin() {
        assertThatThrownBy(() -> new AuthFailureLimiter(0, Duration.ofSeconds(1), 1, FakeTime.followingNanos(nanos::get)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AuthFailureLimiter(1, Duration.ZERO, 1, FakeTime.followingNanos(nanos::get)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }
}
