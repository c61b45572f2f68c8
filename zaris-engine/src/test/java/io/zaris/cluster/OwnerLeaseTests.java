package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The owner lease and the leader's beats, on a fake monotonic clock. */
@Tag("unit")
class OwnerLeaseTests {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aLeaseRunsFromTheSendTimeOfTheConfirmedRequest() {
        OwnerLease lease = new OwnerLease(Duration.ofSeconds(3));
        assertThat(OwnerLease.holds(lease.validUntil(), 0)).as("never confirmed").isFalse();
        lease.confirmedAt(10 * SECOND);
        assertThat(OwnerLease.holds(lease.validUntil(), 12 * SECOND)).isTrue();
        assertThat(OwnerLease.holds(lease.validUntil(), 13 * SECOND)).isFalse();
    }

    @Test
    void aGrantForAnOlderRequestDoesNotExtendTheLease() {
        OwnerLease lease = new OwnerLease(Duration.ofSeconds(3));
        lease.confirmedAt(10 * SECOND);
        lease.confirmedAt(4 * SECOND); // answered during a pause, sent before it
        assertThat(lease.validUntil()).isEqualTo(13 * SECOND);
    }

    @Test
    void aPausedNodeLosesItsLeaseBeforeTheMajorityCanReplaceIt() {
        // request sent at t=20 s, then the process is paused; grants answered during the pause arrive later
        OwnerLease lease = new OwnerLease(MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT.dividedBy(2));
        lease.confirmedAt(20 * SECOND);
        long earliestPromotion = 20 * SECOND + MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT.toNanos() - 3 * SECOND;
        assertThat(OwnerLease.holds(lease.validUntil(), earliestPromotion)).isFalse();
    }

    @Test
    void theLeadersLeaseNeedsAMajorityOfAnswersToOneBeat() {
        LeaderBeats beats = new LeaderBeats();
        long round = beats.begin(7 * SECOND, 3);
        assertThat(beats.answer(round, "leader")).isNull();
        assertThat(beats.answer(round, "b")).isNull();
        assertThat(beats.answer(round, "b")).as("one member counts once").isNull();
        assertThat(beats.answer(round, "c")).isEqualTo(7 * SECOND);
        assertThat(beats.answer(round, "d")).as("the majority is reported once").isNull();
    }

    @Test
    void eachBeatCountsTheMajorityOfItsOwnTime() {
        LeaderBeats beats = new LeaderBeats();
        long small = beats.begin(SECOND, 2);
        long grown = beats.begin(2 * SECOND, 3);
        assertThat(beats.answer(small, "leader")).isNull();
        assertThat(beats.answer(small, "b")).isEqualTo(SECOND);
        assertThat(beats.answer(grown, "leader")).isNull();
        assertThat(beats.answer(grown, "b")).as("after the cluster grew, two answers are not a majority").isNull();
        assertThat(beats.answer(grown, "c")).isEqualTo(2 * SECOND);
    }

    @Test
    void answersToForgottenOrUnknownBeatsCountForNothing() {
        LeaderBeats beats = new LeaderBeats();
        long first = beats.begin(SECOND, 2);
        for (int i = 0; i < 16; i++) {
            beats.begin((2 + i) * SECOND, 2);
        }
        assertThat(beats.answer(first, "a")).isNull();
        assertThat(beats.answer(first, "b")).isNull();
        assertThat(beats.answer(999, "a")).isNull();
        assertThat(beats.answer(0, "a")).isNull();
    }
}
