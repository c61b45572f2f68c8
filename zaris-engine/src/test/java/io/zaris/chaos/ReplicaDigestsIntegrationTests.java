package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.SegmentMapper;
import io.zaris.model.Change;
import io.zaris.model.AckMode;
import io.zaris.server.NodeInternals;
import io.zaris.store.NodeStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The replica comparison against real nodes: digests fetched over the data port ({@code SEGMENT_DIGESTS}) from
 * every owner of every partition agree once replication settled, and a change slipped into one replica's copy
 * alone is reported as a diverged replica naming its partition, segment and node.
 */
@Tag("in-process-cluster")
class ReplicaDigestsIntegrationTests {

    @Test
    void settledCopiesAgreeAndAReplicaChangedBehindItsActivesBackIsNamed() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            for (int i = 0; i < 300; i++) {
                client.put("key-" + i, utf8("value-" + i), null).join();
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> client.refreshMap().join().runtimeMap().partitions()
                    .stream().allMatch(p -> p.health() == PartitionHealth.HEALTHY));

            ReplicaCopies settled = ReplicaDigests.awaitConverged(client, null, Duration.ofSeconds(30));
            Verdict clean = Checker.check(new HistoryBuilder(AckMode.SYNC).build(), settled);
            ClusterView view = client.clusterView();
            assertThat(clean.findings()).isEmpty();
            assertThat(clean.segmentCopiesCompared()).isEqualTo(view.layout().segmentCount());
            assertThat(settled.partitions()).allSatisfy(partition -> assertThat(partition.byNode()).hasSize(2));
            assertThat(settled.partitions().stream().flatMap(p -> p.byNode().values().stream()).flatMap(List::stream)
                    .mapToLong(digest -> digest.keys()).sum()).as("keys over both copies").isEqualTo(600);

            String key = "key-7";
            int segment = new SegmentMapper(view.layout().segmentCount()).segmentOf(key);
            int partition = view.layout().partitionOf(segment);
            String replica = view.partitionMap().ownersOf(partition).stream()
                    .filter(owner -> !owner.equals(view.runtimeMap().get(partition).activeNode())).findFirst().orElseThrow();
            NodeStore replicaStore = NodeInternals.store(cluster.node(replica));
            // As a replicated change would arrive, but one its active never made.
            replicaStore.applyReplicated(segment, List.of(new Change(replicaStore.segmentRevision(segment) + 1,
                    view.runtimeMap().get(partition).epoch(), utf8(key), utf8("only on the replica"), 0)));

            Verdict diverged = Checker.check(new HistoryBuilder(AckMode.SYNC).build(),
                    ReplicaDigests.fetch(client.refreshMap().join(), null));
            assertThat(diverged.findings()).singleElement().satisfies(finding -> {
                assertThat(finding.kind()).isEqualTo(Finding.Kind.DIVERGED_REPLICA);
                assertThat(finding.key()).isEqualTo("partition " + partition + " segment " + segment);
                assertThat(finding.detail()).contains(replica + " holds");
            });
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
