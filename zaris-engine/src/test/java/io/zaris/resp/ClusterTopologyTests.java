package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    void clusterNodesShowsNodesThatServeRangesAsMastersOfThem() {
        String nodes = ClusterTopology.nodes(view(healthy()), PLUS_1000, "b");
        assertThat(nodes.split("\n")).containsExactly(
                ClusterTopology.redisId("a") + " 127.0.0.1:8101@7101 master - 0 0 3 connected 0-8191",
                ClusterTopology.redisId("b") + " 127.0.0.1:8102@7102 myself,master - 0 0 3 connected 8192-12287",
                ClusterTopology.redisId("c") + " 127.0.0.1:8103@7103 master - 0 0 3 connected 12288-16383");
        assertThat(ClusterTopology.redisId("a")).hasSize(40).matches("[0-9a-f]+");
    }

    @Test
    void aNodeThatServesNoRangeIsTheReplicaOfTheMasterItReplicates() {
        List<PartitionRuntime> runtimes = healthy();
        runtimes.set(3, new PartitionRuntime("a", 7, PartitionHealth.DEGRADED));
        String nodes = ClusterTopology.nodes(view(runtimes), PLUS_1000, "c");
        assertThat(nodes.split("\n")).containsExactly(
                ClusterTopology.redisId("a") + " 127.0.0.1:8101@7101 master - 0 0 3 connected 0-8191 12288-16383",
                ClusterTopology.redisId("b") + " 127.0.0.1:8102@7102 master - 0 0 3 connected 8192-12287",
                ClusterTopology.redisId("c") + " 127.0.0.1:8103@7103 myself,slave " + ClusterTopology.redisId("a")
                        + " 0 0 3 connected");
        assertThat(ClusterTopology.roles(view(runtimes), PLUS_1000)).extracting(ClusterTopology.NodeRole::masterOf)
                .containsExactly(null, null, "a");
    }

    @Test
    void aNodeThatOwnsNothingIsAMasterWithoutSlotsAndAnEmptyShard() {
        Map<String, NodeAddress> withD = new HashMap<>(ADDRESSES);
        withD.put("d", new NodeAddress("127.0.0.1", 7104));
        ClusterView view = new ClusterView(LAYOUT, MAP, new RuntimeMap(healthy()), withD);
        assertThat(ClusterTopology.nodes(view, PLUS_1000, "a").split("\n")).hasSize(4).endsWith(ClusterTopology.redisId("d") + " 127.0.0.1:8104@7104 master - 0 0 3 connected");
        List<?> shards = (List<?>) plain(ClusterTopology.shards(view, PLUS_1000));
        assertThat(shards).hasSize(4).last().isEqualTo(Map.of("slots", List.of(), "nodes", List.of(
                member("d", 8104, "master"))));
    }

    @Test
    void clusterShardsGroupsRangesByMasterAndReplicasWithTheirRespAddresses() {
        List<PartitionRuntime> runtimes = healthy();
        runtimes.set(3, new PartitionRuntime("a", 7, PartitionHealth.DEGRADED));
        Object shards = plain(ClusterTopology.shards(view(runtimes), PLUS_1000));
        // (a; b) serves 0-8191, (b; a) 8192-12287, (a; c) 12288-16383 where c is a replica only.
        assertThat(shards).isEqualTo(List.of(
                Map.of("slots", List.of(0L, 8191L), "nodes", List.of(member("a", 8101, "master"), member("b", 8102, "replica"))),
                Map.of("slots", List.of(8192L, 12287L), "nodes", List.of(member("b", 8102, "master"), member("a", 8101, "replica"))),
                Map.of("slots", List.of(12288L, 16383L), "nodes", List.of(member("a", 8101, "master"), member("c", 8103, "replica")))));
    }

    @Test
    void clusterSlotsListsEachRangesReplicasAfterItsMaster() {
        assertThat(plain(ClusterTopology.slots(view(healthy()), PLUS_1000))).isEqualTo(List.of(
                List.of(0L, 8191L, slotsNode("a", 8101), slotsNode("b", 8102)),
                List.of(8192L, 12287L, slotsNode("b", 8102), slotsNode("a", 8101)),
                List.of(12288L, 16383L, slotsNode("c", 8103), slotsNode("a", 8101))));
    }

    private static List<Object> slotsNode(String nodeId, int port) {
        return List.of("127.0.0.1", (long) port, ClusterTopology.redisId(nodeId));
    }

    private static Map<String, Object> member(String nodeId, int port, String role) {
        return Map.of("id", ClusterTopology.redisId(nodeId), "port", (long) port, "ip", "127.0.0.1", "endpoint", "127.0.0.1",
                "role", role, "replication-offset", 0L, "health", "online");
    }

    /** A reply as plain values: bulk and simple strings as String, integers as Long, arrays as List, maps as Map. */
    private static Object plain(RespReply reply) {
        if (reply instanceof RespReply.Bulk bulk) {
            return new String(bulk.bytes(), StandardCharsets.UTF_8);
        } else if (reply instanceof RespReply.Simple simple) {
            return simple.text();
        } else if (reply instanceof RespReply.Int integer) {
            return integer.value();
        } else if (reply instanceof RespReply.Array array) {
            List<Object> items = new ArrayList<>();
            array.items().forEach(item -> items.add(plain(item)));
            return items;
        } else if (reply instanceof RespReply.MapReply map) {
            Map<Object, Object> entries = new LinkedHashMap<>();
            for (int i = 0; i < map.keysAndValues().size(); i += 2) {
                entries.put(plain(map.keysAndValues().get(i)), plain(map.keysAndValues().get(i + 1)));
            }
            return entries;
        }
        throw new AssertionError("unexpected reply " + reply);
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
