package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.KvStatus;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class MoveWaitPolicyTests {

    @Test
    void waitsOutOnlyRefusalsOfAPartitionChangingHands() {
        assertThat(MoveWaitPolicy.waitsOut(KvStatus.MIGRATING, false)).isTrue();
        assertThat(MoveWaitPolicy.waitsOut(KvStatus.OWNERSHIP_CHANGING, false)).isTrue();
        assertThat(MoveWaitPolicy.waitsOut(KvStatus.MOVED, true)).as("the map still names this node").isTrue();
        assertThat(MoveWaitPolicy.waitsOut(KvStatus.REPLICA_WRITE_REJECTED, true)).isTrue();
        assertThat(MoveWaitPolicy.waitsOut(KvStatus.MOVED, false)).as("-MOVED to the new owner").isFalse();
        assertThat(MoveWaitPolicy.waitsOut(KvStatus.UNAVAILABLE, false)).isFalse();
        assertThat(MoveWaitPolicy.waitsOut(KvStatus.UNACKNOWLEDGED, false)).isFalse();
        assertThat(MoveWaitPolicy.waitsOut(KvStatus.OK, false)).isFalse();
        assertThat(MoveWaitPolicy.waitsOut(KvStatus.WRONG_TYPE, false)).isFalse();
    }

    @Test
    void delaysDoubleFromTheFirstUpToTheCap() {
        assertThat(MoveWaitPolicy.nextDelayNanos(1, 0, 0)).isEqualTo(Duration.ofMillis(2).toNanos());
        assertThat(MoveWaitPolicy.nextDelayNanos(2, 0, 0)).isEqualTo(Duration.ofMillis(4).toNanos());
        assertThat(MoveWaitPolicy.nextDelayNanos(6, 0, 0)).isEqualTo(Duration.ofMillis(64).toNanos());
        assertThat(MoveWaitPolicy.nextDelayNanos(7, 0, 0)).isEqualTo(MoveWaitPolicy.MAX_DELAY.toNanos());
        assertThat(MoveWaitPolicy.nextDelayNanos(1_000, 0, 0)).isEqualTo(MoveWaitPolicy.MAX_DELAY.toNanos());
    }

    @Test
    void theLastAttemptRunsAtTheBoundAndItsRefusalIsAnswered() {
        long bound = MoveWaitPolicy.BOUND.toNanos();
        assertThat(MoveWaitPolicy.nextDelayNanos(50, bound - 30_000_000, 0)).isEqualTo(30_000_000);
        assertThat(MoveWaitPolicy.nextDelayNanos(51, bound, 0)).isEqualTo(MoveWaitPolicy.ANSWER_NOW);
        assertThat(MoveWaitPolicy.nextDelayNanos(51, bound + 1, 0)).isEqualTo(MoveWaitPolicy.ANSWER_NOW);
    }

    @Test
    void theBoundIsFarBelowLettucesDefaultCommandTimeout() {
        assertThat(MoveWaitPolicy.BOUND).isLessThanOrEqualTo(Duration.ofSeconds(60).dividedBy(4));
    }

    @Test
    void aFullNodeAnswersAtOnce() {
        assertThat(MoveWaitPolicy.nextDelayNanos(1, 0, MoveWaitPolicy.MAX_WAITING - 1)).isPositive();
        assertThat(MoveWaitPolicy.nextDelayNanos(1, 0, MoveWaitPolicy.MAX_WAITING)).isEqualTo(MoveWaitPolicy.ANSWER_NOW);
    }

    @Test
    void attemptsStartAtOne() {
        assertThatThrownBy(() -> MoveWaitPolicy.nextDelayNanos(0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
