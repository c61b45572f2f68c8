package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Changes of ASYNC writes wait for a shared flush to their replicas (up to {@code asyncFlushDelay}); a SYNC write
 * flushes at once, and with it whatever waited before it. Two real nodes, replication factor 2.
 */
@Tag("in-process-cluster")
class AsyncFlushDelayIntegrationTests {

    /**
     * The delay (10 s) is longer than the client's attempt timeout (3 s, no retries): had the SYNC write's change
     * waited for the deferred flush, its single attempt would have timed out.
     */
    @Test
    void aSyncWriteFlushesAtOnceTakingTheAsyncChangesQueuedBeforeIt() {
        ReplicationSettings settings = ReplicationSettings.defaults().withAckTimeout(Duration.ofSeconds(20))
                .withAsyncFlushDelay(ReplicationSettings.MAX_ASYNC_FLUSH_DELAY);
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(2).replication(settings).build().start();
             ZarisClient client = connect(cluster)) {
            String waiting = "queued-async";
            ZarisNode active = activeNodeOf(cluster, client, waiting);
            ZarisNode replica = replicaOf(cluster, client, waiting);
            int segment = segmentOf(client, waiting);
            // Until every partition is healthy and its snapshots confirmed, snapshot sends flush the link anyway.
            int partitions = client.clusterView().layout().partitionCount();
            await().atMost(Duration.ofSeconds(60)).until(() -> IntStream.range(0, partitions).allMatch(p -> {
                PartitionRuntime runtime = active.currentView().runtimeMap().get(p);
                return runtime.health() == PartitionHealth.HEALTHY
                        && (!runtime.activeNode().equals(active.nodeId()) || active.replicator().confirmedReplicas(p) == 1);
            }));

            client.put(waiting, utf8("async"), null, AckMode.ASYNC).join();
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                    .until(() -> replica.store().get(segment, utf8(waiting)) == null);

            long version = client.put(keyWithTheSameActive(client, waiting), utf8("sync"), null, AckMode.SYNC).join();

            assertThat(version).isPositive();
            // Same connection, frames in order: the replica applied the ASYNC change before the SYNC one's verdict.
            assertThat(replica.store().get(segment, utf8(waiting))).isNotNull();
        }
    }

    /**
     * Three nodes, replication factor 2: a SYNC write flushes only the link to its own partition's replica. An
     * ASYNC change queued for another node stays queued (the delay is 10 s), so those links keep batching.
     */
    @Test
    void aSyncWriteLeavesTheLinksToOtherReplicasBatching() {
        ReplicationSettings settings = ReplicationSettings.defaults().withAckTimeout(Duration.ofSeconds(20))
                .withAsyncFlushDelay(ReplicationSettings.MAX_ASYNC_FLUSH_DELAY);
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).replication(settings)
                .build().start();
             ZarisClient client = connect(cluster)) {
            String waiting = "queued-for-another-replica";
            ZarisNode active = activeNodeOf(cluster, client, waiting);
            String otherReplica = replicaIdOf(client, waiting);
            String sync = keyWith(client, active.nodeId(), candidate -> !replicaIdOf(client, candidate).equals(otherReplica));
            int partitions = client.clusterView().layout().partitionCount();
            await().atMost(Duration.ofSeconds(60)).until(() -> IntStream.range(0, partitions).allMatch(p -> {
                PartitionRuntime runtime = active.currentView().runtimeMap().get(p);
                return runtime.health() == PartitionHealth.HEALTHY
                        && (!runtime.activeNode().equals(active.nodeId()) || active.replicator().confirmedReplicas(p) == 1);
            }));
            ZarisNode replica = cluster.nodes().stream().filter(node -> node.nodeId().equals(otherReplica)).findFirst()
                    .orElseThrow();
            int segment = segmentOf(client, waiting);

            client.put(waiting, utf8("async"), null, AckMode.ASYNC).join();
            assertThat(client.put(sync, utf8("sync"), null, AckMode.SYNC).join()).isPositive();

            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                    .until(() -> replica.store().get(segment, utf8(waiting)) == null);
        }
    }

    /**
     * A lone change is not stranded waiting for a later write to flush it: its delayed flush fires by itself. The
     * 10 s bound is generous for a loaded machine; it does not (and in a test must not) measure the 200 ms delay.
     */
    @Test
    void anAsyncChangeReachesItsReplicaByItsOwnDelayedFlushWithNothingElseWritten() {
        ReplicationSettings settings = ReplicationSettings.defaults().withAsyncFlushDelay(Duration.ofMillis(200));
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(2).replication(settings).build().start();
             ZarisClient client = connect(cluster)) {
            String key = "lonely-async";
            client.put(key, utf8("async"), null, AckMode.ASYNC).join();
            ZarisNode replica = replicaOf(cluster, client, key);
            int segment = segmentOf(client, key);

            await().atMost(Duration.ofSeconds(10)).until(() -> replica.store().get(segment, utf8(key)) != null);
        }
    }

    /** One attempt of at most 3 s: a SYNC write that waited for the deferred flush fails the test. */
    private static ZarisClient connect(EmbeddedCluster cluster) {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).environment(Map.of())
                .disableRetries(true).attemptTimeout(Duration.ofSeconds(3)).build());
    }

    /** A key whose partition has the same active owner as {@code key}'s: its SYNC write flushes that node's links. */
    private static String keyWithTheSameActive(ZarisClient client, String key) {
        for (int i = 0; ; i++) {
            String candidate = "flushing-sync-" + i;
            if (activeOf(client, candidate).equals(activeOf(client, key))) {
                return candidate;
            }
        }
    }

    /** A key whose partition's active owner is {@code activeNode} and which {@code also} accepts. */
    private static String keyWith(ZarisClient client, String activeNode, java.util.function.Predicate<String> also) {
        for (int i = 0; ; i++) {
            String candidate = "flushing-sync-" + i;
            if (activeOf(client, candidate).equals(activeNode) && also.test(candidate)) {
                return candidate;
            }
        }
    }

    /** The one replica (replication factor 2) of the key's partition. */
    private static String replicaIdOf(ZarisClient client, String key) {
        ClusterView view = client.clusterView();
        int partition = view.layout().partitionOf(segmentOf(client, key));
        String active = view.runtimeMap().get(partition).activeNode();
        return view.partitionMap().ownersOf(partition).stream().filter(owner -> !owner.equals(active)).findFirst()
                .orElseThrow();
    }

    private static String activeOf(ZarisClient client, String key) {
        ClusterView view = client.clusterView();
        return view.runtimeMap().get(view.layout().partitionOf(segmentOf(client, key))).activeNode();
    }

    private static int segmentOf(ZarisClient client, String key) {
        return new SegmentMapper(client.clusterView().layout().segmentCount()).segmentOf(key);
    }

    private static ZarisNode activeNodeOf(EmbeddedCluster cluster, ZarisClient client, String key) {
        String active = activeOf(client, key);
        return cluster.nodes().stream().filter(node -> node.nodeId().equals(active)).findFirst().orElseThrow();
    }

    /** The node holding the key's partition as a replica (not its active owner). */
    private static ZarisNode replicaOf(EmbeddedCluster cluster, ZarisClient client, String key) {
        String active = activeOf(client, key);
        return cluster.nodes().stream().filter(node -> !node.nodeId().equals(active)).findFirst().orElseThrow();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
