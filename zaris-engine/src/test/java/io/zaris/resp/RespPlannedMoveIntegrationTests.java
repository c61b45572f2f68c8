package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import io.zaris.replication.ReplicationSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Planned moves are invisible to a Redis cluster client: Lettuce's cluster client with its default options (the
 * one seed address, adaptive topology refresh as the Spring Data Redis docs advise, no retry wrapper, the default
 * 60 s command timeout) writes (SET, INCR, HSET) and reads (GET, HGET) without a pause while a fourth node joins and
 * takes its share, a node drains and stops, and the drained node restarts and is planned back in. No fault: every
 * partition changes hands by plan. No error reply of a node ({@code -TRYAGAIN}, {@code -CLUSTERDOWN}…) may reach
 * the application, no read may be older than a write acknowledged before it, and every acknowledged write must read
 * back (the last acknowledged SET and HSET of each key; each counter between its acknowledged INCRs and those plus
 * the failed ones).
 *
 * <p>A planned hand-over fences its old owner before the new epoch is published, so no SYNC write is refused by a
 * replica already at the new epoch ({@code -NOREPLICAS … knows a newer epoch}); and the drained node keeps its RESP
 * port open, answering {@code -MOVED}, until Lettuce stops routing to it, so no command waits for a refresh in the
 * reconnect buffer of a closed connection (a freeze of up to 30 s, bounded here well below that). The one exception
 * still allowed is Lettuce's own: with its defaults it refuses a {@code -MOVED} to a node outside its last topology
 * ({@code UnknownPartitionException}) until it refreshes, at most once per 30 s (docs/redis-protocol.md, "Planned
 * moves and failovers", says why the server cannot prevent it); those are counted and logged.
 */
@Tag("in-process-cluster")
class RespPlannedMoveIntegrationTests {

    private static final Logger log = LoggerFactory.getLogger(RespPlannedMoveIntegrationTests.class);
    private static final int REPLICATION_FACTOR = 2;
    private static final Duration REBALANCE_DEADLINE = Duration.ofSeconds(120);
    private static final int STRING_KEYS = 200;
    private static final int COUNTERS = 50;
    private static final int HASHES = 50;
    /**
     * Longest a command may take: above the node's 10 s move wait, well below the up to 30 s a command waited for
     * Lettuce's next topology refresh when a drained node closed its RESP port at once.
     */
    private static final Duration LONGEST_COMMAND = Duration.ofSeconds(20);

    private final AtomicBoolean running = new AtomicBoolean(true);
    /** Per operation kind and exception: every exception the application saw. */
    private final Map<String, AtomicLong> failures = new ConcurrentHashMap<>();
    /** The error replies of nodes among them, and the first few messages of all. */
    private final ConcurrentLinkedQueue<String> nodeErrors = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> failureSamples = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicLong> operations = new ConcurrentHashMap<>();
    /** Written by the SET writer only: each key's last acknowledged sequence number. */
    private final Map<String, Long> acknowledgedSets = new ConcurrentHashMap<>();
    /** Written by the HSET writer only: each hash's last acknowledged sequence number (one field per hash). */
    private final Map<String, Long> acknowledgedHashes = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> acknowledgedIncrements = new ConcurrentHashMap<>();
    /** INCRs that failed: applied or not, nobody knows. */
    private final Map<String, AtomicLong> indeterminateIncrements = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> staleReads = new ConcurrentLinkedQueue<>();
    /** Exceptions other than Lettuce's refusal of a node outside its topology. */
    private final ConcurrentLinkedQueue<String> otherExceptions = new ConcurrentLinkedQueue<>();
    /** The longest any one command took, in nanoseconds, and which one. */
    private final AtomicLong longestCommandNanos = new AtomicLong();
    private volatile String longestCommand = "none";

    @Test
    void lettuceSeesNoErrorWhileANodeJoinsDrainsAndComesBack() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(REPLICATION_FACTOR)
                .layout(PartitionLayout.of(128, 16)).joinSettleDelay(Duration.ofSeconds(1))
                .replication(ReplicationSettings.defaults().withHealCooldown(Duration.ofMillis(500)))
                .resp(true).build().start()) {
            NodeAddress seed = cluster.respSeeds().get(0);
            RedisClusterClient client = RedisClusterClient.create(RedisURI.builder()
                    .withHost(seed.host()).withPort(seed.port()).build());
            client.setOptions(ClusterClientOptions.builder()
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers().build())
                    .build());
            List<Thread> threads = new ArrayList<>();
            try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
                RedisAdvancedClusterCommands<String, String> redis = connection.sync();
                threads.add(new Thread(() -> setWriter(redis), "planned-move-set"));
                threads.add(new Thread(() -> incrementWriter(redis), "planned-move-incr"));
                threads.add(new Thread(() -> hashWriter(redis), "planned-move-hset"));
                threads.add(new Thread(() -> reader(redis), "planned-move-reader"));
                threads.forEach(Thread::start);
                await().atMost(Duration.ofSeconds(30)).until(() -> count(operations, "SET") > 200);

                cluster.addNode();
                awaitBalanced(cluster, 4, "3 -> 4 (node-4 joins)");
                cluster.drainNode("node-2", REBALANCE_DEADLINE);
                awaitBalanced(cluster, 3, "4 -> 3 (node-2 drains and stops)");
                cluster.restartNode("node-2");
                awaitBalanced(cluster, 4, "3 -> 4 (node-2 restarts)");

                running.set(false);
                for (Thread thread : threads) {
                    thread.join(120_000);
                }
                log.info("operations {}, failures {}, indeterminate INCRs {}", operations, failures,
                        indeterminateIncrements);
                log.info("longest command: {} ms ({})", longestCommandNanos.get() / 1_000_000, longestCommand);
                assertThat(nodeErrors).as("error replies of nodes the application saw; all exceptions: " + failures
                        + ", first ones: " + failureSamples).isEmpty();
                assertThat(otherExceptions).as("exceptions but Lettuce's UnknownPartitionException; all exceptions: "
                        + failures).isEmpty();
                assertThat(Duration.ofNanos(longestCommandNanos.get())).as("the longest command, " + longestCommand)
                        .isLessThan(LONGEST_COMMAND);
                assertThat(staleReads).as("reads older than a write acknowledged before them").isEmpty();
                assertThat(count(operations, "SET")).isPositive();
                assertThat(count(operations, "INCR")).isPositive();
                assertThat(count(operations, "HSET")).isPositive();
                // The check reads every key once, not as the workload does: it learns the restarted node first
                // rather than meet Lettuce's refusal of a node outside its topology (see the class comment).
                client.refreshPartitions();
                checkEveryAcknowledgedWrite(redis);
            } finally {
                running.set(false);
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    private void checkEveryAcknowledgedWrite(RedisAdvancedClusterCommands<String, String> redis) {
        for (Map.Entry<String, Long> write : acknowledgedSets.entrySet()) {
            assertThat(redis.get(write.getKey())).as("last acknowledged SET of " + write.getKey())
                    .isEqualTo("v-" + write.getValue());
        }
        for (Map.Entry<String, Long> write : acknowledgedHashes.entrySet()) {
            assertThat(redis.hget(write.getKey(), "field")).as("last acknowledged HSET of " + write.getKey())
                    .isEqualTo("v-" + write.getValue());
        }
        for (Map.Entry<String, AtomicLong> counter : acknowledgedIncrements.entrySet()) {
            long acknowledged = counter.getValue().get();
            long indeterminate = count(indeterminateIncrements, counter.getKey());
            long value = Long.parseLong(redis.get(counter.getKey()));
            assertThat(value).as(counter.getKey() + ": " + acknowledged + " acknowledged INCRs, " + indeterminate
                    + " indeterminate").isBetween(acknowledged, acknowledged + indeterminate);
        }
    }

    private void setWriter(RedisAdvancedClusterCommands<String, String> redis) {
        for (long sequence = 0; running.get(); sequence++) {
            String key = "string-" + (sequence % STRING_KEYS);
            long written = sequence;
            if (attempt("SET", () -> redis.set(key, "v-" + written))) {
                acknowledgedSets.put(key, written);
            }
        }
    }

    private void incrementWriter(RedisAdvancedClusterCommands<String, String> redis) {
        for (long sequence = 0; running.get(); sequence++) {
            String key = "counter-" + (sequence % COUNTERS);
            if (attempt("INCR", () -> redis.incr(key))) {
                acknowledgedIncrements.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
            } else {
                indeterminateIncrements.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
            }
        }
    }

    private void hashWriter(RedisAdvancedClusterCommands<String, String> redis) {
        for (long sequence = 0; running.get(); sequence++) {
            String key = "hash-" + (sequence % HASHES);
            long written = sequence;
            if (attempt("HSET", () -> redis.hset(key, "field", "v-" + written))) {
                acknowledgedHashes.put(key, written);
            }
        }
    }

    /** Reads a string and a hash; a value older than the one acknowledged before the read started is stale. */
    private void reader(RedisAdvancedClusterCommands<String, String> redis) {
        for (long sequence = 0; running.get(); sequence++) {
            String key = "string-" + (sequence % STRING_KEYS);
            Long before = acknowledgedSets.get(key);
            String[] read = new String[1];
            if (attempt("GET", () -> read[0] = redis.get(key))) {
                checkFresh(key, before, read[0]);
            }
            String hash = "hash-" + (sequence % HASHES);
            Long hashBefore = acknowledgedHashes.get(hash);
            if (attempt("HGET", () -> read[0] = redis.hget(hash, "field"))) {
                checkFresh(hash, hashBefore, read[0]);
            }
        }
    }

    private void checkFresh(String key, Long acknowledgedBefore, String read) {
        if (acknowledgedBefore == null) {
            return;
        }
        if (read == null || Long.parseLong(read.substring(2)) < acknowledgedBefore) {
            staleReads.add(key + " read " + read + " after v-" + acknowledgedBefore + " was acknowledged");
        }
    }

    /** Runs one command as the application would: true when it returned, false (counted) when it threw. */
    private boolean attempt(String kind, Runnable command) {
        count(operations, kind, 1);
        long started = System.nanoTime();
        try {
            command.run();
            return true;
        } catch (RuntimeException e) {
            count(failures, kind + " " + e.getClass().getSimpleName(), 1);
            if (e instanceof RedisCommandExecutionException) {
                nodeErrors.add(kind + ": " + e.getMessage());
            } else if (!unknownNode(e)) {
                otherExceptions.add(kind + ": " + e);
            }
            if (failureSamples.size() < 20) {
                failureSamples.add(kind + ": " + e);
            }
            return false;
        } finally {
            long took = System.nanoTime() - started;
            if (longestCommandNanos.accumulateAndGet(took, Math::max) == took) {
                longestCommand = kind; // the name may lag the figure by a racing command; the figure is exact
            }
        }
    }

    /** Lettuce's refusal of a {@code -MOVED} to a node outside its last topology, however it is wrapped. */
    private static boolean unknownNode(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause.getClass().getSimpleName().equals("UnknownPartitionException")) {
                return true;
            }
        }
        return false;
    }

    private static void count(Map<String, AtomicLong> counts, String kind, long delta) {
        counts.computeIfAbsent(kind, k -> new AtomicLong()).addAndGet(delta);
    }

    private static long count(Map<String, AtomicLong> counts, String kind) {
        AtomicLong value = counts.get(kind);
        return value == null ? 0 : value.get();
    }

    /** Waits until the leader's map spans {@code nodes} nodes and every partition is HEALTHY on its primary. */
    private void awaitBalanced(EmbeddedCluster cluster, int nodes, String step) {
        long started = System.nanoTime();
        await().atMost(REBALANCE_DEADLINE).pollInterval(Duration.ofMillis(200)).until(() -> {
            ClusterView view = leaderView(cluster);
            if (view == null || view.partitionMap().nodes().size() != nodes) {
                return false;
            }
            PartitionMap map = view.partitionMap();
            if (!PartitionPlanner.plan(map.nodes(), map.partitionCount(), REPLICATION_FACTOR, map).owners()
                    .equals(map.owners())) {
                return false;
            }
            for (int p = 0; p < view.layout().partitionCount(); p++) {
                PartitionRuntime runtime = view.runtimeMap().get(p);
                if (runtime.health() != PartitionHealth.HEALTHY
                        || !Objects.equals(runtime.activeNode(), map.primaryOf(p))) {
                    return false;
                }
            }
            return true;
        });
        log.info("planned move {} settled in {} ms; operations so far {}, failures {}", step,
                Duration.ofNanos(System.nanoTime() - started).toMillis(), operations, failures);
    }

    private static ClusterView leaderView(EmbeddedCluster cluster) {
        try {
            return cluster.leader().currentView();
        } catch (IllegalStateException noLeaderRightNow) {
            return null;
        }
    }
}
