package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.cluster.MembershipConfig;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.server.NodeConfig;
import io.zaris.server.ZarisNode;
import io.zaris.transport.NodeConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * SYNC writes sent the moment a fresh cluster's nodes hold the first map and see each other, while the active owners'
 * replication links to one replica are still opening: each write, once acknowledged, must already be on every replica
 * of its partition that its owner's membership saw. That replica's data port is behind a relay that lets every
 * connection talk only after a delay, as over a slow network, so its links open well after the map (a CI run saw
 * 0.5 s). The nodes are started here rather than by {@link EmbeddedCluster#start()}, which waits for the links.
 */
@Tag("in-process-cluster")
class FreshClusterSyncWriteIntegrationTests {

    private static final int NODES = 3;
    private static final int KEYS = 600;
    /** The replica every connection to which starts this late: shorter than a link's handshake timeout (2 s). */
    private static final Duration SLOW_START = Duration.ofMillis(1200);
    private static final String SLOW_REPLICA = "node-3";

    @Test
    void aSyncWriteAcknowledgedBeforeTheLinksOpenedIsOnEveryLiveReplica() throws Exception {
        EmbeddedCluster cluster = threeReplicaCluster();
        Map<String, ZarisNode> nodes = new HashMap<>();
        Map<String, NodeConnection> writers = new HashMap<>();
        int slowPort = freePort();
        try (SlowAcceptRelay relay = new SlowAcceptRelay(slowPort, SLOW_START)) {
            for (int i = 1; i < NODES; i++) {
                ZarisNode node = new ZarisNode(cluster.nodeConfig(i)).start();
                nodes.put(node.nodeId(), node);
            }
            nodes.put(SLOW_REPLICA, startSlowReplica(cluster, slowPort, relay));
            // The writers' connections open while the cluster forms, so the writes leave as soon as it has a map. Only
            // the other nodes are written to: the slow replica is the one their writes must not leave out.
            for (ZarisNode node : nodes.values()) {
                if (!node.nodeId().equals(SLOW_REPLICA)) {
                    writers.put(node.nodeId(), openWriter(node));
                }
            }
            awaitEveryNodeSeesTheOthers(nodes);
            int notReadyWhenSent = 0;
            for (ZarisNode node : nodes.values()) {
                notReadyWhenSent += node.isReplicationReady() ? 0 : 1;
            }

            ClusterView view = nodes.values().iterator().next().currentView();
            SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
            // Filled by the answers' callbacks, on the writers' event loops.
            ConcurrentLinkedQueue<String> missing = new ConcurrentLinkedQueue<>();
            AtomicInteger acknowledged = new AtomicInteger();
            List<CompletableFuture<KvStatus>> answers = new ArrayList<>();
            for (int i = 0; answers.size() < KEYS; i++) {
                byte[] key = ("fresh-" + i).getBytes(StandardCharsets.UTF_8);
                int segment = mapper.segmentOf(key);
                int partition = view.layout().partitionOf(segment);
                String active = view.runtimeMap().get(partition).activeNode();
                if (active.equals(SLOW_REPLICA)) {
                    continue;
                }
                answers.add(writers.get(active).send(id -> new Request.Put(id, key, key, Request.NO_TTL, false,
                                        Request.ANY_VERSION, AckMode.SYNC), (status, body) -> status, 0, 0,
                                System.nanoTime() + TimeUnit.SECONDS.toNanos(20))
                        .whenComplete((status, error) -> {
                            if (status != KvStatus.OK) {
                                return;
                            }
                            acknowledged.incrementAndGet();
                            // Checked the moment the acknowledgement arrives: a replica synced later would hide it.
                            Set<String> seen = nodes.get(active).presentNodeIds();
                            for (String replica : view.partitionMap().ownersOf(partition)) {
                                if (!replica.equals(active) && seen.contains(replica)
                                        && !holds(nodes.get(replica), segment, key)) {
                                    missing.add(new String(key, StandardCharsets.UTF_8) + " acknowledged by " + active
                                            + " but not on " + replica);
                                }
                            }
                        }));
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            System.out.printf("%d SYNC writes sent with %d of %d nodes not yet replication-ready: %d acknowledged, %d of"
                    + " them not on a live replica when acknowledged%n", KEYS, notReadyWhenSent, NODES, acknowledged.get(),
                    missing.size());
            assertThat(acknowledged.get()).as("SYNC writes acknowledged").isEqualTo(KEYS);
            assertThat(missing).as("acknowledged SYNC writes missing from a live replica").isEmpty();
            long reduced = 0;
            for (String writer : writers.keySet()) {
                reduced += nodes.get(writer).reducedRedundancyWrites();
            }
            assertThat(reduced).as("writes acknowledged with reduced redundancy").isZero();
            for (String writer : writers.keySet()) {
                // Each wait's verdict came before its write's acknowledgement, and cancelled the wait's deadline task.
                assertThat(nodes.get(writer).replicaWaitDeadlinesQueued()).as("deadline tasks of settled waits on %s",
                        writer).isZero();
            }
        } finally {
            writers.values().forEach(NodeConnection::close);
            nodes.values().forEach(ZarisNode::close);
        }
    }

    @Test
    void anAsyncWriteWhileTheLinksOpenWaitsForNoReplica() throws Exception {
        EmbeddedCluster cluster = threeReplicaCluster();
        Map<String, ZarisNode> nodes = new HashMap<>();
        Map<String, NodeConnection> writers = new HashMap<>();
        int slowPort = freePort();
        try (SlowAcceptRelay relay = new SlowAcceptRelay(slowPort, SLOW_START)) {
            for (int i = 1; i < NODES; i++) {
                ZarisNode node = new ZarisNode(cluster.nodeConfig(i)).start();
                nodes.put(node.nodeId(), node);
                writers.put(node.nodeId(), openWriter(node));
            }
            nodes.put(SLOW_REPLICA, startSlowReplica(cluster, slowPort, relay));
            awaitEveryNodeSeesTheOthers(nodes);

            ClusterView view = nodes.values().iterator().next().currentView();
            SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
            List<CompletableFuture<KvStatus>> answers = new ArrayList<>();
            for (int i = 0; answers.size() < KEYS; i++) {
                byte[] key = ("fresh-async-" + i).getBytes(StandardCharsets.UTF_8);
                String active = view.runtimeMap().get(view.layout().partitionOf(mapper.segmentOf(key))).activeNode();
                if (active.equals(SLOW_REPLICA)) {
                    continue;
                }
                answers.add(writers.get(active).send(id -> new Request.Put(id, key, key, Request.NO_TTL, false,
                                Request.ANY_VERSION, AckMode.ASYNC), (status, body) -> status, 0, 0,
                        System.nanoTime() + TimeUnit.SECONDS.toNanos(20)));
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            boolean linksStillOpening = writers.keySet().stream().anyMatch(id -> !nodes.get(id).isReplicationReady());

            assertThat(answers).allSatisfy(answer -> assertThat(answer.join()).isEqualTo(KvStatus.OK));
            assertThat(linksStillOpening).as("a writer's link to the slow replica was still opening after the answers,"
                    + " so every write was shipped while it opened").isTrue();
            for (String writer : writers.keySet()) {
                assertThat(nodes.get(writer).writesWaitedForReplicaLinks()).as("ASYNC writes on %s that waited for a"
                        + " replica's link", writer).isZero();
                assertThat(nodes.get(writer).replicaWaitDeadlinesQueued()).as("wait deadlines queued on %s", writer)
                        .isZero();
            }
            // Nobody waited, yet every write reaches the slow replica: in its segments' snapshots once its links open.
            await().atMost(Duration.ofSeconds(30)).until(() -> nodes.values().stream().allMatch(ZarisNode::isReplicationReady));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (int i = 0, checked = 0; checked < KEYS; i++) {
                    byte[] key = ("fresh-async-" + i).getBytes(StandardCharsets.UTF_8);
                    int segment = mapper.segmentOf(key);
                    if (view.runtimeMap().get(view.layout().partitionOf(segment)).activeNode().equals(SLOW_REPLICA)) {
                        continue;
                    }
                    checked++;
                    assertThat(holds(nodes.get(SLOW_REPLICA), segment, key)).as("%s on the slow replica",
                            new String(key, StandardCharsets.UTF_8)).isTrue();
                }
            });
        } finally {
            writers.values().forEach(NodeConnection::close);
            nodes.values().forEach(ZarisNode::close);
        }
    }

    private static EmbeddedCluster threeReplicaCluster() {
        return EmbeddedCluster.builder().nodes(NODES).replicationFactor(3).layout(PartitionLayout.of(64, 16)).build();
    }

    /** Its peers reach the slow replica through the relay: the address it announces is the relay's. */
    private static ZarisNode startSlowReplica(EmbeddedCluster cluster, int slowPort, SlowAcceptRelay relay)
            throws Exception {
        return new ZarisNode(NodeConfig.builder(SLOW_REPLICA).host("127.0.0.1").port(slowPort)
                .advertisedPort(relay.port()).clusterSettings(cluster.settings())
                .membership(new MembershipConfig.InJvm(cluster.clusterName())).build()).start();
    }

    private static NodeConnection openWriter(ZarisNode node) throws Exception {
        return NodeConnection.open(node.dataAddress(), "fresh-cluster-writer", Duration.ofSeconds(5),
                Duration.ofSeconds(5), KEYS, ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, event -> { }, lost -> { })
                .get(10, TimeUnit.SECONDS);
    }

    private static void awaitEveryNodeSeesTheOthers(Map<String, ZarisNode> nodes) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1)).until(() ->
                nodes.values().stream().allMatch(node -> node.currentView() != null
                        && node.presentNodeIds().containsAll(nodes.keySet())));
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    private static boolean holds(ZarisNode node, int segment, byte[] key) {
        for (byte[] stored : node.segmentKeys(segment)) {
            if (Arrays.equals(stored, key)) {
                return true;
            }
        }
        return false;
    }
}
