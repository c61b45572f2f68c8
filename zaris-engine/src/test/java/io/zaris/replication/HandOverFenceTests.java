package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The old active's settle decision during a hand-over fence, on a fake clock reading. */
@Tag("unit")
class HandOverFenceTests {

    private static final long DEADLINE = 5_000_000_000L;

    @Test
    void nothingAwaitingVerdictsIsSettledEvenAtTheDeadline() {
        assertThat(HandOverFence.next(0, 0, DEADLINE)).isEqualTo(HandOverFence.Step.SETTLED);
        assertThat(HandOverFence.next(0, DEADLINE, DEADLINE)).isEqualTo(HandOverFence.Step.SETTLED);
    }

    @Test
    void shipmentsAwaitingVerdictsAreWaitedForUntilTheDeadline() {
        assertThat(HandOverFence.next(3, DEADLINE - 1, DEADLINE)).isEqualTo(HandOverFence.Step.WAIT);
        assertThat(HandOverFence.next(3, DEADLINE, DEADLINE)).isEqualTo(HandOverFence.Step.GAVE_UP);
    }

    @Test
    void theDeadlineIsComparedAcrossTheClocksWrapAround() {
        long deadline = Long.MIN_VALUE + 10;
        assertThat(HandOverFence.next(1, Long.MAX_VALUE - 10, deadline)).isEqualTo(HandOverFence.Step.WAIT);
        assertThat(HandOverFence.next(1, Long.MIN_VALUE + 10, deadline)).isEqualTo(HandOverFence.Step.GAVE_UP);
    }

    @Test
    void theLeaderWaitsLongerThanTheOldActiveSettlesAndTheFenceOutlastsBoth() {
        assertThat(HandOverFence.LEADER_WAIT).isGreaterThan(HandOverFence.SETTLE_WAIT);
        assertThat(HandOverFence.HOLD).isGreaterThan(HandOverFence.LEADER_WAIT.plus(HandOverFence.SETTLE_WAIT));
    }
}
