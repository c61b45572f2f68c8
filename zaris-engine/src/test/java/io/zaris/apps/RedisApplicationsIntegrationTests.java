package io.zaris.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;

/**
 * Redis applications run unmodified against a three-node Zaris cluster keeping two copies, through its RESP port:
 * a Jedis leaderboard on a sorted set and a Lettuce work queue with BLPOP consumers ({@link Leaderboard},
 * {@link JobQueue}: they use only their client's API). A quiet run: no node fails, so every job is delivered exactly
 * once. One cluster for the class.
 */
@Tag("in-process-cluster")
class RedisApplicationsIntegrationTests {

    private static EmbeddedCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8)).resp(true)
                .build().start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aJedisLeaderboardRanksPlayersScoredFromSeveralThreads() throws Exception {
        int players = 20;
        int threads = 3;
        int rounds = 60;
        try (JedisCluster jedis = new JedisCluster(jedisNodes())) {
            Leaderboard board = new Leaderboard(jedis, "leaderboard:season-1");
            for (int p = 0; p < players; p++) {
                assertThat(board.join(player(p))).isTrue();
            }
            assertThat(board.join(player(0))).as("joining twice").isFalse();

            // Thread t gives player (7r + t) mod 20 (t + 1) points in round r; the expected totals are summed here.
            Map<String, Double> expected = new HashMap<>();
            for (int t = 0; t < threads; t++) {
                for (int r = 0; r < rounds; r++) {
                    expected.merge(player((7 * r + t) % players), (double) (t + 1), Double::sum);
                }
            }
            ExecutorService scorers = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    done.add(scorers.submit(() -> {
                        for (int r = 0; r < rounds; r++) {
                            assertThat(board.score(player((7 * r + thread) % players), thread + 1)).isPositive();
                        }
                    }));
                }
                for (Future<?> future : done) {
                    future.get(60, TimeUnit.SECONDS);
                }
            } finally {
                scorers.shutdownNow();
            }

            // Redis orders equal scores by member, so ZREVRANGE gives ties in reverse member order.
            List<Leaderboard.Standing> ranked = expected.entrySet().stream()
                    .map(e -> new Leaderboard.Standing(e.getKey(), e.getValue()))
                    .sorted(Comparator.comparingDouble(Leaderboard.Standing::points)
                            .thenComparing(Leaderboard.Standing::player).reversed())
                    .toList();
            assertThat(board.top(5)).containsExactlyElementsOf(ranked.subList(0, 5));
            assertThat(board.top(players)).containsExactlyElementsOf(ranked);
            Leaderboard.Standing best = ranked.get(0);
            Leaderboard.Standing worst = ranked.get(players - 1);
            assertThat(board.place(best.player())).isEqualTo(1);
            assertThat(board.playersBehind(best.player())).isEqualTo(players - 1);
            assertThat(board.place(worst.player())).isEqualTo(players);
            assertThat(board.playersBehind(worst.player())).isZero();
            assertThat(board.place("nobody")).isNull();
            assertThat(board.playersBehind("nobody")).isNull();
        }
    }

    @Test
    void aLettuceWorkQueueDeliversEveryJobExactlyOnceToSeveralBlpopConsumers() throws Exception {
        int consumers = 4;
        int queuedBefore = 120; // waiting when the consumers start
        int queuedWhileRunning = 120; // pushed to consumers blocked in BLPOP
        RedisClusterClient client = RedisClusterClient.create(lettuceSeeds());
        ExecutorService workers = Executors.newFixedThreadPool(consumers);
        AtomicBoolean running = new AtomicBoolean(true);
        try (StatefulRedisClusterConnection<String, String> producer = client.connect()) {
            JobQueue queue = new JobQueue(client, "jobs");
            Set<String> submitted = new HashSet<>();
            for (int i = 0; i < queuedBefore; i++) {
                String job = "job-" + i;
                queue.submit(producer, job, i % 4 == 0);
                submitted.add(job);
            }
            // Written by the consumer threads, read by this one after they stop.
            List<String> delivered = new CopyOnWriteArrayList<>();
            Map<String, AtomicInteger> perConsumer = new ConcurrentHashMap<>();
            List<Future<?>> consuming = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                String name = "consumer-" + c;
                consuming.add(workers.submit(() -> queue.consume(running::get, job -> {
                    delivered.add(job);
                    perConsumer.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
                })));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> delivered.size() >= queuedBefore);
            for (int i = queuedBefore; i < queuedBefore + queuedWhileRunning; i++) {
                String job = "job-" + i;
                queue.submit(producer, job, i % 4 == 0);
                submitted.add(job);
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> delivered.size() >= submitted.size());
            running.set(false);
            for (Future<?> consumer : consuming) {
                consumer.get(30, TimeUnit.SECONDS); // rethrows a consumer's failure
            }

            assertThat(delivered).as("every job once, none twice").hasSize(submitted.size())
                    .containsExactlyInAnyOrderElementsOf(submitted);
            assertThat(perConsumer.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(submitted.size());
            assertThat(producer.sync().exists("{jobs}:urgent", "{jobs}:normal")).as("both lists drained").isZero();
        } finally {
            running.set(false);
            workers.shutdownNow();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static String player(int number) {
        return "player-" + number;
    }

    private static Set<HostAndPort> jedisNodes() {
        Set<HostAndPort> nodes = new HashSet<>();
        for (NodeAddress address : cluster.respSeeds()) {
            nodes.add(new HostAndPort(address.host(), address.port()));
        }
        return nodes;
    }

    private static List<RedisURI> lettuceSeeds() {
        List<RedisURI> seeds = new ArrayList<>();
        for (NodeAddress address : cluster.respSeeds()) {
            seeds.add(RedisURI.create(address.host(), address.port()));
        }
        return seeds;
    }
}
