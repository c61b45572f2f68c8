package io.zaris.cluster;

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
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which partitions of a planned change need their active fenced first, and whether a held heal still applies. */
@Tag("unit")
class PlannedHandOversTests {

    private static final PartitionLayout LAYOUT = PartitionLayout.of(6, 3);
    private static final Map<String, NodeAddress> ADDRESSES = Map.of("a", new NodeAddress("127.0.0.1", 1),
            "b", new NodeAddress("127.0.0.1", 2), "c", new NodeAddress("127.0.0.1", 3), "d", new NodeAddress("127.0.0.1", 4));
    private static final Set<String> PRESENT = Set.of("a", "b", "c", "d");

    @Test
    void aMapChangeFencesEachLiveActiveThatKeepsItsPartitionUnderANewEpoch() {
        ClusterView held = view(List.of(List.of("a", "b"), List.of("b", "c"), List.of("c", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("b", 5, PartitionHealth.HEALTHY),
                new PartitionRuntime("c", 2, PartitionHealth.HEALTHY));
        ClusterView next = view(List.of(List.of("d", "a", "b"), List.of("b", "c"), List.of("d", "c", "a")),
                new PartitionRuntime("a", 4, PartitionHealth.DEGRADED), new PartitionRuntime("b", 5, PartitionHealth.HEALTHY),
                new PartitionRuntime("c", 3, PartitionHealth.DEGRADED));

        assertThat(PlannedHandOvers.fencesBeforeRemap(held, next, PRESENT))
                .isEqualTo(Map.of("a", Map.of(0, 3L), "c", Map.of(2, 2L)));
        assertThat(PlannedHandOvers.fencesBeforeRemap(held, next, Set.of("b", "c", "d")))
                .as("an active that left is not asked").isEqualTo(Map.of("c", Map.of(2, 2L)));
    }

    @Test
    void aHeldHealAppliesOnlyToThePartitionAsTheRoundSawIt() {
        PartitionRuntime before = new PartitionRuntime("b", 4, PartitionHealth.DEGRADED);
        PlannedHandOvers.Held heal = new PlannedHandOvers.Held(before, new PartitionRuntime("a", 5, PartitionHealth.HEALTHY),
                "heal", "0");
        List<List<String>> owners = List.of(List.of("a", "b"), List.of("b", "c"), List.of("c", "a"));
        PartitionRuntime other = new PartitionRuntime("c", 2, PartitionHealth.HEALTHY);

        assertThat(PlannedHandOvers.stillApplies(view(owners, before, other, other), 0, heal)).isTrue();
        assertThat(PlannedHandOvers.stillApplies(view(owners, new PartitionRuntime("b", 6, PartitionHealth.DEGRADED),
                other, other), 0, heal)).as("a new epoch meanwhile").isFalse();
        assertThat(PlannedHandOvers.stillApplies(view(List.of(List.of("c", "b"), List.of("b", "c"), List.of("c", "a")),
                before, other, other), 0, heal)).as("another primary meanwhile").isFalse();
        assertThat(PlannedHandOvers.fencesByNode(Map.of(0, heal))).isEqualTo(Map.of("b", Map.of(0, 4L)));
    }

    private static ClusterView view(List<List<String>> owners, PartitionRuntime... runtimes) {
        return new ClusterView(LAYOUT, new PartitionMap(1, 2, owners), new RuntimeMap(List.of(runtimes)), ADDRESSES);
    }
}
