package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.time.FakeTime;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A request's deadline on the node's clock, here a fake one the test moves. */
@Tag("unit")
class RequestDeadlineTests {

    private final FakeTime time = new FakeTime();

    @Test
    void aDeadlineCountsFromTheReadThatDeliveredTheFrameAndPassesOnlyAfterIt() {
        long deadline = RequestDeadline.of(time.nanoTime(), 50);

        time.advance(Duration.ofMillis(50));
        assertThat(RequestDeadline.passed(time.nanoTime(), deadline)).as("at the deadline").isFalse();
        time.advance(Duration.ofNanos(1));
        assertThat(RequestDeadline.passed(time.nanoTime(), deadline)).as("just after it").isTrue();
    }

    @Test
    void aFrameWithoutADeadlineNeverExpires() {
        long deadline = RequestDeadline.of(time.nanoTime(), 0);

        time.advance(Duration.ofDays(365));
        assertThat(deadline).isEqualTo(RequestDeadline.NONE);
        assertThat(RequestDeadline.passed(time.nanoTime(), deadline)).isFalse();
    }

    @Test
    void theLongestDeadlineAFrameCanCarryIsJudgedAcrossAWrappingClock() {
        long arrived = Long.MAX_VALUE - 1_000_000L;
        long deadline = RequestDeadline.of(arrived, Integer.MAX_VALUE);

        assertThat(RequestDeadline.passed(arrived + 1_000_000_000L, deadline)).isFalse();
        assertThat(RequestDeadline.passed(deadline + 1, deadline)).isTrue();
    }
}
