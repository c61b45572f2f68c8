package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.VersionedValue;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.TakeoverRevisions;
import io.zaris.replication.ReplicationSettings;
import io.zaris.time.TimeSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node publishes what it inherited when it takes a partition over; a client must know it before it reads
 * from the new owner, or it could read a value older than an acknowledged ASYNC write it was never told was
 * lost. A connection opened after the takeover learns it at login, ahead of any answer.
 */
@Tag("in-process-cluster")
class TakeoverPushIntegrationTests {

    @Test
    void aConnectionOpenedAfterATakeoverLearnsItBeforeItsFirstAnswer() throws Exception {
        ReplicationSettings fast = ReplicationSettings.defaults().withEvictionDelay(Duration.ofMinutes(5))
                .withHealCooldown(Duration.ofMinutes(5));
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).replication(fast).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .directReadConnectionsPerNode(0).environment(Map.of()).build())) {
            String key = "taken-over";
            client.sync().put(key, "before the takeover".getBytes(StandardCharsets.UTF_8));
            int partition = ClusterScenario.partitionOf(client, key);
            String previousActive = client.clusterView().runtimeMap().get(partition).activeNode();

            cluster.stopNode(previousActive);
            // Served again by the surviving replica: its catch-up is done and its takeover published.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                client.refreshMap().join();
                PartitionRuntime runtime = client.clusterView().runtimeMap().get(partition);
                return !previousActive.equals(runtime.activeNode()) && client.sync().get(key).isPresent();
            });
            ClusterView view = client.clusterView();
            PartitionRuntime runtime = view.runtimeMap().get(partition);
            NodeAddress newActive = view.addresses().get(runtime.activeNode());

            List<TakeoverRevisions> heard = new CopyOnWriteArrayList<>();
            try (DirectRequests reads = new DirectRequests(1, "takeover-test", null, Duration.ofSeconds(5),
                    ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, heard::add, TimeSource.system())) {
                byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
                Optional<VersionedValue> answer = reads.get(newActive, keyBytes, runtime.epoch(), 5_000, null);
                // The listener runs on this thread while the answer is read: whatever it heard came first.
                assertThat(answer).as("the new owner answers the direct read").isNotNull().isPresent();
                TakeoverRevisions takeover = heard.stream().filter(t -> t.partition() == partition).findFirst()
                        .orElseThrow(() -> new AssertionError("no takeover of partition " + partition + " in " + heard));
                assertThat(takeover.epoch()).isPositive().isLessThanOrEqualTo(runtime.epoch());
                int segment = new SegmentMapper(view.layout().segmentCount()).segmentOf(keyBytes);
                assertThat(takeover.inheritedRevision(segment)).as("the key's SYNC write reached the replica before the stop")
                        .isPositive();
            }
        }
    }
}
