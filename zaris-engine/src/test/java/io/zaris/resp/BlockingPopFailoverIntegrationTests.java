package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A BLPOP (BZPOPMIN) consumer keeps receiving across the loss of the node its queue's slot lives on: three nodes
 * keeping three copies (SYNC), a consumer blocked in BLPOP (BZPOPMIN) through its own Lettuce cluster connection, a
 * producer pushing (ZADD with rising scores) through another; the queue's active owner is stopped half way. Every
 * element pushed after the stop reaches the consumer, in push order, and none twice.
 */
@Tag("in-process-cluster")
class BlockingPopFailoverIntegrationTests {

    private static final ReplicationSettings FAST = ReplicationSettings.defaults()
            .withEvictionDelay(Duration.ofSeconds(2))
            .withHealCooldown(Duration.ofSeconds(1));
    private static final int BEFORE = 50;
    private static final int AFTER = 50;

    /** How a test pushes one element and pops one (blocking at most a second; {@code null} when none came). */
    private interface Queue {
        boolean push(RedisAdvancedClusterCommands<String, String> redis, String key, String element, long order);

        String pop(RedisAdvancedClusterCommands<String, String> redis, String key);
    }

    @Test
    void aBlpopConsumerKeepsReceivingAfterTheQueuesOwnerIsStopped() throws Exception {
        consumerKeepsReceivingAcrossTheStopOfTheOwner(new Queue() {
            @Override
            public boolean push(RedisAdvancedClusterCommands<String, String> redis, String key, String element, long order) {
                return redis.rpush(key, element) > 0;
            }

            @Override
            public String pop(RedisAdvancedClusterCommands<String, String> redis, String key) {
                var popped = redis.blpop(1, key);
                return popped != null && popped.hasValue() ? popped.getValue() : null;
            }
        });
    }

    /** The same for a priority queue: ZADD with rising scores, a BZPOPMIN consumer. */
    @Test
    void aBzpopminConsumerKeepsReceivingAfterTheQueuesOwnerIsStopped() throws Exception {
        consumerKeepsReceivingAcrossTheStopOfTheOwner(new Queue() {
            @Override
            public boolean push(RedisAdvancedClusterCommands<String, String> redis, String key, String element, long order) {
                return redis.zadd(key, order, element) > 0;
            }

            @Override
            public String pop(RedisAdvancedClusterCommands<String, String> redis, String key) {
                var popped = redis.bzpopmin(1, key);
                return popped != null && popped.hasValue() ? popped.getValue().getValue() : null;
            }
        });
    }

    private void consumerKeepsReceivingAcrossTheStopOfTheOwner(Queue queueOps) throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(3)
                .layout(PartitionLayout.of(64, 8)).replication(FAST).resp(true).build().start()) {
            ClusterView view = cluster.leader().currentView();
            SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
            String leader = cluster.leader().nodeId();
            String queue = null;
            for (int i = 0; queue == null; i++) { // a queue whose active owner is not the leader, so stopping it is a failover
                String candidate = "queue-" + i;
                if (!leader.equals(view.runtimeOfSegment(mapper.segmentOf(candidate.getBytes(StandardCharsets.UTF_8))).activeNode())) {
                    queue = candidate;
                }
            }
            String owner = view.runtimeOfSegment(mapper.segmentOf(queue.getBytes(StandardCharsets.UTF_8))).activeNode();
            RedisClusterClient producerClient = client(cluster);
            RedisClusterClient consumerClient = client(cluster);
            List<String> received = new CopyOnWriteArrayList<>();
            Set<String> seen = ConcurrentHashMap.newKeySet();
            List<String> duplicates = new CopyOnWriteArrayList<>();
            List<String> consumerErrors = new CopyOnWriteArrayList<>(); // shown if the consumer stops receiving
            AtomicBoolean running = new AtomicBoolean(true);
            String key = queue;
            Thread consumer = new Thread(() -> {
                while (running.get()) {
                    try (StatefulRedisClusterConnection<String, String> connection = consumerClient.connect()) {
                        while (running.get()) {
                            String popped = queueOps.pop(connection.sync(), key);
                            if (popped != null) {
                                received.add(popped);
                                if (!seen.add(popped)) {
                                    duplicates.add(popped);
                                }
                            }
                        }
                    } catch (RuntimeException e) {
                        // the node under the connection went away: connect again, through the refreshed topology
                        consumerErrors.add(System.currentTimeMillis() % 100_000 + " ms: " + e);
                    }
                }
            }, "blpop-consumer");
            consumer.start();
            try (StatefulRedisClusterConnection<String, String> connection = producerClient.connect()) {
                RedisAdvancedClusterCommands<String, String> redis = connection.sync();
                for (int i = 0; i < BEFORE; i++) {
                    queueOps.push(redis, key, "before-" + i, i);
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> received.size() == BEFORE);

                cluster.stopNode(owner);

                List<String> pushed = new ArrayList<>();
                for (int i = 0; i < AFTER; i++) {
                    int number = i;
                    // Each try pushes its own element: a push whose reply was lost and is tried again is two elements.
                    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                            .until(() -> {
                                String element = "after-" + number + "-" + pushed.size();
                                pushed.add(element);
                                return queueOps.push(redis, key, element, BEFORE + pushed.size());
                            });
                }
                List<String> acknowledged = new ArrayList<>();
                for (int i = 0; i < AFTER; i++) { // the last try of each number is the acknowledged one
                    String prefix = "after-" + i + "-";
                    acknowledged.add(pushed.stream().filter(e -> e.startsWith(prefix)).reduce((a, b) -> b).orElseThrow());
                }
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .untilAsserted(() -> assertThat(received).as("every acknowledged element pushed after the stop;"
                                        + " the consumer's errors: %s", consumerErrors).containsAll(acknowledged));
                assertThat(duplicates).as("no element popped twice").isEmpty();
                assertThat(received.stream().filter(acknowledged::contains).toList()).as("in push order")
                        .isEqualTo(acknowledged);
            } finally {
                running.set(false);
                consumer.join(30_000);
                producerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
                consumerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    private static RedisClusterClient client(EmbeddedCluster cluster) {
        RedisClusterClient client = RedisClusterClient.create(seeds(cluster));
        client.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .adaptiveRefreshTriggersTimeout(Duration.ofMillis(500))
                        .refreshTriggersReconnectAttempts(2)
                        .build())
                .build());
        return client;
    }

    private static List<RedisURI> seeds(EmbeddedCluster cluster) {
        List<RedisURI> seeds = new ArrayList<>();
        for (NodeAddress address : cluster.respSeeds()) {
            seeds.add(RedisURI.builder().withHost(address.host()).withPort(address.port())
                    .withTimeout(Duration.ofSeconds(3)).build());
        }
        return seeds;
    }
}
