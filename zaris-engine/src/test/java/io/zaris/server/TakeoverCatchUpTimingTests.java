package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.server.TakeoverCatchUp.AfterFailure;
import io.zaris.time.FakeTime;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The catch-up's deadlines and its retry decision, on a fake clock the test moves. */
@Tag("unit")
class TakeoverCatchUpTimingTests {

    private final FakeTime time = new FakeTime();

    @Test
    void aSilentMemberIsAskedAgainUntilARetryNoLongerFitsBeforeTheGiveUpTime() {
        long giveUp = TakeoverCatchUp.giveUpAt(time.nanoTime());
        int retries = 0;
        while (TakeoverCatchUp.afterFailure(false, true, time.nanoTime(), giveUp) == AfterFailure.RETRY) {
            retries++;
            time.advance(TakeoverCatchUp.RETRY_DELAY);
        }
        // every retry waits RETRY_DELAY and must start before the give-up time
        long expected = TakeoverCatchUp.GIVE_UP_AFTER.toNanos() / TakeoverCatchUp.RETRY_DELAY.toNanos() - 1;
        assertThat(retries).isEqualTo(expected);
        assertThat(TakeoverCatchUp.afterFailure(false, true, time.nanoTime(), giveUp)).isEqualTo(AfterFailure.GIVE_UP);
    }

    @Test
    void aFellowThatLeftIsGivenUpAtOnceAndAnObsoleteTakeoverStopsFirst() {
        long giveUp = TakeoverCatchUp.giveUpAt(time.nanoTime());

        assertThat(TakeoverCatchUp.afterFailure(false, false, time.nanoTime(), giveUp)).isEqualTo(AfterFailure.GIVE_UP);
        assertThat(TakeoverCatchUp.afterFailure(true, true, time.nanoTime(), giveUp)).isEqualTo(AfterFailure.OBSOLETE);
        time.advance(Duration.ofMinutes(1));
        assertThat(TakeoverCatchUp.afterFailure(true, false, time.nanoTime(), giveUp)).isEqualTo(AfterFailure.OBSOLETE);
    }

    @Test
    void anAttemptIsBoundedByItsTimeoutAndNeverOutlastsTheGiveUpTime() {
        long giveUp = TakeoverCatchUp.giveUpAt(time.nanoTime());

        assertThat(TakeoverCatchUp.attemptDeadline(time.nanoTime(), giveUp) - time.nanoTime())
                .isEqualTo(TakeoverCatchUp.ATTEMPT_TIMEOUT.toNanos());
        time.advance(TakeoverCatchUp.GIVE_UP_AFTER.minus(Duration.ofMillis(500)));
        assertThat(TakeoverCatchUp.attemptDeadline(time.nanoTime(), giveUp)).isEqualTo(giveUp);
    }

    @Test
    void theDecisionHoldsAcrossAWrappingClock() {
        long start = Long.MAX_VALUE - TakeoverCatchUp.GIVE_UP_AFTER.toNanos() / 2;
        long giveUp = TakeoverCatchUp.giveUpAt(start);

        assertThat(TakeoverCatchUp.afterFailure(false, true, start, giveUp)).isEqualTo(AfterFailure.RETRY);
        assertThat(TakeoverCatchUp.afterFailure(false, true, giveUp, giveUp)).isEqualTo(AfterFailure.GIVE_UP);
    }
}
