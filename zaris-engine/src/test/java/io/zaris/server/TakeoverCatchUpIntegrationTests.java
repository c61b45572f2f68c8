package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import io.zaris.store.ApplyResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The split-tail case of a SYNC failover made deterministic. With RF 3 a SYNC write is acknowledged once
 * one replica applied it, so when the active dies one replica may hold the newest acknowledged change of
 * one segment and the other that of another segment. The test injects exactly that state (a removal only
 * replica B applied, a put only replica C applied, both under the partition's current epoch, as the
 * active's links would have delivered them), stops the active, and requires both changes to survive
 * whichever replica the leader promotes: the new active must pull the other's tail before serving. Two
 * injections make the leader promote each side in turn (it prefers the replica holding more keys).
 */
@Tag("in-process-cluster")
class TakeoverCatchUpIntegrationTests {

    private static final int KEYS = 640;

    @Test
    void aPromotedReplicaWithTheMoreKeysRecoversTheRemovalOnlyItsFellowApplied() throws Exception {
        // B alone applied a removal (one key fewer), C alone a new key: the leader promotes C.
        runScenario((b, c) -> {
            applyOnly(b.replica(), b.firstSegment(), b.epoch(), utf8(b.existingKeyInFirstSegment()), null);
            applyOnly(c.replica(), c.lastSegment(), c.epoch(), utf8(c.newKeyInLastSegment()), utf8("only-on-c"));
        }, (client, b, c) -> {
            assertThat(client.sync().get(b.existingKeyInFirstSegment())).as("removal only B applied").isEmpty();
            assertThat(client.sync().get(c.newKeyInLastSegment())).as("put only C applied")
                    .hasValueSatisfying(v -> assertThat(text(v.value())).isEqualTo("only-on-c"));
        });
    }

    @Test
    void aPromotedReplicaWithTheMoreKeysRecoversTheOverwriteOnlyItsFellowApplied() throws Exception {
        // B alone applied a new key (one key more), C alone an overwrite: the leader promotes B.
        runScenario((b, c) -> {
            applyOnly(b.replica(), b.firstSegment(), b.epoch(), utf8(b.newKeyInFirstSegment()), utf8("only-on-b"));
            applyOnly(c.replica(), c.lastSegment(), c.epoch(), utf8(c.existingKeyInLastSegment()), utf8("overwritten-on-c"));
        }, (client, b, c) -> {
            assertThat(client.sync().get(b.newKeyInFirstSegment())).as("put only B applied")
                    .hasValueSatisfying(v -> assertThat(text(v.value())).isEqualTo("only-on-b"));
            assertThat(client.sync().get(c.existingKeyInLastSegment())).as("overwrite only C applied")
                    .hasValueSatisfying(v -> assertThat(text(v.value())).isEqualTo("overwritten-on-c"));
        });
    }

    @Test
    void aPlannedHandOverTakesTheChangesOnlyThePreviousActiveHolds() throws Exception {
        // The active alone holds a change (a write acknowledged while the hand-over was being published):
        // the new active must pull it from the previous active before serving, and the previous active must
        // refuse further writes of its epoch once pulled.
        withCluster((client, nodes, leader, partition, runtime, mapper) -> {
            ZarisNode active = node(nodes, runtime.activeNode());
            ClusterView view = client.clusterView();
            int last = view.layout().lastSegmentOf(partition);
            String newKey = keyInSegment(mapper, last, "handed-", Integer.MAX_VALUE);
            applyOnly(active, last, runtime.epoch(), utf8(newKey), utf8("only-on-the-previous-active"));
            String target = view.partitionMap().ownersOf(partition).stream()
                    .filter(owner -> !owner.equals(active.nodeId())).findFirst().orElseThrow();

            long epoch = leader.handOver(partition, target).get(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() -> node(nodes, target).currentView().runtimeMap().get(partition)
                    .epoch() == epoch && !node(nodes, target).isCatchingUp(partition));
            client.refreshMap().get(10, TimeUnit.SECONDS);
            assertThat(client.sync().get(newKey)).as("change only the previous active held")
                    .hasValueSatisfying(v -> assertThat(text(v.value())).isEqualTo("only-on-the-previous-active"));
            assertThat(active.store().put(last, utf8(newKey), utf8("late"), 0, false, -1, runtime.epoch()).status())
                    .as("a write of the previous epoch on the previous active, after the pull")
                    .isEqualTo(io.zaris.model.KvStatus.OWNERSHIP_CHANGING);
        });
    }

    @Test
    void aHandOverWhoseEpochMovesOnWhileItPullsStillGetsThePreviousActivesChanges() throws Exception {
        // The view moves on (same new active, one epoch more) right after the hand-over: the previous active
        // fences pulls under the hand-over's epoch, so the new active must pull under the newest one.
        withCluster((client, nodes, leader, partition, runtime, mapper) -> {
            ZarisNode active = node(nodes, runtime.activeNode());
            ClusterView view = client.clusterView();
            int last = view.layout().lastSegmentOf(partition);
            String newKey = keyInSegment(mapper, last, "handed-", Integer.MAX_VALUE);
            applyOnly(active, last, runtime.epoch(), utf8(newKey), utf8("only-on-the-previous-active"));
            String target = view.partitionMap().ownersOf(partition).stream()
                    .filter(owner -> !owner.equals(active.nodeId())).findFirst().orElseThrow();

            leader.handOver(partition, target).get(10, TimeUnit.SECONDS);
            long newest = leader.handOver(partition, target).get(10, TimeUnit.SECONDS);
            // well inside the catch-up's 15 s give-up: a pull fenced under the older epoch would still be retrying
            await().atMost(Duration.ofSeconds(8)).until(() -> node(nodes, target).currentView().runtimeMap().get(partition)
                    .epoch() == newest && !node(nodes, target).isCatchingUp(partition));
            client.refreshMap().get(10, TimeUnit.SECONDS);
            assertThat(client.sync().get(newKey)).as("change only the previous active held")
                    .hasValueSatisfying(v -> assertThat(text(v.value())).isEqualTo("only-on-the-previous-active"));
        });
    }

    @Test
    void aPromotedReplicaWithFewerKeysThanALiveSiblingRecoversBeforeItServes() throws Exception {
        // C holds one key more than B, but B has more segments synced: the leader promotes B, and the
        // possession proof makes it RECOVERING until it pulled C's newer changes; only then does it serve.
        withCluster((client, nodes, leader, partition, runtime, mapper) -> {
            ZarisNode active = node(nodes, runtime.activeNode());
            ClusterView view = client.clusterView();
            List<ZarisNode> replicas = nodes.stream().filter(n -> n != active).toList();
            ZarisNode c = replicas.stream().filter(n -> n != leader).findFirst().orElseThrow();
            int first = view.layout().firstSegmentOf(partition);
            int last = view.layout().lastSegmentOf(partition);
            String extraKey = keyInSegment(mapper, first, "recovered-", Integer.MAX_VALUE);
            applyOnly(c, first, runtime.epoch(), utf8(extraKey), utf8("only-on-the-sibling"));
            c.forgetSynced(last);

            List<PartitionHealth> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicBoolean watching = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread watcher = new Thread(() -> {
                while (watching.get()) {
                    PartitionRuntime now = leader.currentView().runtimeMap().get(partition);
                    if (now.epoch() > runtime.epoch() && (seen.isEmpty() || seen.get(seen.size() - 1) != now.health())) {
                        seen.add(now.health());
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // sampling, not synchronising
                }
            });
            watcher.start();
            try {
                active.close();
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    PartitionRuntime now = leader.currentView().runtimeMap().get(partition);
                    return now.epoch() > runtime.epoch() && now.health().isServing();
                });
            } finally {
                watching.set(false);
                watcher.join();
            }
            PartitionRuntime serving = leader.currentView().runtimeMap().get(partition);
            assertThat(serving.activeNode()).as("the replica with every segment synced").isNotEqualTo(c.nodeId());
            assertThat(seen).as("health of the partition after the active died").startsWith(PartitionHealth.RECOVERING)
                    .contains(PartitionHealth.DEGRADED);
            client.refreshMap().get(10, TimeUnit.SECONDS);
            assertThat(client.sync().get(extraKey)).as("the change only the sibling held")
                    .hasValueSatisfying(v -> assertThat(text(v.value())).isEqualTo("only-on-the-sibling"));
        });
    }

    private interface ClusterCheck {
        void run(ZarisClient client, List<ZarisNode> nodes, ZarisNode leader, int partition, PartitionRuntime runtime,
                 SegmentMapper mapper) throws Exception;
    }

    /** {@link #withCluster(Duration, ClusterCheck)} with no heal during the test. */
    private void withCluster(ClusterCheck check) throws Exception {
        withCluster(Duration.ofMinutes(10), check);
    }

    /**
     * Three nodes, RF 3, {@link #KEYS} keys written, a partition whose active is not the leader and whose
     * replicas both hold every change the active shipped (so a divergence the check injects is all there is).
     */
    private void withCluster(Duration healCooldown, ClusterCheck check) throws Exception {
        ReplicationSettings replication = ReplicationSettings.defaults().withHealCooldown(healCooldown)
                .withEvictionDelay(Duration.ofMinutes(10));
        try (InJvmCluster cluster = InJvmCluster.startThree("zaris-catchup", 3, replication)) {
            List<ZarisNode> nodes = cluster.nodes();
            ZarisClient client = cluster.seededClient(KEYS);
            ClusterView before = client.clusterView();
            ZarisNode leader = cluster.leader();
            int partition = partitionServedByNonLeader(before, leader.nodeId());
            PartitionRuntime runtime = before.runtimeMap().get(partition);
            ZarisNode active = node(nodes, runtime.activeNode());
            await().atMost(Duration.ofSeconds(30)).until(() -> active.confirmedReplicas(partition) == 2);
            check.run(client, nodes, leader, partition, runtime, new SegmentMapper(before.layout().segmentCount()));
        }
    }

    /** One replica of the partition under test, with keys that land in its first and last segments. */
    private record Side(ZarisNode replica, long epoch, int firstSegment, int lastSegment, SegmentMapper mapper) {
        String existingKeyInFirstSegment() {
            return keyInSegment(mapper, firstSegment, "key-", KEYS);
        }

        String existingKeyInLastSegment() {
            return keyInSegment(mapper, lastSegment, "key-", KEYS);
        }

        String newKeyInFirstSegment() {
            return keyInSegment(mapper, firstSegment, "recovered-", Integer.MAX_VALUE);
        }

        String newKeyInLastSegment() {
            return keyInSegment(mapper, lastSegment, "recovered-", Integer.MAX_VALUE);
        }
    }

    private interface Injection {
        void apply(Side b, Side c);
    }

    private interface Check {
        void verify(ZarisClient client, Side b, Side c) throws Exception;
    }

    private void runScenario(Injection injection, Check check) throws Exception {
        withCluster(Duration.ofSeconds(1), (client, nodes, leader, partition, runtime, mapper) -> {
            ClusterView before = client.clusterView();
            ZarisNode active = node(nodes, runtime.activeNode());
            List<ZarisNode> replicas = nodes.stream().filter(n -> n != active).toList();
            int first = before.layout().firstSegmentOf(partition);
            int last = before.layout().lastSegmentOf(partition);
            Side b = new Side(replicas.get(0), runtime.epoch(), first, last, mapper);
            Side c = new Side(replicas.get(1), runtime.epoch(), first, last, mapper);
            injection.apply(b, c);

            active.close();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                PartitionRuntime now = leader.currentView().runtimeMap().get(partition);
                return now.epoch() > runtime.epoch() && !active.nodeId().equals(now.activeNode())
                        && now.activeNode() != null && now.health().isServing();
            });
            client.refreshMap().get(10, TimeUnit.SECONDS);
            check.verify(client, b, c);
            for (int i = 0; i < KEYS; i++) {
                String key = "key-" + i;
                if (!key.equals(b.existingKeyInFirstSegment()) && !key.equals(c.existingKeyInLastSegment())) {
                    assertThat(client.sync().get(key)).as(key).hasValueSatisfying(
                            v -> assertThat(text(v.value())).isEqualTo("value-" + key.substring(4)));
                }
            }
        });
    }

    /** What a replication link delivers: the segment's next revision under the partition's current epoch. */
    private static void applyOnly(ZarisNode replica, int segment, long epoch, byte[] key, byte[] value) {
        long next = replica.store().segmentRevision(segment) + 1;
        ApplyResult result = replica.store().applyReplicated(segment, List.of(new Change(next, epoch, key, value, 0)));
        assertThat(result.gap()).isFalse();
    }

    private static int partitionServedByNonLeader(ClusterView view, String leader) {
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (!leader.equals(view.runtimeMap().get(p).activeNode())) {
                return p;
            }
        }
        throw new AssertionError("the leader serves every partition");
    }

    private static String keyInSegment(SegmentMapper mapper, int segment, String prefix, int limit) {
        for (int i = 0; i < limit; i++) {
            if (mapper.segmentOf(prefix + i) == segment) {
                return prefix + i;
            }
        }
        throw new AssertionError("no key " + prefix + "N below " + limit + " maps to segment " + segment);
    }

    private static ZarisNode node(List<ZarisNode> nodes, String id) {
        return InJvmCluster.node(nodes, id);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return InJvmCluster.utf8(text);
    }
}
