package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ZarisRedundancyTests {

    private static ClusterView view(List<List<String>> owners, List<PartitionRuntime> runtimes) {
        return new ClusterView(PartitionLayout.of(owners.size(), owners.size()), new PartitionMap(1, 2, owners),
                new RuntimeMap(runtimes), Map.of("n1", new NodeAddress("127.0.0.1", 1), "n2", new NodeAddress("127.0.0.1", 2),
                "n3", new NodeAddress("127.0.0.1", 3)));
    }

    private static PartitionRuntime healthy(String node) {
        return new PartitionRuntime(node, 1, PartitionHealth.HEALTHY);
    }

    @Test
    void aHealthyViewIsFullyRedundantBeforeTheKill() {
        ClusterView view = view(List.of(List.of("n1", "n2"), List.of("n2", "n3"), List.of("n3", "n1")),
                List.of(healthy("n1"), healthy("n2"), healthy("n3")));
        assertThat(ZarisRedundancy.partitionsShort(view, null)).isZero();
    }

    @Test
    void aViewThatStillAssignsTheKilledNodeIsShortEvenWhileItLooksHealthy() {
        ClusterView view = view(List.of(List.of("n1", "n2"), List.of("n2", "n3"), List.of("n3", "n1")),
                List.of(healthy("n1"), healthy("n2"), healthy("n3")));
        assertThat(ZarisRedundancy.partitionsShort(view, "n3")).isEqualTo(2);
    }

    @Test
    void aPartitionDegradedMovingOrWithoutItsReplicaIsShort() {
        ClusterView view = view(List.of(List.of("n1", "n2"), List.of("n2", "n1", "n3"), List.of("n1"), List.of("n2", "n1")),
                List.of(new PartitionRuntime("n1", 2, PartitionHealth.DEGRADED), healthy("n2"), healthy("n1"), healthy("n2")));
        assertThat(ZarisRedundancy.partitionsShort(view, "n3")).isEqualTo(3);
    }

    @Test
    void anUnavailablePartitionIsShort() {
        ClusterView view = view(List.of(List.of("n1", "n2")), List.of(new PartitionRuntime(null, 3, PartitionHealth.UNAVAILABLE)));
        assertThat(ZarisRedundancy.partitionsShort(view, "n3")).isEqualTo(1);
    }
}
