package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.server.ZarisNode;
import io.zaris.transport.NodeConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** An owner whose epoch was superseded cannot get a change accepted by any replica. */
@Tag("in-process-cluster")
class FencingIntegrationTests {

    @Test
    void aStaleOwnerIsFencedByTheReplicaAndCannotOverwriteAcknowledgedData() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(3)
                .layout(PartitionLayout.of(16, 4)).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            String key = "fenced-key";
            client.sync().put(key, "acknowledged".getBytes(StandardCharsets.UTF_8));
            ClusterView view = client.clusterView();
            int segment = new SegmentMapper(view.layout().segmentCount()).segmentOf(key);
            int partition = view.layout().partitionOf(segment);
            String oldActive = view.runtimeMap().get(partition).activeNode();
            String newActive = view.partitionMap().ownersOf(partition).stream().filter(n -> !n.equals(oldActive))
                    .findFirst().orElseThrow();
            long oldEpoch = view.runtimeMap().get(partition).epoch();
            long newEpoch = cluster.leader().handOver(partition, newActive).get(10, TimeUnit.SECONDS);
            assertThat(newEpoch).isGreaterThan(oldEpoch);

            // Play the old owner: ship a change under the superseded epoch to every other owner.
            long revision = 1_000_000;
            for (String owner : view.partitionMap().ownersOf(partition)) {
                if (owner.equals(oldActive)) {
                    continue;
                }
                ZarisNode target = cluster.node(owner);
                awaitEpoch(target, partition, newEpoch);
                try (NodeConnection zombie = NodeConnection.open(target.dataAddress(), "zombie", Duration.ofSeconds(2),
                        Duration.ofSeconds(2), 100, ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, e -> { }, lost -> { }).get()) {
                    Change overwrite = new Change(revision, oldEpoch, key.getBytes(StandardCharsets.UTF_8),
                            "zombie".getBytes(StandardCharsets.UTF_8), 0);
                    KvStatus answer = zombie.send(id -> new Request.Replicate(id, partition, oldEpoch, segment, List.of(overwrite)),
                            (status, body) -> status, oldEpoch, 0, System.nanoTime() + 5_000_000_000L).get(5, TimeUnit.SECONDS);
                    assertThat(answer).as("answer of " + owner).isEqualTo(KvStatus.FENCED);

                    // In a batch each group gets its own verdict: the stale one is fenced, a group naming a
                    // segment the layout does not have is refused, and neither stops the other.
                    Request.Replicate stale = new Request.Replicate(0, partition, oldEpoch, segment, List.of(overwrite));
                    Request.Replicate nowhere = new Request.Replicate(0, 99, newEpoch, 999, List.of(overwrite));
                    List<KvStatus> verdicts = zombie.send(id -> new Request.ReplicateBatch(id, List.of(stale, nowhere)),
                            FencingIntegrationTests::groupStatuses, oldEpoch, 0, System.nanoTime() + 5_000_000_000L)
                            .get(5, TimeUnit.SECONDS);
                    assertThat(verdicts).as("verdicts of " + owner).containsExactly(KvStatus.FENCED, KvStatus.BAD_REQUEST);
                }
            }
            assertThat(new String(client.sync().get(key).orElseThrow().value(), StandardCharsets.UTF_8))
                    .isEqualTo("acknowledged");
        }
    }

    /** The statuses of a REPLICATE_BATCH answer's groups, in order. */
    private static List<KvStatus> groupStatuses(KvStatus status, ByteBuf body) {
        assertThat(status).isEqualTo(KvStatus.OK);
        List<KvStatus> statuses = new ArrayList<>();
        for (int groups = body.readInt(); groups > 0; groups--) {
            statuses.add(KvStatus.fromCode(body.readUnsignedByte()));
            body.readLong();
        }
        return statuses;
    }

    private static void awaitEpoch(ZarisNode node, int partition, long epoch) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> node.currentView().runtimeMap().get(partition).epoch() >= epoch);
    }
}
