package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.cluster.PartitionHealth;
import io.zaris.cluster.PartitionRuntime;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.KvStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class OwnershipDecisionTests {

    /** Partition 0: primary a, replica b. Node c holds nothing of it. */
    private static final PartitionMap MAP = new PartitionMap(1, 2, List.of(List.of("a", "b")));
    private static final PartitionRuntime A_HEALTHY = new PartitionRuntime("a", 3, PartitionHealth.HEALTHY);

    @Test
    void activeOwnerServesReadsAndWrites() {
        assertThat(decide("a", A_HEALTHY, false, false)).isEqualTo(KvStatus.OK);
        assertThat(decide("a", A_HEALTHY, true, false)).isEqualTo(KvStatus.OK);
    }

    @Test
    void degradedActiveOwnerStillServes() {
        PartitionRuntime degraded = new PartitionRuntime("b", 4, PartitionHealth.DEGRADED);
        assertThat(decide("b", degraded, true, false)).isEqualTo(KvStatus.OK);
    }

    @Test
    void recoveringActiveOwnerDoesNotServe() {
        PartitionRuntime recovering = new PartitionRuntime("b", 4, PartitionHealth.RECOVERING);
        assertThat(decide("b", recovering, false, false)).isEqualTo(KvStatus.UNAVAILABLE);
    }

    @Test
    void partitionWithoutOwnerIsUnavailableEverywhere() {
        PartitionRuntime none = new PartitionRuntime(null, 5, PartitionHealth.UNAVAILABLE);
        assertThat(decide("a", none, false, false)).isEqualTo(KvStatus.UNAVAILABLE);
        assertThat(decide("c", none, true, false)).isEqualTo(KvStatus.UNAVAILABLE);
    }

    @Test
    void assignedReplicaRejectsWritesAndRedirectsReads() {
        assertThat(decide("b", A_HEALTHY, true, false)).isEqualTo(KvStatus.REPLICA_WRITE_REJECTED);
        assertThat(decide("b", A_HEALTHY, false, false)).isEqualTo(KvStatus.MOVED);
    }

    @Test
    void unassignedNodeAnswersMoved() {
        assertThat(decide("c", A_HEALTHY, true, false)).isEqualTo(KvStatus.MOVED);
        assertThat(decide("c", A_HEALTHY, false, false)).isEqualTo(KvStatus.MOVED);
    }

    @Test
    void anyNodeAnswersOwnershipChangingDuringAHandoff() {
        assertThat(decide("a", A_HEALTHY, true, true)).isEqualTo(KvStatus.OWNERSHIP_CHANGING);
        assertThat(decide("b", A_HEALTHY, true, true)).isEqualTo(KvStatus.OWNERSHIP_CHANGING);
        assertThat(decide("c", A_HEALTHY, false, true)).isEqualTo(KvStatus.OWNERSHIP_CHANGING);
    }

    private static KvStatus decide(String self, PartitionRuntime runtime, boolean write, boolean transitioning) {
        return OwnershipDecision.decide(self, MAP, runtime, 0, write, transitioning);
    }
}
