package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ListEnd;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.model.HashOp;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.VersionedValue;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Nodes decode PUT and REPLICATE values into arrays they reuse ({@link ReusedValueArrays}): many pipelined writes
 * of distinct values of the same length, so that many frames reuse one array within each socket read, must leave
 * every value intact on the active owner and on its replica. Two real nodes, replication factor 2.
 */
@Tag("in-process-cluster")
class ReusedValueArraysIntegrationTests {

    private static final int KEYS = 400;
    private static final int VALUE_BYTES = 4096;

    @Test
    void pipelinedValuesOfOneLengthArriveIntactOnBothCopies() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(2).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            awaitEveryPartitionReplicated(cluster, client);
            List<CompletableFuture<Long>> writes = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                // SYNC: acknowledged only once the replica applied it, so both copies can be checked at once.
                writes.add(client.put(key(i), valueOf(i), null, AckMode.SYNC));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();

            SegmentMapper segments = new SegmentMapper(client.clusterView().layout().segmentCount());
            for (ZarisNode node : cluster.nodes()) {
                for (int i = 0; i < KEYS; i++) {
                    VersionedValue stored = node.store().get(segments.segmentOf(key(i)), key(i).getBytes(StandardCharsets.UTF_8));
                    assertThat(stored).as("%s on %s", key(i), node.nodeId()).isNotNull();
                    assertThat(stored.value()).as("%s on %s", key(i), node.nodeId()).isEqualTo(valueOf(i));
                }
            }
            for (int i = 0; i < KEYS; i += 37) {
                assertThat(client.get(key(i)).join().orElseThrow().value()).isEqualTo(valueOf(i));
            }
        }
    }

    /**
     * A hash keeps its field values and a list its elements as the arrays they arrived in, so a replica must not apply
     * a collection change from an array its next frame reuses: each of many pipelined hash fields and list elements of
     * one length must still read back as written on both copies.
     */
    @Test
    void pipelinedHashFieldsAndListElementsOfOneLengthArriveIntactOnBothCopies() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(2)
                .replication(ReplicationSettings.defaults().withAckMode(AckMode.SYNC)).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            awaitEveryPartitionReplicated(cluster, client);
            List<CompletableFuture<Long>> writes = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                writes.add(client.hashSet("{same-length}hash", Map.of(key(i), valueOf(i))));
                writes.add(client.listPush("{same-length}list", ListEnd.TAIL, valueOf(i)));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();

            SegmentMapper segments = new SegmentMapper(client.clusterView().layout().segmentCount());
            byte[] hash = "{same-length}hash".getBytes(StandardCharsets.UTF_8);
            byte[] list = "{same-length}list".getBytes(StandardCharsets.UTF_8);
            int segment = segments.segmentOf("{same-length}hash");
            for (ZarisNode node : cluster.nodes()) {
                List<byte[]> fields = new ArrayList<>();
                for (int i = 0; i < KEYS; i++) {
                    fields.add(key(i).getBytes(StandardCharsets.UTF_8));
                }
                List<byte[]> values = node.store().hash(segment, hash, HashOp.HMGET, fields, 0).items();
                List<byte[]> elements = node.store().hash(segment, list, HashOp.LRANGE,
                        List.of("0".getBytes(StandardCharsets.US_ASCII), "-1".getBytes(StandardCharsets.US_ASCII)), 0).items();
                assertThat(elements).as("list on %s", node.nodeId()).hasSize(KEYS);
                for (int i = 0; i < KEYS; i++) {
                    assertThat(values.get(i)).as("field %d on %s", i, node.nodeId()).isEqualTo(valueOf(i));
                    assertThat(elements.get(i)).as("element %d on %s", i, node.nodeId()).isEqualTo(valueOf(i));
                }
            }
        }
    }

    /** A SYNC write waits for a confirmed replica: until then a fresh cluster may refuse it. */
    private static void awaitEveryPartitionReplicated(EmbeddedCluster cluster, ZarisClient client) {
        int partitions = client.clusterView().layout().partitionCount();
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.nodes().stream().allMatch(node ->
                IntStream.range(0, partitions).allMatch(p -> {
                    PartitionRuntime runtime = node.currentView().runtimeMap().get(p);
                    return runtime.health() == PartitionHealth.HEALTHY
                            && (!runtime.activeNode().equals(node.nodeId()) || node.replicator().confirmedReplicas(p) == 1);
                })));
    }

    private static String key(int i) {
        return "same-length-" + i;
    }

    /** Filled with its index and patterned on top, so a value overwritten by another one's differs from it. */
    private static byte[] valueOf(int i) {
        byte[] value = new byte[VALUE_BYTES];
        Arrays.fill(value, (byte) i);
        for (int p = 0; p < value.length; p += 97) {
            value[p] = (byte) (p * 31 + i * 7);
        }
        return value;
    }
}
