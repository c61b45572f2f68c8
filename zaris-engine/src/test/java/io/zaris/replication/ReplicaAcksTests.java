package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.KvStatus;
import io.zaris.transport.PeerSilentException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Counting the replicas' verdicts on one shipment: what a SYNC write waits for. */
@Tag("unit")
class ReplicaAcksTests {

    private static final ReplicaLink.Verdict APPLIED = new ReplicaLink.Verdict(KvStatus.OK, 7);
    private static final ReplicaLink.Verdict GAP = new ReplicaLink.Verdict(KvStatus.OUT_OF_SYNC, 3);
    private static final ReplicaLink.Verdict FENCED = new ReplicaLink.Verdict(KvStatus.FENCED, 12);
    private static final ReplicaLink.Verdict GONE = ReplicaLink.Verdict.ofFailure(
            new CompletionException(new ZarisTransportException("connection to n2 closed")));
    private static final ReplicaLink.Verdict TIMED_OUT = ReplicaLink.Verdict.ofFailure(
            new ZarisTimeoutException("REPLICATE_BATCH to n2 got no answer in time"));

    private final AtomicInteger reduced = new AtomicInteger();
    private final AtomicInteger majorityChecks = new AtomicInteger();
    /** What the leader answers to this test's majority checks; completed by each test that needs it. */
    private final CompletableFuture<Void> leaderAnswer = new CompletableFuture<>();

    private ReplicaAcks acks(int shipped, int required, int assigned) {
        return new ReplicaAcks(4, shipped, required, assigned, reduced::incrementAndGet, () -> {
            majorityChecks.incrementAndGet();
            return leaderAnswer;
        });
    }

    @Test
    void completesOnlyOnceEveryReplicaShippedToHasAnswered() {
        ReplicaAcks acks = acks(2, 1, 2);
        acks.onVerdict(APPLIED);
        assertThat(acks.result()).isNotDone();
        acks.onVerdict(APPLIED);
        assertThat(acks.result()).isCompleted();
    }

