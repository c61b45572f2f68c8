package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A degraded partition's active audits the replicas it holds confirmations from. The state injected here is the end
 * of a 30-minute chaos run on separate hosts: the active counted a replica's every segment confirmed, the replica
 * counted two of them not complete, and as nothing re-sent an idle confirmed segment the partition stayed degraded
 * for minutes. Here a replica forgets one segment of a partition that stays degraded (its third owner stopped and is
 * not evicted); the active must find that out and re-send the segment, and count it.
 */
@Tag("in-process-cluster")
class ReplicaAuditIntegrationTests {

    @Test
    void aSegmentTheReplicaNoLongerCountsCompleteIsSentAgain() throws Exception {
        String cluster = "zaris-audit-" + UUID.randomUUID();
        ClusterSettings settings = new ClusterSettings(3, PartitionLayout.of(64, 8), 3);
        ReplicationSettings replication = ReplicationSettings.defaults().withEvictionDelay(Duration.ofMinutes(10));
        List<ZarisNode> nodes = new ArrayList<>();
        try {
            for (String id : List.of("n1", "n2", "n3")) {
                nodes.add(new ZarisNode(NodeConfig.builder(id).host("127.0.0.1").port(0).clusterSettings(settings)
                        .membership(new MembershipConfig.InJvm(cluster)).replication(replication).build()).start());
            }
            for (ZarisNode node : nodes) {
                node.awaitReady(Duration.ofSeconds(30));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> nodes.stream().allMatch(ZarisNode::isReplicationReady));
            List<NodeAddress> seeds = nodes.stream().map(ZarisNode::dataAddress).toList();
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .environment(Map.of()).build())) {
                for (int i = 0; i < 400; i++) {
                    client.sync().put("key-" + i, ("value-" + i).getBytes(StandardCharsets.UTF_8));
                }
                ZarisNode stopped = nodes.stream().filter(n -> !n.isLeader()).findFirst().orElseThrow();
                stopped.close();
                List<ZarisNode> left = nodes.stream().filter(n -> n != stopped).toList();

                // A partition the stopped node replicated: its active stays and serves it DEGRADED, confirmed by the other replica.
                int[] found = new int[1];
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    ClusterView view = client.refreshMap().join();
                    for (int p = 0; p < view.layout().partitionCount(); p++) {
                        PartitionRuntime runtime = view.runtimeMap().get(p);
                        if (runtime.health() == PartitionHealth.DEGRADED && !stopped.nodeId().equals(runtime.activeNode())
                                && node(left, runtime.activeNode()).confirmedReplicas(p) == 1) {
                            found[0] = p;
                            return true;
                        }
                    }
                    return false;
                });
                int partition = found[0];
                PartitionRuntime runtime = client.clusterView().runtimeMap().get(partition);
                ZarisNode active = node(left, runtime.activeNode());
                ZarisNode replica = left.stream().filter(n -> n != active).findFirst().orElseThrow();
                int segment = client.clusterView().layout().firstSegmentOf(partition);
                assertThat(replica.syncedEpochOf(segment)).as("the replica's copy before").isEqualTo(runtime.epoch());

                replica.forgetSynced(segment);

                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    assertThat(replica.syncedEpochOf(segment)).as("the replica's copy after").isEqualTo(runtime.epoch());
                    assertThat(active.segmentsAuditedOutOfSync()).as("segments the active's audit re-sent").isEqualTo(1);
                });
                assertThat(client.clusterView().runtimeMap().get(partition).epoch()).as("no failover meanwhile")
                        .isEqualTo(runtime.epoch());
            }
        } finally {
            for (ZarisNode node : nodes) {
                node.close();
            }
        }
    }

    private static ZarisNode node(List<ZarisNode> nodes, String id) {
        return nodes.stream().filter(n -> n.nodeId().equals(id)).findFirst().orElseThrow();
    }
}
