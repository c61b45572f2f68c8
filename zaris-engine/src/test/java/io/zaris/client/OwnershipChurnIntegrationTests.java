package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ZarisNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Ownership moves on a real 3-node cluster while clients work: application code never sees a routing
 * status, and the client's table converges to the new owner — through pushes, and with pushes ignored,
 * through the poll.
 *
 * <p>Until replication exists (a later issue) a hand-over does not move data: a GET may legitimately
 * answer "absent" for a key written to the previous owner. The assertions here are about routing.
 */
@Tag("in-process-cluster")
class OwnershipChurnIntegrationTests {

    private static EmbeddedCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCluster.builder().nodes(3).build().start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void eightWorkersNeverSeeARoutingStatusWhileOwnershipMovesAndPushesConvergeTheTable() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ZarisClient client = ZarisClient.connect(options().metrics(MicrometerClientMetrics.create(registry)).build())) {
            runChurn(client, "push-");
            await().atMost(Duration.ofSeconds(10)).until(() -> sameRuntime(client));
        }
        double pushed = registry.find("zaris.client.map.refreshes").tag("trigger", "push").counters().stream()
                .mapToDouble(c -> c.count()).sum();
        System.out.printf("ownership churn: %.0f of 20 hand-overs reached the table by push%n", pushed);
        // Each of the 20 hand-overs reaches the table once: by its push, or first by a worker's wrong-owner answer
        // carrying the partition's new entry (a hint; the push then changes nothing and is not counted). Which
        // arrives first is a race between two connections, so only most of them are required to be pushes.
        assertThat(pushed).as("table updates from pushes").isGreaterThanOrEqualTo(15);
    }

    @Test
    void withPushesIgnoredThePollConvergesTheTable() throws Exception {
        try (ZarisClient client = ZarisClient.connect(options().ownershipPushEnabled(false)
                .mapRefreshInterval(Duration.ofMillis(300)).build())) {
            int partition = partitionOf(client, "poll-key");
            long fetchesBefore = client.mapFetchCount();
            handOver(partition);
            await().atMost(Duration.ofSeconds(10)).until(() -> sameRuntime(client));
            assertThat(client.mapFetchCount()).isGreaterThan(fetchesBefore);
            client.sync().put("poll-key", utf8("v"));
            assertThat(client.sync().get("poll-key")).isPresent();
        }
    }

    @Test
    void aThousandConcurrentRequestsAgainstAStaleTableCauseAtMostAHandfulOfMapFetches() throws Exception {
        try (ZarisClient client = ZarisClient.connect(options().ownershipPushEnabled(false)
                .mapRefreshInterval(Duration.ofHours(1)).build())) {
            List<String> keys = keysOfOnePartition(client, "storm-", 1000);
            int partition = partitionOf(client, keys.get(0));
            handOver(partition);
            await().atMost(Duration.ofSeconds(10)).until(() -> allNodesAgree());
            long fetchesBefore = client.mapFetchCount();
            long mapRequestsBefore = cluster.nodes().stream().mapToLong(n -> n.stats().mapRequests()).sum();
            List<CompletableFuture<Long>> puts = new ArrayList<>();
            for (String key : keys) {
                puts.add(client.put(key, utf8(key)));
            }
            CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            long fetches = client.mapFetchCount() - fetchesBefore;
            long mapRequests = cluster.nodes().stream().mapToLong(n -> n.stats().mapRequests()).sum() - mapRequestsBefore;
            assertThat(fetches).isLessThanOrEqualTo(3);
            assertThat(mapRequests).as("each fetch asks every node at once").isLessThanOrEqualTo(3L * cluster.nodes().size());
            assertThat(sameRuntime(client)).isTrue();
        }
    }

    @Test
    void aWrongNodeAnswersHintRetargetsThePartitionWithoutAMapFetch() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ZarisClient client = ZarisClient.connect(options().ownershipPushEnabled(false)
                .mapRefreshInterval(Duration.ofHours(1)).metrics(MicrometerClientMetrics.create(registry)).build())) {
            String key = "hinted-key";
            int partition = partitionOf(client, key);
            handOver(partition);
            await().atMost(Duration.ofSeconds(10)).until(OwnershipChurnIntegrationTests::allNodesAgree);
            long fetchesBefore = client.mapFetchCount();
            long mapRequestsBefore = cluster.nodes().stream().mapToLong(n -> n.stats().mapRequests()).sum();

            client.sync().put(key, utf8("v")); // the old owner answers with the partition's new entry

            assertThat(client.clusterView().runtimeMap().get(partition))
                    .isEqualTo(cluster.nodes().get(0).currentView().runtimeMap().get(partition));
            assertThat(client.mapFetchCount()).as("map fetches").isEqualTo(fetchesBefore);
            assertThat(cluster.nodes().stream().mapToLong(n -> n.stats().mapRequests()).sum()).isEqualTo(mapRequestsBefore);
            assertThat(registry.get("zaris.client.map.refreshes").tag("trigger", "hint").counter().count()).isEqualTo(1);
        }
    }

    private static void runChurn(ZarisClient client, String prefix) throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Throwable> surfaced = new ConcurrentLinkedQueue<>();
        AtomicLong operations = new AtomicLong();
        ExecutorService workers = Executors.newFixedThreadPool(8);
        for (int w = 0; w < 8; w++) {
            int worker = w;
            workers.submit(() -> {
                int i = 0;
                while (running.get()) {
                    String key = prefix + worker + "-" + (i++ % 200);
                    try {
                        client.sync().put(key, utf8("v" + i));
                        Optional<?> ignored = client.sync().get(key);
                        operations.addAndGet(2);
                    } catch (RuntimeException e) {
                        surfaced.add(e);
                    }
                }
            });
        }
        ClusterView view = cluster.nodes().get(0).currentView();
        for (int round = 0; round < 20; round++) {
            int partition = (round * 37) % view.layout().partitionCount();
            handOver(partition);
            Thread.sleep(50); // let the workers hit the moved partition between hand-overs (pacing, not a race fix)
        }
        running.set(false);
        workers.shutdown();
        assertThat(workers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        assertThat(surfaced).as("failures surfaced to application code").isEmpty();
        assertThat(operations.get()).isGreaterThan(100);
    }

    /** Moves the partition's active owner to its other assigned node, through the leader. */
    private static void handOver(int partition) throws Exception {
        ZarisNode leader = cluster.leader();
        ClusterView view = leader.currentView();
        String active = view.runtimeMap().get(partition).activeNode();
        String target = view.partitionMap().ownersOf(partition).stream().filter(n -> !n.equals(active)).findFirst()
                .orElseThrow();
        leader.handOver(partition, target).get(10, TimeUnit.SECONDS);
    }

    private static boolean allNodesAgree() {
        ClusterView first = cluster.nodes().get(0).currentView();
        return cluster.nodes().stream().allMatch(node -> node.currentView().equals(first));
    }

    private static boolean sameRuntime(ZarisClient client) {
        return allNodesAgree() && client.clusterView().runtimeMap().equals(cluster.nodes().get(0).currentView().runtimeMap());
    }

    private static int partitionOf(ZarisClient client, String key) {
        ClusterView view = client.clusterView();
        int segment = new SegmentMapper(view.layout().segmentCount()).segmentOf(key);
        return view.layout().partitionOf(segment);
    }

    private static List<String> keysOfOnePartition(ZarisClient client, String prefix, int count) {
        int target = partitionOf(client, prefix + 0);
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < count; i++) {
            if (partitionOf(client, prefix + i) == target) {
                keys.add(prefix + i);
            }
        }
        return keys;
    }

    private static ZarisClientOptions.Builder options() {
        return ZarisClientOptions.builder().seeds(cluster.seeds()).environment(Map.of());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
