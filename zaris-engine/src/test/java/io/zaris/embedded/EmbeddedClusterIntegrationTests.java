package io.zaris.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ClusterScenario;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.server.ZarisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("in-process-cluster")
class EmbeddedClusterIntegrationTests {

    private static EmbeddedCluster cluster;
    private static ZarisClient client;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCluster.builder().nodes(3).build().start();
        // Direct read sockets off: theClientKeepsExactlyOneConnectionPerNode counts the pipelined connections
        // (DirectRequestsIntegrationTests bounds the direct ones).
        client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).directReadConnectionsPerNode(0)
                .build());
    }

    @AfterAll
    static void stopCluster() {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyNodeHoldsTheSameFirstPartitionMapWithBalancedPrimaries() {
        ClusterView first = cluster.nodes().get(0).currentView();
        assertThat(first.partitionMap().version()).isEqualTo(1);
        for (ZarisNode node : cluster.nodes()) {
            assertThat(node.currentView()).isEqualTo(first);
        }
        assertThat(first.addresses()).containsOnlyKeys("node-1", "node-2", "node-3");
        int partitions = first.layout().partitionCount();
        for (String node : first.addresses().keySet()) {
            long primaries = first.runtimeMap().partitions().stream().filter(p -> node.equals(p.activeNode())).count();
            assertThat(primaries).isLessThanOrEqualTo((partitions + 2) / 3);
        }
    }

    @Test
    void theClusterMapNamesTheLeaderForNodesAndClients() {
        String leader = cluster.nodes().stream().filter(ZarisNode::isLeader).map(ZarisNode::nodeId)
                .findFirst().orElseThrow();
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (ZarisNode node : cluster.nodes()) {
                assertThat(node.currentView().leader()).isEqualTo(leader);
            }
            assertThat(client.refreshMap().join().leader()).isEqualTo(leader);
            assertThat(client.clusterView().leader()).isEqualTo(leader);
        });
    }

    @Test
    void endToEndOperationsWork() {
        ClusterScenario.exercise(client, "e2e-");
    }

    @Test
    void everyGetIsAnsweredByTheOwnerOnTheFirstHop() {
        for (int i = 0; i < 300; i++) {
            client.sync().put("hop-" + i, ClusterScenario.utf8("v" + i));
        }
        long servedBefore = totalServed();
        long wrongNodeBefore = totalWrongNode();
        Set<String> ownersUsed = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            assertThat(client.sync().get("hop-" + i)).isPresent();
            ownersUsed.add(client.ownerOf("hop-" + i));
        }
        assertThat(totalServed() - servedBefore).isEqualTo(300);
        assertThat(totalWrongNode() - wrongNodeBefore).isZero();
        assertThat(ownersUsed).hasSize(3);
    }

    @Test
    void theClientKeepsExactlyOneConnectionPerNodeThroughAWorkload() {
        ClusterScenario.exercise(client, "one-connection-");
        for (int i = 0; i < 300; i++) {
            client.sync().put("conn-" + i, ClusterScenario.utf8("v" + i));
            assertThat(client.sync().get("conn-" + i)).isPresent();
        }
        assertThat(client.sync().scanKeys()).contains("conn-0", "conn-299");

        for (ZarisNode node : cluster.nodes()) {
            // The client's bootstrap connection to its seed is kept as that node's connection, not opened twice.
            assertThat(node.stats().clientConnectionsOpened()).as("client connections to %s", node.nodeId()).isEqualTo(1);
            // Replication links from the other nodes are counted apart, so they cannot hide in the client count.
            assertThat(node.stats().peerConnectionsOpened()).as("peer connections to %s", node.nodeId()).isPositive();
        }
    }

    @Test
    void scanKeyPagesShouldVisitEveryKeyWithOnePageInFlightPerNodeWhileThePagesAreDeleted() throws Exception {
        String prefix = "pages-";
        for (int i = 0; i < 3000; i++) {
            client.sync().put(prefix + i, ClusterScenario.utf8("v"));
        }
        Set<String> visited = ConcurrentHashMap.newKeySet();
        AtomicInteger pages = new AtomicInteger();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        AtomicInteger largestPage = new AtomicInteger();

        client.scanKeyPages(page -> {
            pages.incrementAndGet();
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            largestPage.accumulateAndGet(page.size(), Math::max);
            List<CompletableFuture<Boolean>> deletes = new ArrayList<>();
            for (String key : page) {
                if (key.startsWith(prefix)) {
                    visited.add(key);
                    deletes.add(client.delete(key));
                }
            }
            return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).thenRun(inFlight::decrementAndGet);
        }).get(60, TimeUnit.SECONDS);

        assertThat(visited).hasSize(3000);
        // Each node's ~1000+ keys take at least two pages of about 1000 (whole segments of a few keys each).
        assertThat(pages.get()).isGreaterThan(cluster.nodes().size());
        assertThat(largestPage.get()).isLessThan(1100);
        assertThat(maxInFlight.get()).isBetween(1, cluster.nodes().size());
        // Deleting the keys of each page as it was visited made no later page skip a key.
        assertThat(client.sync().scanKeys()).noneMatch(key -> key.startsWith(prefix));
    }

    private static long totalServed() {
        return cluster.nodes().stream().mapToLong(node -> node.stats().requestsServed()).sum();
    }

    private static long totalWrongNode() {
        return cluster.nodes().stream().mapToLong(node -> node.stats().wrongNodeReplies()).sum();
    }
}
