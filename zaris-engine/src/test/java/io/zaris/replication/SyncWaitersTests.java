package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.KvStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Shipments waiting for a replica to go live on their segment: which snapshot or release settles which of them. */
@Tag("unit")
class SyncWaitersTests {

    private static final ReplicaLink.Verdict APPLIED = new ReplicaLink.Verdict(KvStatus.OK, 9);

    private final SyncWaiters waiters = new SyncWaiters(8);

    @Test
    void aSnapshotSettlesTheShipmentsBeforeItWithItsVerdictAndNoLaterOne() {
        CompletableFuture<ReplicaLink.Verdict> first = waiters.join("n2", 3);
        CompletableFuture<ReplicaLink.Verdict> second = waiters.join("n2", 3);
        CompletableFuture<ReplicaLink.Verdict> snapshot = new CompletableFuture<>();

        waiters.settle("n2", 3, snapshot);
        CompletableFuture<ReplicaLink.Verdict> afterSnapshot = waiters.join("n2", 3);
        assertThat(first).isNotDone();
        snapshot.complete(APPLIED);

        assertThat(first).isCompletedWithValue(APPLIED);
        assertThat(second).isCompletedWithValue(APPLIED);
        assertThat(afterSnapshot).as("registered after the snapshot was read: it waits for the next").isNotDone();
        assertThat(waiters.waits("n2", 3)).isTrue();
    }

    @Test
    void aSnapshotOfAnotherSegmentOrForAnotherReplicaSettlesNothing() {
        CompletableFuture<ReplicaLink.Verdict> waiting = waiters.join("n2", 3);

        waiters.settle("n2", 4, CompletableFuture.completedFuture(APPLIED));
        waiters.settle("n3", 3, CompletableFuture.completedFuture(APPLIED));

        assertThat(waiting).isNotDone();
        assertThat(waiters.waits("n2", 4)).isFalse();
        assertThat(waiters.waits("n3", 3)).isFalse();
    }

    @Test
    void releasingAReplicaCompletesItsWaitersOfEverySegmentAndLeavesOthersWaiting() {
        CompletableFuture<ReplicaLink.Verdict> segment0 = waiters.join("n2", 0);
        CompletableFuture<ReplicaLink.Verdict> segment7 = waiters.join("n2", 7);
        CompletableFuture<ReplicaLink.Verdict> otherReplica = waiters.join("n3", 7);

        waiters.release("n2", ReplicaLink.Verdict.gone());

        assertThat(segment0.join().replicaGone()).isTrue();
        assertThat(segment7.join().replicaGone()).isTrue();
        assertThat(otherReplica).isNotDone();
        assertThat(waiters.waits("n2", 7)).isFalse();
        assertThat(waiters.peers()).contains("n2", "n3");
    }

    @Test
    void waitersCompletedAtTheirDeadlineLeaveTheQueueWhenTheNextOneJoins() {
        List<CompletableFuture<ReplicaLink.Verdict>> expired = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            expired.add(waiters.join("n2", 5));
        }
        expired.forEach(waiter -> waiter.complete(ReplicaLink.Verdict.gone())); // as their deadlines do
        CompletableFuture<ReplicaLink.Verdict> live = waiters.join("n2", 5);
        CompletableFuture<ReplicaLink.Verdict> snapshot = new CompletableFuture<>();

        waiters.settle("n2", 5, snapshot);
        snapshot.complete(APPLIED);

        assertThat(live).isCompletedWithValue(APPLIED);
        assertThat(expired).allSatisfy(waiter -> assertThat(waiter.join().replicaGone()).isTrue());
        assertThat(waiters.waits("n2", 5)).isFalse();
    }

    @Test
    void aWaiterCompletedAtItsDeadlineKeepsThatVerdictWhenTheSnapshotAnswersLater() {
        CompletableFuture<ReplicaLink.Verdict> waiter = waiters.join("n2", 1);
        CompletableFuture<ReplicaLink.Verdict> snapshot = new CompletableFuture<>();
        waiters.settle("n2", 1, snapshot);

        waiter.complete(ReplicaLink.Verdict.gone());
        snapshot.complete(APPLIED);

        assertThat(waiter.join().replicaGone()).isTrue();
    }
}
