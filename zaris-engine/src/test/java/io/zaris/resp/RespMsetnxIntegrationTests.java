package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.KeyValue;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * MSETNX is all or nothing under contention, end to end: several Lettuce cluster connections (one per
 * thread, so the calls arrive on different connections and can interleave on the node) race MSETNX over
 * overlapping key sets of one hash tag; then the active owner of some of those keys is stopped and every
 * key reads back from the promoted replica exactly as it was, SYNC acknowledgement, replication factor 2.
 */
@Tag("in-process-cluster")
class RespMsetnxIntegrationTests {

    private static final int THREADS = 6;
    private static final int ROUNDS = 120;
    private static final ReplicationSettings FAST = ReplicationSettings.defaults()
            .withEvictionDelay(Duration.ofSeconds(2))
            .withHealCooldown(Duration.ofSeconds(1));

    @Test
    void overlappingMsetnxCallsNeverBothSucceedAndReplicasHoldTheWinnersValues() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).replication(FAST).resp(true).build().start()) {
            RedisClusterClient client = clusterClient(cluster);
            List<StatefulRedisClusterConnection<String, String>> connections = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                for (int t = 0; t < THREADS; t++) {
                    connections.add(client.connect());
                }
                Map<String, String> expected = new LinkedHashMap<>();
                List<String> allKeys = new ArrayList<>();
                for (int round = 0; round < ROUNDS; round++) {
                    expected.putAll(race(round, connections, pool));
                    allKeys.addAll(ring(round));
                }

                String victim = cluster.nodes().stream().filter(n -> !n.isLeader()).findFirst().orElseThrow().nodeId();
                ClusterView before = cluster.leader().currentView();
                SegmentMapper mapper = new SegmentMapper(before.layout().segmentCount());
                long victimKeys = expected.keySet().stream()
                        .filter(key -> victim.equals(before.runtimeOfSegment(mapper.segmentOf(key)).activeNode()))
                        .count();
                assertThat(victimKeys).as("keys whose active owner is stopped").isPositive();
                cluster.stopNode(victim);

                StatefulRedisClusterConnection<String, String> reader = connections.get(0);
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                        .untilAsserted(() -> assertThat(readAll(reader, allKeys)).isEqualTo(expected));
            } finally {
                pool.shutdownNow();
                connections.forEach(StatefulRedisClusterConnection::close);
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    /**
     * One round: thread {@code t} sets the pair {k(t), k(t+1)} of a ring of fresh keys, all released together.
     * Checks the winners' pairs are disjoint and every key holds its winner's value (absent when none).
     *
     * @return the keys the round wrote with their values
     */
    private static Map<String, String> race(int round, List<StatefulRedisClusterConnection<String, String>> connections,
                                            ExecutorService pool) throws Exception {
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Future<Boolean>> outcomes = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            StatefulRedisClusterConnection<String, String> connection = connections.get(t);
            Map<String, String> pair = Map.of(ringKey(round, t), valueOf(round, t), ringKey(round, (t + 1) % THREADS),
                    valueOf(round, t));
            outcomes.add(pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                return connection.sync().msetnx(pair);
            }));
        }
        boolean[] won = new boolean[THREADS];
        for (int t = 0; t < THREADS; t++) {
            won[t] = outcomes.get(t).get(30, TimeUnit.SECONDS);
        }
        assertThat(won).as("round %d: the first MSETNX finds every key fresh", round).contains(true);
        Map<String, String> written = new LinkedHashMap<>();
        Map<String, String> held = readAll(connections.get(0), ring(round));
        for (int k = 0; k < THREADS; k++) {
            int previous = (k + THREADS - 1) % THREADS;
            assertThat(won[k] && won[(k + 1) % THREADS])
                    .as("round %d: overlapping MSETNX %d and %d both succeeded", round, k, (k + 1) % THREADS).isFalse();
            String key = ringKey(round, k);
            String winner = won[k] ? valueOf(round, k) : won[previous] ? valueOf(round, previous) : null;
            assertThat(held.get(key)).as("round %d: %s", round, key).isEqualTo(winner);
            if (winner != null) {
                written.put(key, winner);
            }
        }
        return written;
    }

    /** Present keys with their values; absent keys are left out. All keys must share one slot. */
    private static Map<String, String> readAll(StatefulRedisClusterConnection<String, String> connection,
                                               List<String> keys) {
        Map<String, String> values = new HashMap<>();
        Map<String, List<String>> bySlot = new HashMap<>();
        for (String key : keys) {
            bySlot.computeIfAbsent(key.substring(0, key.indexOf('}') + 1), tag -> new ArrayList<>()).add(key);
        }
        for (List<String> sameSlot : bySlot.values()) {
            for (KeyValue<String, String> value : connection.sync().mget(sameSlot.toArray(String[]::new))) {
                if (value.hasValue()) {
                    values.put(value.getKey(), value.getValue());
                }
            }
        }
        return values;
    }

    private static List<String> ring(int round) {
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < THREADS; k++) {
            keys.add(ringKey(round, k));
        }
        return keys;
    }

    private static String ringKey(int round, int index) {
        return "{msetnx-" + round + "}k" + index;
    }

    private static String valueOf(int round, int thread) {
        return "round-" + round + "-thread-" + thread;
    }

    private static RedisClusterClient clusterClient(EmbeddedCluster cluster) {
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
        return client;
    }
}
