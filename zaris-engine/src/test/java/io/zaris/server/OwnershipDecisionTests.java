package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.KvStatus;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionMap;
import io.zaris.server.OwnershipDecision.CatchUp;
import io.zaris.server.OwnershipDecision.Facts;
import io.zaris.server.OwnershipDecision.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class OwnershipDecisionTests {

    /** Partition 0: primary a, replica b. Node c holds nothing of it. */
    private static final PartitionMap MAP = new PartitionMap(1, 2, List.of(List.of("a", "b")));
    private static final PartitionRuntime A_HEALTHY = new PartitionRuntime("a", 3, PartitionHealth.HEALTHY);

    private static final Facts READ = new Facts(false, 3, false, CatchUp.NONE, true, true);
    private static final Facts WRITE = new Facts(true, 3, false, CatchUp.NONE, true, true);

    @Test
    void activeOwnerServesReadsAndWrites() {
        assertThat(decide("a", A_HEALTHY, READ)).isEqualTo(Verdict.SERVE);
        assertThat(decide("a", A_HEALTHY, WRITE)).isEqualTo(Verdict.SERVE);
        assertThat(Verdict.SERVE.status()).isEqualTo(KvStatus.OK);
    }

    @Test
    void requestsWithoutARoutedEpochOrAnOlderOneAreServed() {
        assertThat(decide("a", A_HEALTHY, routedBy(WRITE, 0))).isEqualTo(Verdict.SERVE);
        assertThat(decide("a", A_HEALTHY, routedBy(READ, 2))).isEqualTo(Verdict.SERVE);
    }

    @Test
    void degradedActiveOwnerStillServes() {
        PartitionRuntime degraded = new PartitionRuntime("b", 4, PartitionHealth.DEGRADED);
        assertThat(decide("b", degraded, WRITE)).isEqualTo(Verdict.SERVE);
    }

    @Test
    void aClientRoutedByANewerEpochMeansThisNodesViewIsBehind() {
        Facts newer = routedBy(WRITE, 4);
        assertThat(decide("a", A_HEALTHY, newer)).isEqualTo(Verdict.VIEW_BEHIND);
        assertThat(decide("b", A_HEALTHY, newer)).isEqualTo(Verdict.VIEW_BEHIND);
        assertThat(decide("c", A_HEALTHY, routedBy(READ, 4))).isEqualTo(Verdict.VIEW_BEHIND);
        assertThat(Verdict.VIEW_BEHIND.status()).isEqualTo(KvStatus.OWNERSHIP_CHANGING);
    }

    @Test
    void aFencedActiveOwnerDoesNotServeEvenWithoutARoutedEpoch() {
        Facts fenced = new Facts(false, 0, true, CatchUp.NONE, true, true);
        assertThat(decide("a", A_HEALTHY, fenced)).isEqualTo(Verdict.VIEW_BEHIND);
    }

    @Test
    void aViewBehindWinsOverAnUnavailablePartition() {
        PartitionRuntime none = new PartitionRuntime(null, 5, PartitionHealth.UNAVAILABLE);
        assertThat(decide("a", none, routedBy(READ, 6))).isEqualTo(Verdict.VIEW_BEHIND);
    }

    @Test
    void partitionWithoutOwnerIsUnavailableEverywhere() {
        PartitionRuntime none = new PartitionRuntime(null, 5, PartitionHealth.UNAVAILABLE);
        assertThat(decide("a", none, READ)).isEqualTo(Verdict.NO_OWNER);
        assertThat(decide("c", none, WRITE)).isEqualTo(Verdict.NO_OWNER);
        assertThat(Verdict.NO_OWNER.status()).isEqualTo(KvStatus.UNAVAILABLE);
    }

    @Test
    void recoveringActiveOwnerDoesNotServe() {
        PartitionRuntime recovering = new PartitionRuntime("b", 4, PartitionHealth.RECOVERING);
        assertThat(decide("b", recovering, READ)).isEqualTo(Verdict.OWNER_RECOVERING);
        assertThat(Verdict.OWNER_RECOVERING.status()).isEqualTo(KvStatus.UNAVAILABLE);
    }

    @Test
    void activeOwnerCatchingUpAfterAFailoverTakeoverAnswersOwnershipChanging() {
        Facts catchingUp = new Facts(false, 3, false, CatchUp.AFTER_TAKEOVER, true, true);
        assertThat(decide("a", A_HEALTHY, catchingUp)).isEqualTo(Verdict.CATCHING_UP);
        assertThat(Verdict.CATCHING_UP.status()).isEqualTo(KvStatus.OWNERSHIP_CHANGING);
    }

    @Test
    void activeOwnerCatchingUpInAPlannedHandOverAnswersMigrating() {
        Facts handingOver = new Facts(true, 3, false, CatchUp.PLANNED_HAND_OVER, true, true);
        assertThat(decide("a", A_HEALTHY, handingOver)).isEqualTo(Verdict.HANDING_OVER);
        assertThat(Verdict.HANDING_OVER.status()).isEqualTo(KvStatus.MIGRATING);
    }

    @Test
    void aCatchUpOnlyConcernsTheActiveOwner() {
        Facts catchingUp = new Facts(true, 3, false, CatchUp.AFTER_TAKEOVER, true, true);
        assertThat(decide("b", A_HEALTHY, catchingUp)).isEqualTo(Verdict.REPLICA_WRITE);
        assertThat(decide("c", A_HEALTHY, catchingUp)).isEqualTo(Verdict.MOVED);
    }

    @Test
    void activeOwnerWithoutAConfirmedLeaseServesNothing() {
        Facts noLease = new Facts(false, 3, false, CatchUp.NONE, false, true);
        assertThat(decide("a", A_HEALTHY, noLease)).isEqualTo(Verdict.LEASE_LAPSED);
        assertThat(Verdict.LEASE_LAPSED.status()).isEqualTo(KvStatus.UNAVAILABLE);
    }

    @Test
    void activeOwnerOutsideTheMajorityServesReadsButRefusesWrites() {
        Facts minorityRead = new Facts(false, 3, false, CatchUp.NONE, true, false);
        Facts minorityWrite = new Facts(true, 3, false, CatchUp.NONE, true, false);
        assertThat(decide("a", A_HEALTHY, minorityRead)).isEqualTo(Verdict.SERVE);
        assertThat(decide("a", A_HEALTHY, minorityWrite)).isEqualTo(Verdict.MINORITY_WRITE);
        assertThat(Verdict.MINORITY_WRITE.status()).isEqualTo(KvStatus.UNAVAILABLE);
    }

    @Test
    void assignedReplicaRejectsWritesAndRedirectsReads() {
        assertThat(decide("b", A_HEALTHY, WRITE)).isEqualTo(Verdict.REPLICA_WRITE);
        assertThat(decide("b", A_HEALTHY, READ)).isEqualTo(Verdict.MOVED);
        assertThat(Verdict.REPLICA_WRITE.status()).isEqualTo(KvStatus.REPLICA_WRITE_REJECTED);
    }

    @Test
    void unassignedNodeAnswersMoved() {
        assertThat(decide("c", A_HEALTHY, WRITE)).isEqualTo(Verdict.MOVED);
        assertThat(decide("c", A_HEALTHY, READ)).isEqualTo(Verdict.MOVED);
        assertThat(Verdict.MOVED.status()).isEqualTo(KvStatus.MOVED);
    }

    @Test
    void aNodeThatIsNotActiveNeedsNoLeaseOrMajorityToRedirect() {
        Facts isolated = new Facts(true, 3, false, CatchUp.NONE, false, false);
        assertThat(decide("b", A_HEALTHY, isolated)).isEqualTo(Verdict.REPLICA_WRITE);
        assertThat(decide("c", A_HEALTHY, isolated)).isEqualTo(Verdict.MOVED);
    }

    private static Facts routedBy(Facts facts, long epoch) {
        return new Facts(facts.write(), epoch, facts.fenced(), facts.catchUp(), facts.holdsLease(), facts.inMajority());
    }

    private static Verdict decide(String self, PartitionRuntime runtime, Facts facts) {
        return OwnershipDecision.decide(self, MAP, runtime, 0, facts);
    }
}
