package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.cluster.ClusterView;
import io.zaris.cluster.NodeAddress;
import io.zaris.cluster.PartitionHealth;
import io.zaris.cluster.PartitionRuntime;
import io.zaris.cluster.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterTopologyTests {

    /** 4 partitions of 4 segments each: 0,1 → a (replica b); 2 → b (replica a); 3 → c (replica a). */
    private static final PartitionLayout LAYOUT = PartitionLayout.of(16, 4);
    private static final PartitionMap MAP = new PartitionMap(3, 2, List.of(
            List.of("a", "b"), List.of("a", "b"), List.of("b", "a"), List.of("c", "a")));
    private static final Map<String, NodeAddress> ADDRESSES = Map.of(
            "a", new NodeAddress("127.0.0.1", 7101), "b", new NodeAddress("127.0.0.1", 7102),
            "c", new NodeAddress("127.0.0.1", 7103));
    private static final RespPeerPorts PLUS_1000 = RespPeerPorts.offset(1000);

    @Test
    void adjacentPartitionsWithTheSameOwnersMergeIntoOneSlotRange() {
        List<ClusterTopology.SlotRange> ranges = ClusterTopology.ranges(view(healthy()), PLUS_1000);
        assertThat(ranges).containsExactly(
                new ClusterTopology.SlotRange(0, 8191, "a", List.of("b")),
                new ClusterTopology.SlotRange(8192, 12287, "b", List.of("a")),
                new ClusterTopology.SlotRange(12288, 16383, "c", List.of("a")));
    }

    @Test
    void theActiveOwnerIsTheMasterEvenWhenItIsNotThePreferredPrimary() {
        List<PartitionRuntime> runtimes = healthy();
        runtimes.set(3, new PartitionRuntime("a", 7, PartitionHealth.DEGRADED));
        List<ClusterTopology.SlotRange> ranges = ClusterTopology.ranges(view(runtimes), PLUS_1000);
        assertThat(ranges.get(2)).isEqualTo(new ClusterTopology.SlotRange(12288, 16383, "a", List.of("c")));
    }

    @Test
    void slotsWithoutAnActiveOwnerAreUncoveredAndTheClusterFails() {
        List<PartitionRuntime> runtimes = healthy();
        runtimes.set(2, new PartitionRuntime(null, 9, PartitionHealth.UNAVAILABLE));
        ClusterView view = view(runtimes);
        assertThat(ClusterTopology.ranges(view, PLUS_1000)).extracting(ClusterTopology.SlotRange::start).containsExactly(0, 12288);
        assertThat(ClusterTopology.info(view, PLUS_1000, "a")).contains("cluster_state:fail", "cluster_slots_ok:12288");
        assertThat(RespCommands.movedReply(view, "a", PLUS_1000, 9000))
                .isEqualTo(RespReply.error("CLUSTERDOWN Hash slot 9000 has no serving owner"));
    }

    @Test
    void movedNamesTheActiveOwnersRespAddress() {
        ClusterView view = view(healthy());
        assertThat(RespCommands.movedReply(view, "a", PLUS_1000, 13000)).isEqualTo(RespReply.error("MOVED 13000 127.0.0.1:8103"));
        assertThat(RespCommands.movedReply(view, "a", PLUS_1000, 5))
                .isEqualTo(RespReply.error("TRYAGAIN ownership of slot 5 is changing"));
    }

    @Test
    void clusterNodesListsEveryNodeAsAMasterOfTheRangesItServes() {
        String nodes = ClusterTopology.nodes(view(healthy()), PLUS_1000, "b");
        assertThat(nodes.split("\n")).containsExactly(
                ClusterTopology.redisId("a") + " 127.0.0.1:8101@7101 master - 0 0 3 connected 0-8191",
                ClusterTopology.redisId("b") + " 127.0.0.1:8102@7102 myself,master - 0 0 3 connected 8192-12287",
                ClusterTopology.redisId("c") + " 127.0.0.1:8103@7103 master - 0 0 3 connected 12288-16383");
        assertThat(ClusterTopology.redisId("a")).hasSize(40).matches("[0-9a-f]+");
    }

    @Test
    void nodesWhoseRespPortIsUnknownAreLeftOut() {
        RespPeerPorts onlyA = (id, data) -> id.equals("a") ? 9000 : -1;
        assertThat(ClusterTopology.ranges(view(healthy()), onlyA))
                .containsExactly(new ClusterTopology.SlotRange(0, 8191, "a", List.of()));
    }

    private static List<PartitionRuntime> healthy() {
        List<PartitionRuntime> runtimes = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            runtimes.add(new PartitionRuntime(MAP.primaryOf(p), 1, PartitionHealth.HEALTHY));
        }
        return runtimes;
    }

    private static ClusterView view(List<PartitionRuntime> runtimes) {
        return new ClusterView(LAYOUT, MAP, new RuntimeMap(runtimes), ADDRESSES);
    }
}
