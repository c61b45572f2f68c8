package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Stop the active owner of some slots while Lettuce writes (SYNC acknowledgement, replication factor 3):
 * with adaptive topology refresh Lettuce finds the promoted owners, writes to those slots resume, and every
 * write Lettuce saw acknowledged reads back.
 */
@Tag("in-process-cluster")
class RespFailoverIntegrationTests {

    private static final ReplicationSettings FAST = ReplicationSettings.defaults()
            .withEvictionDelay(Duration.ofSeconds(2))
            .withHealCooldown(Duration.ofSeconds(1));

    @Test
    void lettuceFollowsAFailoverAndEveryAcknowledgedWriteReadsBack() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(3)
                .layout(PartitionLayout.of(64, 8)).replication(FAST).resp(true).build().start()) {
            List<RedisURI> seeds = new ArrayList<>();
            for (NodeAddress address : cluster.respSeeds()) {
                seeds.add(RedisURI.builder().withHost(address.host()).withPort(address.port())
                        .withTimeout(Duration.ofSeconds(3)).build());
            }
            RedisClusterClient client = RedisClusterClient.create(seeds);
            client.setOptions(ClusterClientOptions.builder()
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enableAllAdaptiveRefreshTriggers()
                            .adaptiveRefreshTriggersTimeout(Duration.ofMillis(500))
                            .refreshTriggersReconnectAttempts(2)
                            .build())
                    .build());
            try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
                String victim = cluster.nodes().stream().filter(n -> !n.isLeader()).findFirst().orElseThrow().nodeId();
                ClusterView before = cluster.leader().currentView();
                SegmentMapper mapper = new SegmentMapper(before.layout().segmentCount());
                Map<String, String> acknowledged = new ConcurrentHashMap<>();
                AtomicBoolean running = new AtomicBoolean(true);
                AtomicBoolean stopped = new AtomicBoolean();
                AtomicLong victimKeysAfterStop = new AtomicLong();
                Thread writer = new Thread(() -> {
                    long sequence = 0;
                    while (running.get()) {
                        String key = "key-" + (sequence % 300);
                        String value = "value-" + sequence++;
                        try {
                            connection.sync().set(key, value);
                            acknowledged.put(key, value);
                            if (stopped.get() && victim.equals(before.runtimeOfSegment(mapper.segmentOf(key)).activeNode())) {
                                victimKeysAfterStop.incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            // not acknowledged: the key holds its last acknowledged value or this one
                        }
                    }
                }, "lettuce-writer");
                writer.start();
                Thread.sleep(500);
                cluster.stopNode(victim);
                stopped.set(true);
                await().atMost(Duration.ofSeconds(60)).until(() -> victimKeysAfterStop.get() > 50);
                running.set(false);
                writer.join(30_000);
                assertThat(acknowledged).isNotEmpty();
                for (Map.Entry<String, String> write : acknowledged.entrySet()) {
                    String read = connection.sync().get(write.getKey());
                    assertThat(read).as("acknowledged write of " + write.getKey()).isNotNull();
                    assertThat(sequenceOf(read)).as(write.getKey()).isGreaterThanOrEqualTo(sequenceOf(write.getValue()));
                }
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    private static long sequenceOf(String value) {
        return Long.parseLong(value.substring(value.indexOf('-') + 1));
    }
}
