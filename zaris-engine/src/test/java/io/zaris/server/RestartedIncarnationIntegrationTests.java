package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
        ReplicationSettings replication = ReplicationSettings.defaults().withHealCooldown(Duration.ofSeconds(1))
                .withEvictionDelay(Duration.ofMinutes(10));
        try (InJvmCluster cluster = InJvmCluster.startThree("zaris-incarnation", 2, replication)) {
            List<ZarisNode> nodes = cluster.nodes();
            ZarisClient client = cluster.seededClient(KEYS);
            ClusterView before = client.clusterView();
            ZarisNode leader = cluster.leader();
            ZarisNode victim = nodes.stream().filter(n -> n != leader).findFirst().orElseThrow();
            List<Integer> victimPartitions = activePartitions(before, victim.nodeId());
            assertThat(victimPartitions).isNotEmpty();

            victim.haltDataPath();
            cluster.startNode(victim.nodeId());

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
}
