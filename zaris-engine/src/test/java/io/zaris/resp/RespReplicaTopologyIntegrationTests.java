package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node that serves no slot range but replicates some is reported as a replica: after a node is stopped
 * (its ranges fail over) and restarted (it catches up as a replica, and a long heal cooldown keeps it from
 * failing back), every node's {@code CLUSTER NODES} names it {@code slave} of a master, Lettuce reads it as a
 * replica, and {@code redis-cli --cluster check} accepts the topology.
 */
@Tag("in-process-cluster")
class RespReplicaTopologyIntegrationTests {

    private static final ReplicationSettings NO_FAILBACK = ReplicationSettings.defaults()
            .withEvictionDelay(Duration.ofMinutes(10))
            .withHealCooldown(Duration.ofMinutes(10));

    @Test
    void aRestartedNodeThatServesNothingIsReportedAsAReplica() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).replication(NO_FAILBACK).resp(true).build().start()) {
            String victim = cluster.nodes().stream().filter(n -> !n.isLeader()).findFirst().orElseThrow().nodeId();
            cluster.stopNode(victim);
            await().atMost(Duration.ofSeconds(60)).until(() -> servesNothing(cluster.leader().currentView(), victim));
            cluster.restartNode(victim);
            String victimId = ClusterTopology.redisId(victim);
            await().atMost(Duration.ofSeconds(60)).until(() -> everyNodeReportsAsReplica(cluster, victimId));

            RedisClusterClient lettuce = RedisClusterClient.create(seeds(cluster));
            try (StatefulRedisClusterConnection<String, String> connection = lettuce.connect()) {
                RedisClusterNode replica = connection.getPartitions().getPartitionByNodeId(victimId);
                assertThat(replica.is(RedisClusterNode.NodeFlag.REPLICA)).as(replica.toString()).isTrue();
                assertThat(replica.getSlots()).isEmpty();
                RedisClusterNode master = connection.getPartitions().getPartitionByNodeId(replica.getSlaveOf());
                assertThat(master.is(RedisClusterNode.NodeFlag.UPSTREAM)).isTrue();
                assertThat(master.getSlots()).isNotEmpty();
                for (int i = 0; i < 50; i++) {
                    assertThat(connection.sync().set("replica-topology:" + i, "v" + i)).isEqualTo("OK");
                    assertThat(connection.sync().get("replica-topology:" + i)).isEqualTo("v" + i);
                }
            } finally {
                lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }

            assumeThat(RedisCli.installed()).as(RedisCli.MISSING).isTrue();
            RedisCli.Result check = RedisCli.clusterCheck(cluster.node(victim).respAddress());
            assertThat(check.exitCode()).as(check.output()).isZero();
            assertThat(check.output()).contains("[OK] All nodes agree about slots configuration.",
                    "[OK] All 16384 slots covered.", "S: " + victimId, "1 additional replica(s)")
                    .containsPattern("slots: \\(0 slots\\) slave\\s+replicates [0-9a-f]{40}")
                    .doesNotContain("[ERR]", "[WARNING]");
        }
    }

    private static boolean servesNothing(ClusterView view, String nodeId) {
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (nodeId.equals(view.runtimeMap().get(p).activeNode()) || !view.runtimeMap().get(p).health().isServing()) {
                return false;
            }
        }
        return true;
    }

    /** Whether all three nodes answer the same CLUSTER NODES (apart from "myself") with the node as a slave. */
    private static boolean everyNodeReportsAsReplica(EmbeddedCluster cluster, String redisId) {
        Set<String> answers = new HashSet<>();
        for (ZarisNode node : cluster.nodes()) {
            NodeAddress address = node.respAddress();
            if (address == null) {
                return false;
            }
            RedisClient client = RedisClient.create(RedisURI.create(address.host(), address.port()));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                answers.add(connection.sync().clusterNodes().replace("myself,", ""));
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
        return answers.size() == 1 && answers.iterator().next().lines().filter(line -> line.startsWith(redisId))
                .anyMatch(line -> line.split(" ")[2].equals("slave"));
    }

    private static List<RedisURI> seeds(EmbeddedCluster cluster) {
        List<RedisURI> seeds = new ArrayList<>();
        for (NodeAddress address : cluster.respSeeds()) {
            seeds.add(RedisURI.create(address.host(), address.port()));
        }
        return seeds;
    }
}
