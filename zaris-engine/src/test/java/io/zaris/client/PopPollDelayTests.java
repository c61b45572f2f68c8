package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The waits of the native client's blocking pop between two looks at its list: doubling, capped, never past the deadline. */
@Tag("unit")
class PopPollDelayTests {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    @Test
    void theWaitsDoubleFromFiveMillisecondsUpToAHundred() {
        long delay = 0;
        long[] seen = new long[7];
        for (int i = 0; i < seen.length; i++) {
            delay = PopPollDelay.next(delay, HOUR);
            seen[i] = delay / MS;
        }
        assertThat(seen).containsExactly(5, 10, 20, 40, 80, 100, 100);
    }

    @Test
    void aWaitEndsAtTheDeadlineAndNoneFollowsIt() {
        assertThat(PopPollDelay.next(80 * MS, 30 * MS)).isEqualTo(30 * MS);
        assertThat(PopPollDelay.next(0, 1)).isEqualTo(1);
        assertThat(PopPollDelay.next(40 * MS, 0)).isEqualTo(PopPollDelay.OVER);
        assertThat(PopPollDelay.next(0, -5 * MS)).isEqualTo(PopPollDelay.OVER);
    }
}
