package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.store.EvictionPolicy;
import io.zaris.store.MemoryOptions;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Memory budgets on a real in-process cluster (3 nodes, replication factor 2, SYNC acknowledgements) reached
 * by the real client over loopback TCP.
 */
@Tag("in-process-cluster")
class MemoryBudgetIntegrationTests {

    private static final int VALUE_BYTES = 1024;
    private static final long BUDGET = 1L << 20;
    private static final PartitionLayout LAYOUT = PartitionLayout.of(64, 8);

    @Test
    void writingFiveTimesTheBudgetKeepsEveryNodeServingWithinBudgetAndReplicasIdentical() {
        MemoryOptions memory = MemoryOptions.builder().maxBytes(BUDGET).policy(EvictionPolicy.ALLKEYS_LRU).build();
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).layout(LAYOUT).memory(memory).build().start();
             ZarisClient client = connect(cluster)) {
            long clusterBudget = 3 * BUDGET;
            int keys = (int) (5 * clusterBudget / VALUE_BYTES);
            long peak = 0;
            for (int first = 0; first < keys; first += 50) {
                List<CompletableFuture<Long>> batch = new ArrayList<>();
                for (int i = first; i < Math.min(keys, first + 50); i++) {
                    batch.add(client.put(key(i), value(i)));
                }
                batch.forEach(CompletableFuture::join); // every write is acknowledged: the nodes keep serving
                for (ZarisNode node : cluster.nodes()) {
                    peak = Math.max(peak, node.memoryStats().usedBytes());
                }
            }
            // Between two writes a node may take in a burst of replicated data before it evicts again.
            assertThat(peak).isLessThanOrEqualTo(BUDGET + BUDGET / 8);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                for (ZarisNode node : cluster.nodes()) {
                    assertThat(node.memoryStats().usedBytes()).as("bytes held by %s", node.nodeId()).isLessThanOrEqualTo(BUDGET);
                }
            });
            long evictions = cluster.nodes().stream().mapToLong(n -> n.memoryStats().evictions()).sum();
            assertThat(evictions).isGreaterThan(keys / 2);
            int recentFound = 0;
            for (int i = keys - 100; i < keys; i++) {
                recentFound += client.sync().get(key(i)).isPresent() ? 1 : 0;
            }
            assertThat(recentFound).as("most recent keys kept by LRU").isGreaterThanOrEqualTo(90);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertReplicasHoldWhatActivesHold(cluster));
        }
    }

    /**
     * Keys of one hash tag share a segment, so one partition may hold most of the data. With 64 partitions on 3
     * nodes each node holds about 43, so a partition's fair share is about 24 KiB of the 1 MiB budget; the node is
     * far from full, so nothing of the tag may be evicted.
     */
    @Test
    void aHashTaggedPartitionGrowsPastItsShareWhileItsNodeHasRoom() {
        MemoryOptions memory = MemoryOptions.builder().maxBytes(BUDGET).policy(EvictionPolicy.ALLKEYS_LRU).build();
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).layout(LAYOUT).memory(memory).build().start();
             ZarisClient client = connect(cluster)) {
            int keys = 300; // about 300 KiB with their overhead: 30 % of the budget, twelve times the share
            for (int i = 0; i < keys; i++) {
                client.sync().put(taggedKey(i), value(i));
            }
            ZarisNode owner = nodeOwning(cluster, taggedKey(0));
            assertThat(nodeOwning(cluster, taggedKey(keys - 1))).as("one hash tag, one owner").isSameAs(owner);
            for (ZarisNode node : cluster.nodes()) {
                // the maintenance runs every 100 ms; give it several runs to evict if it would
                await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                        .until(() -> node.memoryStats().evictions() == 0);
            }
            for (int i = 0; i < keys; i++) {
                assertThat(client.sync().get(taggedKey(i))).as(taggedKey(i)).isPresent();
            }
        }
    }

    @Test
    void noevictionRefusesWritesWithOutOfMemoryAtOnceAndLosesNothing() {
        MemoryOptions memory = MemoryOptions.builder().maxBytes(256 * 1024).policy(EvictionPolicy.NOEVICTION).build();
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).layout(LAYOUT).memory(memory).build().start();
             ZarisClient client = connect(cluster)) {
            Map<String, byte[]> stored = new LinkedHashMap<>();
            ZarisStatusException refusal = null;
            for (int i = 0; i < 10_000 && refusal == null; i++) {
                try {
                    client.sync().put(key(i), value(i));
                    stored.put(key(i), value(i));
                } catch (ZarisStatusException e) {
                    refusal = e;
                }
            }
            assertThat(refusal).as("a write refused for memory").isNotNull();
            assertThat(refusal.status()).isEqualTo(KvStatus.OUT_OF_MEMORY);
            assertThat(refusal.getMessage()).contains("memory budget").contains("noeviction");
            // Refused once, not retried: exactly one refusal was counted across the nodes.
            assertThat(cluster.nodes().stream().mapToLong(n -> n.memoryStats().outOfMemoryRefusals()).sum()).isEqualTo(1);
            assertThat(cluster.nodes().stream().mapToLong(n -> n.memoryStats().evictions()).sum()).isZero();
            for (Map.Entry<String, byte[]> entry : stored.entrySet()) {
                assertThat(client.sync().get(entry.getKey())).as(entry.getKey()).hasValueSatisfying(
                        value -> assertThat(value.value()).isEqualTo(entry.getValue()));
            }
            // Deletes still work and make room: the refused node takes writes again.
            String refusedKey = key(stored.size()); // every earlier key was stored: this one was refused
            ZarisNode full = nodeOwning(cluster, refusedKey);
            assertThatThrownBy(() -> client.sync().put(refusedKey, value(0))).isInstanceOf(ZarisStatusException.class);
            for (String key : new ArrayList<>(stored.keySet())) {
                if (nodeOwning(cluster, key) == full) {
                    assertThat(client.sync().delete(key)).isTrue();
                }
            }
            assertThat(client.sync().put(refusedKey, value(1))).isPositive();
        }
    }

    @Test
    void activeExpiryRemovesExpiredKeysFromActivesAndReplicasAlike() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).layout(LAYOUT).build().start();
             ZarisClient client = connect(cluster)) {
            List<CompletableFuture<Long>> writes = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                writes.add(client.put("ttl-" + i, value(i), Duration.ofMillis(300)));
                writes.add(client.put("keep-" + i, value(i)));
            }
            writes.forEach(CompletableFuture::join);
            // Nobody reads or writes the expired keys again: only the sweep can remove them, on actives and replicas.
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                for (ZarisNode node : cluster.nodes()) {
                    assertThat(node.storedEntries()).as("entries on %s", node.nodeId())
                            .isEqualTo(heldCopiesOfKeep(cluster, node));
                }
            });
            assertThat(cluster.nodes().stream().mapToLong(n -> n.memoryStats().expirations()).sum()).isEqualTo(500);
            assertReplicasHoldWhatActivesHold(cluster);
        }
    }

    @Test
    void readingAnExpiredKeyRemovesItOnTheActiveOwnerAndItsReplica() {
        // The sweep runs once an hour here: only the read can remove the key during the test.
        MemoryOptions noSweep = MemoryOptions.builder().maintenanceInterval(Duration.ofHours(1)).build();
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).layout(LAYOUT).memory(noSweep).build().start();
             ZarisClient client = connect(cluster)) {
            String key = "lazy";
            client.sync().put(key, value(1), Duration.ofMillis(300)); // SYNC: the replica holds it once this returns
            ZarisNode active = nodeOwning(cluster, key);
            ZarisNode replica = replicaOf(cluster, key);
            assertThat(active.memoryStats().usedBytes()).isPositive();
            assertThat(replica.memoryStats().usedBytes()).isEqualTo(active.memoryStats().usedBytes());

            await().atMost(Duration.ofSeconds(10)).until(() -> client.sync().get(key).isEmpty());

            // Removed under the segment lock before the read was answered.
            assertThat(active.storedEntries()).isZero();
            assertThat(active.memoryStats().usedBytes()).isZero();
            assertThat(active.memoryStats().expirations()).isEqualTo(1);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(replica.storedEntries()).isZero();
                assertThat(replica.memoryStats().usedBytes()).isZero();
            });
            assertReplicasHoldWhatActivesHold(cluster);
        }
    }

    /**
     * A client with more attempts than the default: a fresh cluster's replication link can still be opening
     * for a moment after start, and a SYNC write is then refused with the retryable UNAVAILABLE.
     */
    private static ZarisClient connect(EmbeddedCluster cluster) {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).environment(java.util.Map.of()).build());
    }

    /** How many {@code keep-*} keys {@code node} holds a copy of (as active owner or replica). */
    private static long heldCopiesOfKeep(EmbeddedCluster cluster, ZarisNode node) {
        ClusterView view = node.currentView();
        io.zaris.placement.SegmentMapper mapper = new io.zaris.placement.SegmentMapper(view.layout().segmentCount());
        long held = 0;
        for (int i = 0; i < 500; i++) {
            int partition = view.layout().partitionOf(mapper.segmentOf(("keep-" + i).getBytes(StandardCharsets.UTF_8)));
            held += view.partitionMap().ownersOf(partition).contains(node.nodeId()) ? 1 : 0;
        }
        return held;
    }

    /** For every segment, each replica holds exactly the keys its partition's active owner holds. */
    private static void assertReplicasHoldWhatActivesHold(EmbeddedCluster cluster) {
        ClusterView view = cluster.nodes().get(0).currentView();
        for (int partition = 0; partition < view.layout().partitionCount(); partition++) {
            ZarisNode active = cluster.node(view.runtimeMap().get(partition).activeNode());
            for (String owner : view.partitionMap().ownersOf(partition)) {
                if (owner.equals(active.nodeId())) {
                    continue;
                }
                ZarisNode replica = cluster.node(owner);
                for (int s = view.layout().firstSegmentOf(partition); s <= view.layout().lastSegmentOf(partition); s++) {
                    assertThat(texts(replica.segmentKeys(s))).as("segment %d on replica %s", s, owner)
                            .isEqualTo(texts(active.segmentKeys(s)));
                }
            }
        }
    }

    private static ZarisNode nodeOwning(EmbeddedCluster cluster, String key) {
        ClusterView view = cluster.nodes().get(0).currentView();
        int segment = new io.zaris.placement.SegmentMapper(view.layout().segmentCount())
                .segmentOf(key.getBytes(StandardCharsets.UTF_8));
        return cluster.node(view.runtimeOfSegment(segment).activeNode());
    }

    /** The owner of {@code key}'s partition that is not its active owner (replication factor 2). */
    private static ZarisNode replicaOf(EmbeddedCluster cluster, String key) {
        ClusterView view = cluster.nodes().get(0).currentView();
        int segment = new io.zaris.placement.SegmentMapper(view.layout().segmentCount())
                .segmentOf(key.getBytes(StandardCharsets.UTF_8));
        int partition = view.layout().partitionOf(segment);
        String active = view.runtimeMap().get(partition).activeNode();
        return cluster.node(view.partitionMap().ownersOf(partition).stream().filter(owner -> !owner.equals(active))
                .findFirst().orElseThrow());
    }

    private static Set<String> texts(List<byte[]> keys) {
        Set<String> texts = new HashSet<>();
        keys.forEach(k -> texts.add(new String(k, StandardCharsets.UTF_8)));
        return texts;
    }

    private static String key(int i) {
        return "mem-" + i;
    }

    private static String taggedKey(int i) {
        return "{tenant-7}:item-" + i;
    }

    private static byte[] value(int i) {
        byte[] value = new byte[VALUE_BYTES];
        Arrays.fill(value, (byte) i);
        return value;
    }
}
