package io.zaris.bench;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import io.zaris.store.MemoryOptions;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long a 3 → 4 rebalance of N keys takes and what fraction of the data it moves. An in-process cluster
 * (3 nodes, RF 2, the default 1024 segments in 128 partitions, default settings except the memory budget) is
 * loaded with N keys of 100-byte values; a fourth node joins and the leader is asked to rebalance at once.
 * The clock runs from the join to the moment the leader's map is the planner's balanced map over 4 nodes
 * and every partition is HEALTHY on its preferred primary. "Moved" counts the key copies that changed node:
 * for every partition, its keys times the owners it gained.
 *
 * <p>Usage: {@code bench/rebalance [keys]} (default 1,000,000).
 */
public final class RebalanceBenchmark {

    private static final int VALUE_BYTES = 100;
    private static final int IN_FLIGHT = 256;

    private RebalanceBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int keys = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 1_000_000;
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .memory(MemoryOptions.builder().maxBytes(Runtime.getRuntime().maxMemory() / 5).build())
                .joinSettleDelay(Duration.ofMinutes(10)) // the explicit rebalance request starts it
                .replication(ReplicationSettings.defaults())
                .build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).requestTimeout(Duration.ofSeconds(60)).build())) {
            long loadStart = System.nanoTime();
            load(client, keys);
            System.out.printf("loaded %,d keys of %d bytes in %.1f s%n", keys, VALUE_BYTES,
                    (System.nanoTime() - loadStart) / 1e9);
            ClusterView before = cluster.leader().currentView();
            long[] partitionKeys = partitionKeys(cluster, before);

            long start = System.nanoTime();
            ZarisNode fourth = cluster.addNode();
            fourth.requestRebalance();
            ClusterView after = awaitBalanced(cluster, 4, Duration.ofMinutes(20));
            double seconds = (System.nanoTime() - start) / 1e9;

            long totalCopies = 0;
            long movedCopies = 0;
            int movedPartitions = 0;
            for (int p = 0; p < before.layout().partitionCount(); p++) {
                Set<String> gained = new HashSet<>(after.partitionMap().ownersOf(p));
                gained.removeAll(before.partitionMap().ownersOf(p));
                totalCopies += partitionKeys[p] * before.partitionMap().ownersOf(p).size();
                movedCopies += partitionKeys[p] * gained.size();
                movedPartitions += gained.isEmpty() ? 0 : 1;
            }
            System.out.printf("3 -> 4 rebalance of %,d keys (RF 2, %d partitions): %.1f s; map version %d -> %d%n", keys,
                    before.layout().partitionCount(), seconds, before.partitionMap().version(),
                    after.partitionMap().version());
            System.out.printf("moved %,d of %,d key copies (%.1f %%; ideal 1/4 = 25 %%) in %d partitions; node-4 holds %,d entries%n",
                    movedCopies, totalCopies, 100.0 * movedCopies / totalCopies, movedPartitions, fourth.storedEntries());
        }
    }

    private static void load(ZarisClient client, int keys) throws InterruptedException {
        Semaphore window = new Semaphore(IN_FLIGHT);
        AtomicLong failures = new AtomicLong();
        byte[] value = new byte[VALUE_BYTES];
        java.util.Arrays.fill(value, (byte) 'v');
        for (int i = 0; i < keys; i++) {
            window.acquire();
            client.put("key:" + i, value).whenComplete((version, error) -> {
                if (error != null) {
                    failures.incrementAndGet();
                }
                window.release();
            });
        }
        window.acquire(IN_FLIGHT);
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " writes of the load failed");
        }
    }

    /** Keys per partition, counted on each partition's active owner. */
    private static long[] partitionKeys(EmbeddedCluster cluster, ClusterView view) {
        long[] keys = new long[view.layout().partitionCount()];
        for (int p = 0; p < keys.length; p++) {
            ZarisNode active = cluster.node(view.runtimeMap().get(p).activeNode());
            for (int s = view.layout().firstSegmentOf(p); s <= view.layout().lastSegmentOf(p); s++) {
                keys[p] += active.segmentKeys(s).size();
            }
        }
        return keys;
    }

    private static ClusterView awaitBalanced(EmbeddedCluster cluster, int nodes, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            ClusterView view = cluster.leader().currentView();
            if (isBalanced(view, nodes)) {
                return view;
            }
            Thread.sleep(100); // polling a view that changes on other threads; no event to wait on here
        }
        throw new IllegalStateException("not balanced over " + nodes + " nodes within " + timeout);
    }

    private static boolean isBalanced(ClusterView view, int nodes) {
        PartitionMap map = view.partitionMap();
        if (map.nodes().size() != nodes
                || !PartitionPlanner.plan(map.nodes(), map.partitionCount(), map.replicationFactor(), map).owners()
                .equals(map.owners())) {
            return false;
        }
        for (int p = 0; p < map.partitionCount(); p++) {
            PartitionRuntime runtime = view.runtimeMap().get(p);
            if (runtime.health() != PartitionHealth.HEALTHY || !Objects.equals(runtime.activeNode(), map.primaryOf(p))) {
                return false;
            }
        }
        return true;
    }
}