    @Test
    void failsWhenFewerThanTheRequiredReplicasApplied() {
        ReplicaAcks acks = acks(2, 2, 2);
        acks.onVerdict(APPLIED);
        acks.onVerdict(ReplicaLink.Verdict.failed());
        assertThatThrownBy(acks.result()::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(ReplicationException.class).hasMessageContaining("1 of 2").hasMessageContaining("partition 4");
    }

    @Test
    void aShipmentToNoReplicaIsDoneAtOnceWhenNoneIsRequiredAndCountsAsReducedRedundancy() {
        assertThat(acks(0, 0, 1).result()).isCompleted();
        assertThat(reduced).hasValue(1);
    }

    @Test
    void aShipmentEveryAssignedReplicaAppliedIsNotReduced() {
        ReplicaAcks acks = acks(1, 0, 1);
        acks.onVerdict(APPLIED);
        assertThat(acks.result()).isCompleted();
        assertThat(reduced).hasValue(0);
    }

    @Test
    void aReplicaWhoseConnectionClosedIsNotWaitedFor() {
        ReplicaAcks acks = acks(1, 0, 1);
        acks.onVerdict(GONE);
        assertThat(acks.result()).isCompleted();
        assertThat(reduced).hasValue(1);
    }

    @Test
    void aConnectedReplicaThatTimedOutHoldsTheWriteBackWhenNoOtherCopyAppliedIt() {
        ReplicaAcks acks = acks(1, 0, 1);
        acks.onVerdict(TIMED_OUT);
        assertThatThrownBy(acks.result()::join).hasCauseInstanceOf(ReplicationException.class)
                .hasMessageContaining("no other copy did");
        assertThat(reduced).hasValue(0);
    }

    @Test
    void aLaggingReplicaIsToleratedWhenAnotherReplicaAppliedTheWriteAndTheLeaderStillHeadsAMajority() {
        ReplicaAcks acks = acks(2, 0, 2);
        acks.onVerdict(GAP);
        acks.onVerdict(APPLIED);
        assertThat(acks.result()).isNotDone();
        assertThat(majorityChecks).hasValue(1);
        leaderAnswer.complete(null);
        assertThat(acks.result()).isCompleted();
        assertThat(reduced).hasValue(1);
    }

    @Test
    void aSilentReplicaFailsTheWriteWhenNoMajorityIsConfirmedAfterIt() {
        // the owner and the replica that applied the write may be cut off together: the majority side would
        // promote the silent replica, which lacks the write
        ReplicaAcks acks = acks(2, 0, 2);
        acks.onVerdict(APPLIED);
        acks.onVerdict(TIMED_OUT);
        leaderAnswer.completeExceptionally(new TimeoutException());
        assertThatThrownBy(acks.result()::join).hasCauseInstanceOf(ReplicationException.class)
                .hasMessageContaining("did not confirm").hasMessageContaining("TimeoutException");
        assertThat(reduced).hasValue(0);
    }

    @Test
    void noMajorityCheckWhenEveryReplicaAppliedOrIsGone() {
        ReplicaAcks acks = acks(3, 0, 3);
        acks.onVerdict(APPLIED);
        acks.onVerdict(GONE);
        acks.onVerdict(APPLIED);
        assertThat(acks.result()).isCompleted();
        assertThat(majorityChecks).hasValue(0);
    }

    @Test
    void aReplicaKnowingANewerEpochAlwaysFailsTheWrite() {
        ReplicaAcks acks = acks(2, 0, 2);
        acks.onVerdict(APPLIED);
        acks.onVerdict(FENCED);
        assertThatThrownBy(acks.result()::join).hasCauseInstanceOf(ReplicationException.class)
                .hasMessageContaining("newer epoch");
    }

    @Test
    void aTimeoutIsNotMistakenForAGoneReplica() {
        assertThat(TIMED_OUT.replicaGone()).isFalse();
        assertThat(GONE.replicaGone()).isTrue();
        assertThat(ReplicaLink.Verdict.failed().replicaGone()).isFalse();
    }

    @Test
    void aConnectionClosedForSilenceIsNotAGoneReplica() {
        ReplicaLink.Verdict silent = ReplicaLink.Verdict.ofFailure(new CompletionException(
                new PeerSilentException("connection to n3 closed: no response for 4000 ms, not even to a liveness probe")));
        assertThat(silent.replicaGone()).isFalse();
        assertThat(silent.applied()).isFalse();
    }

    @Test
    void aReplicaLeftOutBecauseItFellSilentNeedsTheMajorityProofLikeOneThatTimedOut() {
        // shipped to the replica still connected only; the silent one counts as not having applied it
        ReplicaAcks acks = new ReplicaAcks(4, 1, 1, 0, 2, reduced::incrementAndGet, () -> {
            majorityChecks.incrementAndGet();
            return leaderAnswer;
        });
        acks.onVerdict(APPLIED);
        assertThat(acks.result()).isNotDone();
        assertThat(majorityChecks).hasValue(1);
        leaderAnswer.completeExceptionally(new TimeoutException());
        assertThatThrownBy(acks.result()::join).hasCauseInstanceOf(ReplicationException.class)
                .hasMessageContaining("did not confirm");
    }

    @Test
    void aSilentReplicaAloneMeansNoCopyAppliedTheWrite() {
        ReplicaAcks acks = new ReplicaAcks(4, 0, 1, 0, 1, reduced::incrementAndGet, () -> leaderAnswer);
        assertThatThrownBy(acks.result()::join).hasCauseInstanceOf(ReplicationException.class)
                .hasMessageContaining("no other copy did");
    }

    @Test
    void aCountedShipmentIsCountedOutOnceEveryVerdictIsInWhateverTheyAre() {
        java.util.concurrent.atomic.AtomicIntegerArray awaiting = new java.util.concurrent.atomic.AtomicIntegerArray(8);
        awaiting.incrementAndGet(4);
        ReplicaAcks acks = new ReplicaAcks(4, 2, 0, 1, 2, reduced::incrementAndGet, () -> leaderAnswer, awaiting);
        acks.onVerdict(APPLIED);
        assertThat(awaiting.get(4)).as("one verdict still out").isEqualTo(1);

        acks.onVerdict(FENCED);

        assertThat(awaiting.get(4)).isZero();
        assertThat(acks.result()).isCompletedExceptionally();
    }

    @Test
    void aLoneVerdictCountsAsReducedRedundancyExactlyWhenAShipmentToThatOneReplicaSucceedsReduced() {
        ReplicaLink.Verdict[] verdicts = {APPLIED, GAP, FENCED, GONE, TIMED_OUT, ReplicaLink.Verdict.failed(),
                ReplicaLink.Verdict.gone()};
        for (ReplicaLink.Verdict verdict : verdicts) {
            for (int required = 0; required <= 1; required++) {
                for (int assigned = 1; assigned <= 3; assigned++) {
                    AtomicInteger counted = new AtomicInteger();
                    ReplicaAcks full = new ReplicaAcks(4, 1, required, assigned, counted::incrementAndGet,
                            () -> CompletableFuture.failedFuture(new IllegalStateException("no majority check expected")));
                    full.onVerdict(verdict);

                    assertThat(full).as("%s, %d required, %d assigned", verdict, required, assigned).isDone();
                    assertThat(ReplicaAcks.loneVerdictSucceedsReduced(verdict, required, assigned))
                            .as("%s, %d required, %d assigned", verdict, required, assigned)
                            .isEqualTo(counted.get() == 1);
                }
            }
        }
    }
}
