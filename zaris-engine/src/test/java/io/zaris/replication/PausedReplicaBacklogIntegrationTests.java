package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.VersionedValue;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ServerProcesses;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three server processes with small heaps, two copies, ASYNC acknowledgements and a small replica backlog. A node
 * that does not lead is paused ({@code SIGSTOP}) while a client writes as fast as it can to the partitions it is the
 * replica of: the active owner drops its link to the paused replica once the replica leaves the backlog unanswered,
 * and keeps answering (before the bound, an owner held every change for such a replica until its heap ran out, as a
 * CI run of {@code AsyncLossReportIntegrationTests} showed). Once the replica is resumed and synced again on a new
 * link, it holds every acknowledged write: a {@code kill -9} of the owner then loses none.
 */
@Tag("multi-process")
class PausedReplicaBacklogIntegrationTests {

    private static final int KEYS = 2_000;
    private static final int IN_FLIGHT = 256;
    private static final byte[] PADDING = new byte[100];

    @Test
    void anOwnerOutlivesAPausedReplicaThatThenCatchesUp() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "paused-replica-backlog-logs"))
                .withJvmOptions("-Xmx64m")) {
            List<NodeAddress> seeds = processes.start(3, 2, "--partitions", "8", "--segments", "64",
                    "--ack-mode", "async", "--eviction-delay", "10m", "--heal-cooldown", "2s",
                    "--replica-backlog", "256k");
            try (ZarisClient client = ServerProcesses.defaultClient(seeds)) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                ClusterView before = client.clusterView();
                // Pausing the leader would stop every owner's lease renewal, and with it the writes.
                List<String> nodes = List.of("n1", "n2", "n3");
                String leader = leaderOf(processes, nodes);
                String replica = nodes.stream().filter(n -> !n.equals(leader)).findFirst().orElseThrow();
                String owner = null;
                Set<Integer> partitions = new TreeSet<>();
                for (String candidate : nodes) {
                    for (int p = 0; p < before.layout().partitionCount() && !candidate.equals(replica); p++) {
                        if (candidate.equals(before.runtimeMap().get(p).activeNode())
                                && before.partitionMap().ownersOf(p).contains(replica)) {
                            partitions.add(p);
                        }
                    }
                    if (!partitions.isEmpty()) {
                        owner = candidate;
                        break;
                    }
                }
                assertThat(partitions).as("partitions served by %s with %s as replica", owner, replica).isNotEmpty();
                List<String> keys = keysOf(partitions, before);

                Map<String, Long> lastAcknowledged = new ConcurrentHashMap<>();
                processes.node(replica).signal("STOP");
                long written = writeFor(client, keys, lastAcknowledged, Duration.ofSeconds(12));
                processes.node(replica).signal("CONT");

                assertThat(processes.node(owner).process().isAlive()).as("the owner survived the pause").isTrue();
                assertThat(processes.node(owner).logText()).doesNotContain("OutOfMemoryError")
                        .as("the owner dropped the link to the paused replica for its backlog")
                        .contains("replica " + replica + " left").contains("bytes of changes unanswered");
                System.out.printf("%d writes acknowledged to %d keys of partitions %s while %s was paused%n", written,
                        lastAcknowledged.size(), partitions, replica);

                // The replica is back and synced again (the owner's partitions regain their second copy), then the
                // owner dies: every acknowledged write survives on the replica.
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    ClusterView view = client.refreshMap().get(10, TimeUnit.SECONDS);
                    return partitions.stream().allMatch(p -> view.runtimeMap().get(p).health() == PartitionHealth.HEALTHY);
                });
                processes.node(owner).kill();
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    ClusterView view = client.refreshMap().get(10, TimeUnit.SECONDS);
                    return partitions.stream().allMatch(p -> replica.equals(view.runtimeMap().get(p).activeNode()));
                });
                for (Map.Entry<String, Long> write : lastAcknowledged.entrySet()) {
                    Optional<VersionedValue> read = client.sync().get(write.getKey());
                    assertThat(read).as("%s after the owner's kill", write.getKey()).isPresent();
                    assertThat(read.get().version()).as("%s reads its last acknowledged write", write.getKey())
                            .isEqualTo(write.getValue());
                }
            }
        }
    }

    /** Pipelined puts of 100-byte values for the given time; the number acknowledged. */
    private static long writeFor(ZarisClient client, List<String> keys, Map<String, Long> lastAcknowledged,
                                 Duration duration) throws InterruptedException {
        Semaphore window = new Semaphore(IN_FLIGHT);
        AtomicLong acknowledged = new AtomicLong();
        long end = System.nanoTime() + duration.toNanos();
        for (long sequence = 0; System.nanoTime() < end; sequence++) {
            window.acquire();
            String key = keys.get((int) (sequence % keys.size()));
            client.put(key, PADDING).whenComplete((version, error) -> {
                if (error == null) {
                    lastAcknowledged.merge(key, version, Math::max);
                    acknowledged.incrementAndGet();
                }
                window.release();
            });
        }
        assertThat(window.tryAcquire(IN_FLIGHT, 60, TimeUnit.SECONDS)).as("in-flight writes completed").isTrue();
        return acknowledged.get();
    }

    /** The node that last logged that a majority confirmed its leadership ({@code null}: none yet). */
    private static String leaderOf(ServerProcesses processes, List<String> nodes) throws java.io.IOException {
        String leader = null;
        for (String node : nodes) {
            if (processes.node(node).logText().contains("a majority confirmed its leadership")) {
                leader = node;
            }
        }
        return leader;
    }

    private static List<String> keysOf(Set<Integer> partitions, ClusterView view) {
        SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < KEYS; i++) {
            String key = "backlog-" + i;
            if (partitions.contains(view.layout().partitionOf(mapper.segmentOf(key)))) {
                keys.add(key);
            }
        }
        return keys;
    }
}
