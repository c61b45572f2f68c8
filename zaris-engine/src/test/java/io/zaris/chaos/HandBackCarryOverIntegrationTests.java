package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three nodes, two copies. A node that is no leader stops and comes back empty; the node that served its partitions
 * meanwhile syncs it, and the leader hands the partitions back to it. Its takeover pull leaves it with a copy equal to
 * the previous active's, so it carries that copy over to the new epoch instead of sending it a snapshot: not one
 * snapshot byte leaves it, and the copies equal each other after. A writer records every acknowledged SYNC write
 * through the hand-back and through a stop of the new active right after it; each reads back at the end.
 */
@Tag("in-process-cluster")
class HandBackCarryOverIntegrationTests {

    private static final int KEYS = 600;

    @Test
    void aPartitionHandedBackToItsPrimaryKeepsThePreviousActivesCopyAndLosesNoAcknowledgedWrite() throws Exception {
        ReplicationSettings replication = ReplicationSettings.defaults().withEvictionDelay(Duration.ofMinutes(5))
                .withHealCooldown(Duration.ofSeconds(1));
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).replication(replication).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            for (int i = 0; i < KEYS; i++) {
                client.sync().put("key-" + i, utf8("value-" + i));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> allHealthyOnPrimaries(cluster.leader().currentView()));
            ClusterView before = cluster.leader().currentView();
            String leader = cluster.leader().nodeId();
            String primary = cluster.nodes().stream().map(ZarisNode::nodeId).filter(id -> !id.equals(leader))
                    .findFirst().orElseThrow();
            List<Integer> handedBack = primaryOf(before, primary);
            assertThat(handedBack).isNotEmpty();
            int segmentsPerPartition = before.layout().segmentCount() / before.layout().partitionCount();

            cluster.stopNode(primary);
            await().atMost(Duration.ofSeconds(60)).until(() -> servesNothing(cluster.leader().currentView(), primary));

            Map<String, String> acknowledged = new ConcurrentHashMap<>();
            try (Writer writer = new Writer(client, "during-hand-back-", acknowledged)) {
                ZarisNode restarted = cluster.restartNode(primary);
                await().atMost(Duration.ofSeconds(120)).until(() -> allHealthyOnPrimaries(cluster.leader().currentView()));
                writer.awaitMoreWrites(200);
                assertThat(restarted.segmentsCarriedOver())
                        .as("segments the restarted primary carried over to the previous active at the hand-back")
                        .isGreaterThanOrEqualTo((long) handedBack.size() * segmentsPerPartition);
                assertThat(restarted.snapshotBytesSent()).as("snapshot bytes the restarted primary sent").isZero();
            }

            ReplicaCopies copies = ReplicaDigests.awaitConverged(client, null, Duration.ofSeconds(30));
            for (int p : handedBack) {
                ReplicaCopies.PartitionCopies partition = copies.partitions().get(p);
                assertThat(partition.active()).isEqualTo(primary);
                for (String owner : partition.owners()) {
                    assertThat(partition.byNode().get(owner)).as("partition %d on %s against its active %s", p, owner,
                            primary).isEqualTo(partition.byNode().get(primary));
                }
            }

            // The new active goes right after the hand-back, while writes go on: the previous active serves again.
            try (Writer writer = new Writer(client, "during-stop-", acknowledged)) {
                writer.awaitMoreWrites(200);
                cluster.stopNode(primary);
                await().atMost(Duration.ofSeconds(60)).until(() -> servesNothing(cluster.leader().currentView(), primary));
                writer.awaitMoreWrites(200);
            }
            client.refreshMap().join();
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                expect(client, "key-" + i, "value-" + i, wrong);
            }
            acknowledged.forEach((key, value) -> expect(client, key, value, wrong));
            assertThat(acknowledged).hasSizeGreaterThan(600);
            assertThat(wrong).as("acknowledged writes that do not read back").isEmpty();
        }
    }

    /**
     * Puts new keys one after another on its own thread until closed, recording each acknowledged one; a put that
     * fails is not recorded (it may or may not have been applied).
     */
    private static final class Writer implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Map<String, String> acknowledged;
        private final Thread thread;

        Writer(ZarisClient client, String prefix, Map<String, String> acknowledged) {
            this.acknowledged = acknowledged;
            this.thread = new Thread(() -> {
                for (int i = 0; running.get(); i++) {
                    String key = prefix + i;
                    String value = "value-" + i;
                    try {
                        client.sync().put(key, utf8(value));
                        acknowledged.put(key, value);
                    } catch (RuntimeException notAcknowledged) {
                        // neither counted nor checked
                    }
                }
            }, "hand-back-writer");
            thread.start();
        }

        void awaitMoreWrites(int count) {
            int target = acknowledged.size() + count;
            await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= target);
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(Duration.ofSeconds(120).toMillis());
            assertThat(thread.isAlive()).as("writer stopped").isFalse();
        }
    }

    private static void expect(ZarisClient client, String key, String value, List<String> wrong) {
        String read = client.sync().get(key).map(v -> new String(v.value(), StandardCharsets.UTF_8)).orElse(null);
        if (!value.equals(read)) {
            wrong.add(key + "=" + read);
        }
    }

    private static List<Integer> primaryOf(ClusterView view, String nodeId) {
        List<Integer> partitions = new ArrayList<>();
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (view.partitionMap().primaryOf(p).equals(nodeId)) {
                partitions.add(p);
            }
        }
        return partitions;
    }

    private static boolean servesNothing(ClusterView view, String nodeId) {
        return view.runtimeMap().partitions().stream().noneMatch(p -> nodeId.equals(p.activeNode()))
                && view.runtimeMap().partitions().stream().allMatch(p -> p.health().isServing());
    }

    private static boolean allHealthyOnPrimaries(ClusterView view) {
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (view.runtimeMap().get(p).health() != PartitionHealth.HEALTHY
                    || !view.partitionMap().primaryOf(p).equals(view.runtimeMap().get(p).activeNode())) {
                return false;
            }
        }
        return true;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
