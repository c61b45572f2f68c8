package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Five nodes, three copies. One node leaves: every partition it was a replica of stays on its active under a new
 * epoch (DEGRADED), and the active carries its other replica's copy over to that epoch instead of clearing and
 * refilling it with a snapshot. The carried-over copies equal their actives', segment by segment; and when the
 * active of such a partition leaves as well, the carried-over replica serves every key written before.
 */
@Tag("in-process-cluster")
class CarriedOverReplicaIntegrationTests {

    private static final int KEYS = 2_000;

    @Test
    void aReplicaLeftUnderAnActiveKeepsTheOtherCopyInPlaceAndThatCopyServesWhenTheActiveGoesToo() throws Exception {
        ReplicationSettings replication = ReplicationSettings.defaults().withEvictionDelay(Duration.ofMinutes(10))
                .withHealCooldown(Duration.ofSeconds(1));
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(5).replicationFactor(3)
                .layout(PartitionLayout.of(128, 16)).replication(replication).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            for (int i = 0; i < KEYS; i++) {
                client.sync().put("key-" + i, utf8("value-" + i));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> client.refreshMap().join().runtimeMap().partitions()
                    .stream().allMatch(p -> p.health() == PartitionHealth.HEALTHY));
            ClusterView before = client.refreshMap().join();
            String leader = cluster.leader().nodeId();
            String replicaLeaving = cluster.nodes().stream().map(ZarisNode::nodeId).filter(id -> !id.equals(leader))
                    .findFirst().orElseThrow();
            List<Integer> degrading = replicatedOnlyBy(before, replicaLeaving);
            assertThat(degrading).isNotEmpty();
            long carriedBefore = carriedOver(cluster);

            cluster.stopNode(replicaLeaving);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                ClusterView view = cluster.leader().currentView();
                return degrading.stream().allMatch(p -> {
                    PartitionRuntime was = before.runtimeMap().get(p);
                    PartitionRuntime now = view.runtimeMap().get(p);
                    return now.activeNode().equals(was.activeNode()) && now.epoch() > was.epoch()
                            && now.health() == PartitionHealth.DEGRADED;
                });
            });
            int segmentsPerPartition = before.layout().segmentCount() / before.layout().partitionCount();
            await().atMost(Duration.ofSeconds(30)).until(
                    () -> carriedOver(cluster) - carriedBefore >= (long) degrading.size() * segmentsPerPartition);

            ReplicaCopies copies = ReplicaDigests.awaitConverged(client, null, Duration.ofSeconds(30));
            for (int p : degrading) {
                ReplicaCopies.PartitionCopies partition = copies.partitions().get(p);
                String active = before.runtimeMap().get(p).activeNode();
                for (String owner : before.partitionMap().ownersOf(p)) {
                    if (!owner.equals(active) && !owner.equals(replicaLeaving)) {
                        assertThat(partition.byNode().get(owner)).as("partition %d on %s against its active %s", p,
                                owner, active).isEqualTo(partition.byNode().get(active));
                    }
                }
            }

            // The active of a carried-over partition goes too (not the leader, so the majority decides at once).
            int partition = degrading.stream().filter(p -> !before.runtimeMap().get(p).activeNode().equals(leader))
                    .findFirst().orElse(degrading.get(0));
            String activeLeaving = before.runtimeMap().get(partition).activeNode();
            cluster.stopNode(activeLeaving);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                PartitionRuntime now = cluster.leader().currentView().runtimeMap().get(partition);
                return !activeLeaving.equals(now.activeNode()) && now.health().isServing();
            });
            client.refreshMap().join();
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                String key = "key-" + i;
                String read = client.sync().get(key).map(v -> new String(v.value(), StandardCharsets.UTF_8)).orElse(null);
                if (!("value-" + i).equals(read)) {
                    wrong.add(key + "=" + read);
                }
            }
            assertThat(wrong).as("keys that do not read back what was written").isEmpty();
        }
    }

    /** Partitions the node is a replica of but not the active. */
    private static List<Integer> replicatedOnlyBy(ClusterView view, String nodeId) {
        List<Integer> partitions = new ArrayList<>();
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (view.partitionMap().ownersOf(p).contains(nodeId) && !nodeId.equals(view.runtimeMap().get(p).activeNode())) {
                partitions.add(p);
            }
        }
        return partitions;
    }

    private static long carriedOver(EmbeddedCluster cluster) {
        return cluster.nodes().stream().filter(ZarisNode::isRunning).mapToLong(ZarisNode::segmentsCarriedOver).sum();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
