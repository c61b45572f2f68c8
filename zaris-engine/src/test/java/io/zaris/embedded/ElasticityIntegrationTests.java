package io.zaris.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scale out 3 → 4 → 5 and in 5 → 3 on an in-process cluster while writers and a reader work through the
 * ordinary client: no acknowledged SYNC write is lost, no read goes back behind an acknowledged write, and
 * application code never sees a routing status (MOVED, OWNERSHIP_CHANGING, MIGRATING, REPLICA_WRITE_REJECTED).
 */
@Tag("in-process-cluster")
class ElasticityIntegrationTests {

    private static final Logger log = LoggerFactory.getLogger(ElasticityIntegrationTests.class);
    private static final int KEYS_PER_WRITER = 400;
    private static final int WRITERS = 2;
    private static final Duration REBALANCE_DEADLINE = Duration.ofSeconds(120);

    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> routingStatuses = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> staleReads = new ConcurrentLinkedQueue<>();
    private final AtomicLong acknowledgedWrites = new AtomicLong();
    private final AtomicLong failedWrites = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);

    @Test
    void growsToFiveAndShrinksToThreeUnderLoadWithoutLosingAnAcknowledgedWrite() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(256, 32)).joinSettleDelay(Duration.ofSeconds(1)).maxConcurrentMoves(4)
                .replication(ReplicationSettings.defaults().withHealCooldown(Duration.ofMillis(500)))
                .build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     // 10 attempts, like the other failover tests: with the default 3, the first move of a partition
                     // to a just-joined node can still surface MOVED under load (README, Guarantees and limits)
                     .environment(Map.of()).build())) {
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                threads.add(new Thread(() -> write(client, writer), "elastic-writer-" + w));
            }
            threads.add(new Thread(() -> read(client), "elastic-reader"));
            threads.forEach(Thread::start);
            await().atMost(Duration.ofSeconds(30)).until(() -> acknowledgedWrites.get() > 500);

            ZarisNode fourth = cluster.addNode();
            awaitBalanced(cluster, 4, "3 -> 4");
            assertThat(owned(cluster, fourth.nodeId())).as("partitions owned by the newcomer").isGreaterThan(0);
            await().atMost(Duration.ofSeconds(30)).until(() -> fourth.storedEntries() > 0);
            cluster.addNode();
            awaitBalanced(cluster, 5, "4 -> 5");

            cluster.drainNode("node-2", REBALANCE_DEADLINE);
            awaitBalanced(cluster, 4, "5 -> 4 (drain node-2)");
            cluster.drainNode(fourth.nodeId(), REBALANCE_DEADLINE);
            awaitBalanced(cluster, 3, "4 -> 3 (drain node-4)");

            running.set(false);
            for (Thread thread : threads) {
                thread.join(60_000);
            }
            long lost = 0;
            for (Map.Entry<String, Long> write : acknowledged.entrySet()) {
                long read = valueOf(client.sync().get(write.getKey()));
                if (read < write.getValue()) {
                    lost++;
                    log.error("lost acknowledged write: {} reads {} after {} was acknowledged", write.getKey(), read,
                            write.getValue());
                }
            }
            log.info("elasticity run: {} acknowledged writes, {} failed, {} reads, {} routing statuses, {} stale reads",
                    acknowledgedWrites.get(), failedWrites.get(), reads.get(), routingStatuses.size(), staleReads.size());
            assertThat(acknowledgedWrites.get()).isGreaterThan(1000);
            assertThat(lost).as("acknowledged writes lost").isZero();
            assertThat(routingStatuses).as("routing statuses surfaced to the application").isEmpty();
            assertThat(staleReads).as("reads older than an acknowledged write").isEmpty();
        } finally {
            running.set(false);
        }
    }

    /** One writer: its own keys, increasing values, the highest acknowledged one remembered per key. */
    private void write(ZarisClient client, int writer) {
        long sequence = 0;
        while (running.get()) {
            String key = "w" + writer + "-" + (sequence % KEYS_PER_WRITER);
            long value = ++sequence;
            try {
                client.sync().put(key, Long.toString(value).getBytes(StandardCharsets.UTF_8));
                acknowledged.merge(key, value, Math::max);
                acknowledgedWrites.incrementAndGet();
            } catch (ZarisStatusException e) {
                failedWrites.incrementAndGet();
                if (isRouting(e.status())) {
                    routingStatuses.add("write " + key + ": " + e.getMessage());
                }
            } catch (RuntimeException e) {
                failedWrites.incrementAndGet(); // not acknowledged: nothing to check for this value
            }
        }
    }

    /** Reads every key in turn; a value below what was acknowledged before the read began is stale. */
    private void read(ZarisClient client) {
        long i = 0;
        while (running.get()) {
            String key = "w" + (i % WRITERS) + "-" + ((i / WRITERS) % KEYS_PER_WRITER);
            i++;
            long before = acknowledged.getOrDefault(key, 0L);
            try {
                long read = valueOf(client.sync().get(key));
                reads.incrementAndGet();
                if (read < before) {
                    staleReads.add(key + " read " + read + " after " + before + " was acknowledged");
                }
            } catch (ZarisStatusException e) {
                if (isRouting(e.status())) {
                    routingStatuses.add("read " + key + ": " + e.getMessage());
                }
            } catch (RuntimeException e) {
                // a timeout: counted by nobody, checked by nothing
            }
        }
    }

    private static boolean isRouting(KvStatus status) {
        return status == KvStatus.MOVED || status == KvStatus.OWNERSHIP_CHANGING || status == KvStatus.MIGRATING
                || status == KvStatus.REPLICA_WRITE_REJECTED;
    }

    private static long valueOf(Optional<io.zaris.model.VersionedValue> value) {
        return value.map(v -> Long.parseLong(new String(v.value(), StandardCharsets.UTF_8))).orElse(0L);
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
            if (!PartitionPlanner.plan(map.nodes(), map.partitionCount(), 2, map).owners().equals(map.owners())) {
                return false; // more moves to come
            }
            for (int p = 0; p < view.layout().partitionCount(); p++) {
                PartitionRuntime runtime = view.runtimeMap().get(p);
                if (runtime.health() != PartitionHealth.HEALTHY
                        || !Objects.equals(runtime.activeNode(), view.partitionMap().primaryOf(p))) {
                    return false;
                }
            }
            return true;
        });
        log.info("rebalance {} settled in {} ms ({} acknowledged writes so far)", step,
                Duration.ofNanos(System.nanoTime() - started).toMillis(), acknowledgedWrites.get());
    }

    private static ClusterView leaderView(EmbeddedCluster cluster) {
        try {
            return cluster.leader().currentView();
        } catch (IllegalStateException noLeaderRightNow) {
            return null;
        }
    }

    private static long owned(EmbeddedCluster cluster, String nodeId) {
        ClusterView view = leaderView(cluster);
        long owned = 0;
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (view.partitionMap().isAssigned(p, nodeId)) {
                owned++;
            }
        }
        return owned;
    }
}
