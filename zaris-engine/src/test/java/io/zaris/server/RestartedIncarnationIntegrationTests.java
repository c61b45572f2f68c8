package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The restart race made deterministic: a node's data path dies while its membership seat lives on (so
 * the cluster neither sees it leave nor fails its partitions over), and a new process with the same node
 * id joins. The view names the new process active for partitions whose data it does not have. It must
 * not answer from its empty store nor wipe the replicas; it disowns them, the leader fails them over to
 * the replica, and every key written before reads back.
 */
@Tag("in-process-cluster")
class RestartedIncarnationIntegrationTests {

    private static final int KEYS = 300;

    @Test
    void aNewIncarnationDisownsTheActiveRolesOfTheOldOne() throws Exception {
        String cluster = "zaris-incarnation-" + UUID.randomUUID();
        ClusterSettings settings = new ClusterSettings(3, PartitionLayout.of(64, 8), 2);
        ReplicationSettings replication = ReplicationSettings.defaults().withHealCooldown(Duration.ofSeconds(1))
                .withEvictionDelay(Duration.ofMinutes(10));
        List<ZarisNode> nodes = new ArrayList<>();
        try {
            for (String id : List.of("n1", "n2", "n3")) {
                nodes.add(new ZarisNode(config(id, settings, cluster, replication)).start());
            }
            for (ZarisNode node : nodes) {
                node.awaitReady(Duration.ofSeconds(30));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> nodes.stream().allMatch(ZarisNode::isReplicationReady));
            List<NodeAddress> seeds = nodes.stream().map(ZarisNode::dataAddress).toList();
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .environment(Map.of()).build())) {
                for (int i = 0; i < KEYS; i++) {
                    client.sync().put("key-" + i, utf8("value-" + i));
                }
                ClusterView before = client.clusterView();
                ZarisNode leader = nodes.stream().filter(ZarisNode::isLeader).findFirst().orElseThrow();
                ZarisNode victim = nodes.stream().filter(n -> n != leader).findFirst().orElseThrow();
                List<Integer> victimPartitions = activePartitions(before, victim.nodeId());
                assertThat(victimPartitions).isNotEmpty();

                victim.haltDataPath();
                ZarisNode reincarnated = new ZarisNode(config(victim.nodeId(), settings, cluster, replication)).start();
                nodes.add(reincarnated);

                // the leader moves every partition the old process served to an owner that has its data
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    ClusterView view = leader.currentView();
                    return victimPartitions.stream().allMatch(p -> {
                        PartitionRuntime runtime = view.runtimeMap().get(p);
                        return runtime.epoch() > before.runtimeMap().get(p).epoch()
                                && !victim.nodeId().equals(runtime.activeNode()) && runtime.health().isServing();
                    });
                });
                client.refreshMap().get(10, TimeUnit.SECONDS);
                SegmentMapper mapper = new SegmentMapper(before.layout().segmentCount());
                int victimKeys = 0;
                for (int i = 0; i < KEYS; i++) {
                    String key = "key-" + i;
                    if (victimPartitions.contains(before.layout().partitionOf(mapper.segmentOf(key)))) {
                        victimKeys++;
                    }
                    int partition = before.layout().partitionOf(mapper.segmentOf(key));
                    assertThat(client.sync().get(key)).as(() -> key + " in partition " + partition + whoServes(partition,
                            before, client.clusterView(), nodes)).hasValueSatisfying(
                            v -> assertThat(new String(v.value(), StandardCharsets.UTF_8)).isEqualTo("value-" + key.substring(4)));
                }
                assertThat(victimKeys).isPositive();
            }
        } finally {
            for (ZarisNode node : nodes) {
                node.close();
            }
        }
    }

    /** What each party believes about a partition, so a failed read explains itself. */
    private static String whoServes(int partition, ClusterView before, ClusterView clientView, List<ZarisNode> nodes) {
        StringBuilder text = new StringBuilder("; before: ").append(before.runtimeMap().get(partition))
                .append(" owners ").append(before.partitionMap().ownersOf(partition))
                .append("; client: ").append(clientView.runtimeMap().get(partition));
        for (int i = 0; i < nodes.size(); i++) {
            ClusterView view = nodes.get(i).currentView();
            text.append("; node #").append(i).append(' ').append(nodes.get(i).nodeId()).append(": ")
                    .append(view == null ? "no view" : view.runtimeMap().get(partition) + " owners "
                            + view.partitionMap().ownersOf(partition));
        }
        return text.toString();
    }

    private static List<Integer> activePartitions(ClusterView view, String nodeId) {
        List<Integer> partitions = new ArrayList<>();
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (nodeId.equals(view.runtimeMap().get(p).activeNode())) {
                partitions.add(p);
            }
        }
        return partitions;
    }

    private static NodeConfig config(String id, ClusterSettings settings, String cluster, ReplicationSettings replication) {
        return NodeConfig.builder(id).host("127.0.0.1").port(0).clusterSettings(settings)
                .membership(new MembershipConfig.InJvm(cluster)).replication(replication).build();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
