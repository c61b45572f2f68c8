package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.PartitionHealth;
import io.zaris.model.VersionedValue;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ZarisNode;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Stop the active owner of a partition while a writer records every acknowledged SYNC write: writes
 * resume on the promoted replica and every acknowledged write reads back afterwards.
 */
@Tag("in-process-cluster")
class FailoverIntegrationTests {

    private static final ReplicationSettings FAST = ReplicationSettings.defaults()
            .withEvictionDelay(Duration.ofSeconds(2))
            .withHealCooldown(Duration.ofSeconds(1));

    @Test
    void replicationFactorThreeKeepsWritingThroughTheLossOfAnOwner() throws Exception {
        runOwnerLoss(3);
    }

    @Test
    void replicationFactorTwoResumesWritesAfterTheLostReplicaIsReplaced() throws Exception {
        runOwnerLoss(2);
    }

    @Test
    void whenTheLeaderItselfStopsTheNextLeaderFailsItsPartitionsOver() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(3)
                .layout(PartitionLayout.of(64, 8)).replication(FAST).build().start();
             ZarisClient client = ZarisClient.connect(options(cluster))) {
            for (int i = 0; i < 200; i++) {
                client.sync().put("k" + i, utf8("v" + i));
            }
            String oldLeader = cluster.leader().nodeId();
            cluster.stopNode(oldLeader);
            await().atMost(Duration.ofSeconds(30)).until(() -> noPartitionServedBy(cluster, oldLeader));
            assertThat(cluster.leader().nodeId()).isNotEqualTo(oldLeader);
            for (int i = 0; i < 200; i++) {
                assertThat(text(client.sync().get("k" + i))).isEqualTo("v" + i);
                client.sync().put("k" + i, utf8("w" + i));
            }
        }
    }

    @Test
    void aRestartedNodeCatchesUpAndOwnershipFailsBackToIt() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).replication(FAST.withEvictionDelay(Duration.ofMinutes(5))).build().start();
             ZarisClient client = ZarisClient.connect(options(cluster))) {
            for (int i = 0; i < 300; i++) {
                client.sync().put("k" + i, utf8("v" + i));
            }
            ClusterView before = client.clusterView();
            cluster.stopNode("node-2");
            await().atMost(Duration.ofSeconds(30)).until(() -> noPartitionServedBy(cluster, "node-2"));
            for (int i = 0; i < 300; i += 3) {
                assertThat(text(client.sync().get("k" + i))).isEqualTo("v" + i);
            }
            cluster.restartNode("node-2");
            // Every node learns the restarted node's new data port (peers re-broadcasting their views
            // with the old one must not win), else heal probes and clients would knock on a closed port.
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.nodes().stream()
                    .allMatch(n -> cluster.node("node-2").dataAddress().equals(n.currentView().addresses().get("node-2"))));
            // Healing: every partition whose preferred primary is node-2 goes back to it, HEALTHY, in sync.
            await().atMost(Duration.ofSeconds(120)).until(() -> allHealthyOnPrimaries(cluster));
            ClusterView after = cluster.leader().currentView();
            assertThat(after.partitionMap()).isEqualTo(before.partitionMap());
            for (int i = 0; i < 300; i++) {
                assertThat(text(client.sync().get("k" + i))).as("k" + i).isEqualTo("v" + i);
            }
        }
    }

    @Test
    void losingAReplicaMarksItsPartitionsDegradedAtOnceAndHealingRestoresThem() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).replication(FAST.withEvictionDelay(Duration.ofMinutes(5))).build().start();
             ZarisClient client = ZarisClient.connect(options(cluster))) {
            client.sync().put("k", utf8("v"));
            String leader = cluster.leader().nodeId();
            ClusterView before = cluster.leader().currentView();
            String replica = cluster.nodes().stream().map(n -> n.nodeId()).filter(n -> !n.equals(leader)).findFirst().orElseThrow();
            cluster.stopNode(replica);
            // partitions that keep their active but had the stopped node as a replica: DEGRADED, same active
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                ClusterView view = cluster.leader().currentView();
                for (int p = 0; p < view.layout().partitionCount(); p++) {
                    boolean lostReplica = before.partitionMap().ownersOf(p).contains(replica)
                            && !replica.equals(before.runtimeMap().get(p).activeNode());
                    if (lostReplica && (view.runtimeMap().get(p).health() != PartitionHealth.DEGRADED
                            || !view.runtimeMap().get(p).activeNode().equals(before.runtimeMap().get(p).activeNode()))) {
                        return false;
                    }
                }
                return true;
            });
            assertThat(text(client.sync().get("k"))).isEqualTo("v");
            cluster.restartNode(replica);
            await().atMost(Duration.ofSeconds(120)).until(() -> allHealthyOnPrimaries(cluster));
        }
    }

    @Test
    void byDefaultAPartitionThatLostItsReplicaAcknowledgesSyncWritesOnItsOwnerAloneAndCountsThem() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8))
                .replication(FAST.withEvictionDelay(Duration.ofMinutes(5))).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).disableRetries(true).build())) {
            KeyWithReplica chosen = keyWhoseReplicaDoesNotLead(client.clusterView(), cluster.leader().nodeId());
            ZarisNode activeNode = cluster.node(chosen.active());
            cluster.stopNode(chosen.replica());
            String k = chosen.key();
            // One attempt each, no retries: the write is acknowledged, not refused, once the replica is gone.
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                client.sync().put(k, utf8("sync"));
                return true;
            });
            assertThat(text(client.sync().get(k))).isEqualTo("sync");
            assertThat(activeNode.reducedRedundancyWrites()).as("writes acknowledged with reduced redundancy").isPositive();
        }
    }

    @Test
    void underTheStrictOptionAWriteChoosesItsOwnAcknowledgementMode() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8))
                .replication(FAST.withEvictionDelay(Duration.ofMinutes(5)).withMinSyncReplicas(1)).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).disableRetries(true).build())) {
            KeyWithReplica chosen = keyWhoseReplicaDoesNotLead(client.clusterView(), cluster.leader().nodeId());
            cluster.stopNode(chosen.replica());
            String k = chosen.key();
            // SYNC (the cluster's mode) with min-sync-replicas 1 cannot be acknowledged without the replica:
            // refused before it applies
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                try {
                    client.sync().put(k, utf8("sync"));
                    return false;
                } catch (ZarisStatusException e) {
                    return e.status() == KvStatus.UNAVAILABLE;
                }
            });
            // the same write asking for ASYNC is acknowledged by the active owner alone
            client.sync().put(k, utf8("async"), null, AckMode.ASYNC);
            assertThat(text(client.sync().get(k))).isEqualTo("async");
            assertThat(client.sync().delete(k, AckMode.ASYNC)).isTrue();
        }
    }

    @Test
    void aPartitionWithEveryOwnerDownAnswersUnavailableNeverAbsent() throws Exception {
        // Five nodes, RF 2: stopping both owners of one partition leaves a majority, so the leader marks that
        // partition UNAVAILABLE (the eviction delay is far away) while every other partition keeps serving.
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(5).replicationFactor(2)
                .layout(PartitionLayout.of(64, 16)).replication(FAST.withEvictionDelay(Duration.ofMinutes(5)))
                .build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).requestTimeout(Duration.ofSeconds(5)).build())) {
            for (int i = 0; i < 200; i++) {
                client.sync().put("k" + i, utf8("v" + i));
            }
            ClusterView view = client.clusterView();
            SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
            String leader = cluster.leader().nodeId();
            int partition = -1;
            for (int p = 0; p < view.layout().partitionCount() && partition < 0; p++) {
                if (!view.partitionMap().ownersOf(p).contains(leader)) {
                    partition = p;
                }
            }
            int lost = partition;
            String inLost = null;
            String elsewhere = null;
            for (int i = 0; i < 200; i++) {
                int p = view.layout().partitionOf(mapper.segmentOf("k" + i));
                if (p == lost && inLost == null) {
                    inLost = "k" + i;
                } else if (p != lost && !view.partitionMap().ownersOf(p).stream()
                        .anyMatch(view.partitionMap().ownersOf(lost)::contains) && elsewhere == null) {
                    elsewhere = "k" + i;
                }
            }
            assertThat(inLost).isNotNull();
            assertThat(elsewhere).isNotNull();
            for (String owner : view.partitionMap().ownersOf(lost)) {
                cluster.stopNode(owner);
            }
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    cluster.leader().currentView().runtimeMap().get(lost).health() == PartitionHealth.UNAVAILABLE);
            String missing = inLost;
            // The client waits on the map for an owner within its 5 s deadline, then fails; the last attempt's
            // failure (attached to the timeout) must say UNAVAILABLE: never an answer, never "absent".
            Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> client.sync().get(missing));
            assertThat(failure).as("a key whose every owner is down was answered").isNotNull();
            Throwable last = failure instanceof io.zaris.transport.ZarisTimeoutException timeout
                    && timeout.getSuppressed().length > 0 ? timeout.getSuppressed()[0] : failure;
            assertThat(last).isInstanceOfSatisfying(ZarisStatusException.class,
                    e -> assertThat(e.status()).as("answer for a partition without a live owner").isEqualTo(KvStatus.UNAVAILABLE));
            assertThat(text(client.sync().get(elsewhere))).as("a partition whose owners are alive")
                    .isEqualTo("v" + elsewhere.substring(1));
        }
    }

    private static void runOwnerLoss(int replicationFactor) throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(replicationFactor)
                .layout(PartitionLayout.of(64, 8)).replication(FAST).build().start();
             ZarisClient client = ZarisClient.connect(options(cluster))) {
            String victim = cluster.nodes().stream().filter(n -> !n.isLeader()).findFirst().orElseThrow().nodeId();
            Map<String, String> acknowledged = new ConcurrentHashMap<>();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong acknowledgedAfterStop = new AtomicLong();
            AtomicBoolean stopped = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                long sequence = 0;
                while (running.get()) {
                    String key = "key-" + (sequence % 400);
                    String value = "value-" + sequence++;
                    try {
                        client.sync().put(key, utf8(value));
                        acknowledged.put(key, value);
                        if (stopped.get() && ownedBefore(cluster, victim, key)) {
                            acknowledgedAfterStop.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        // not acknowledged: the key keeps its previous acknowledged value or gets this one
                        acknowledged.computeIfPresent(key, (k, previous) -> previous);
                    }
                }
            }, "writer");
            victimOwned = client.clusterView();
            writer.start();
            Thread.sleep(500);
            cluster.stopNode(victim);
            stopped.set(true);
            await().atMost(Duration.ofSeconds(30)).until(() -> acknowledgedAfterStop.get() > 50);
            running.set(false);
            writer.join(30_000);
            for (Map.Entry<String, String> write : acknowledged.entrySet()) {
                Optional<VersionedValue> read = client.sync().get(write.getKey());
                assertThat(read).as("acknowledged write of " + write.getKey()).isPresent();
                long readSequence = sequenceOf(text(read));
                assertThat(readSequence).as(write.getKey()).isGreaterThanOrEqualTo(sequenceOf(write.getValue()));
            }
        }
    }

    /** The view before the stop, to tell which keys the victim served. */
    private static volatile ClusterView victimOwned;

    private static boolean ownedBefore(EmbeddedCluster cluster, String victim, String key) {
        ClusterView view = victimOwned;
        int segment = new SegmentMapper(view.layout().segmentCount()).segmentOf(key);
        return victim.equals(view.runtimeOfSegment(segment).activeNode());
    }

    private static boolean noPartitionServedBy(EmbeddedCluster cluster, String node) {
        ClusterView view = cluster.leader().currentView();
        return view.runtimeMap().partitions().stream().noneMatch(p -> node.equals(p.activeNode()))
                && view.runtimeMap().partitions().stream().allMatch(p -> p.health().isServing());
    }

    private static boolean allHealthyOnPrimaries(EmbeddedCluster cluster) {
        ClusterView view = cluster.leader().currentView();
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (view.runtimeMap().get(p).health() != PartitionHealth.HEALTHY
                    || !view.partitionMap().primaryOf(p).equals(view.runtimeMap().get(p).activeNode())) {
                return false;
            }
        }
        return true;
    }

    /** A key, its partition's active owner and its (one) replica. */
    private record KeyWithReplica(String key, String active, String replica) {
    }

    /** A key whose partition's replica is not the leader, so stopping the replica leaves the leader in place (RF 2). */
    private static KeyWithReplica keyWhoseReplicaDoesNotLead(ClusterView view, String leader) {
        SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
        for (int i = 0; ; i++) {
            int p = view.layout().partitionOf(mapper.segmentOf("k" + i));
            String active = view.runtimeMap().get(p).activeNode();
            String other = view.partitionMap().ownersOf(p).stream().filter(n -> !n.equals(active)).findFirst().orElseThrow();
            if (!other.equals(leader)) {
                return new KeyWithReplica("k" + i, active, other);
            }
        }
    }

    private static long sequenceOf(String value) {
        return Long.parseLong(value.substring(value.indexOf('-') + 1));
    }

    private static ZarisClientOptions options(EmbeddedCluster cluster) {
        return ZarisClientOptions.builder().seeds(cluster.seeds()).environment(Map.of()).build();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Optional<VersionedValue> value) {
        return new String(value.orElseThrow().value(), StandardCharsets.UTF_8);
    }
}
