package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.LostWrite;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.VersionedValue;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ServerProcesses;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three server processes, RF 2, ASYNC acknowledgements. The replica of one partition is paused
 * ({@code SIGSTOP}) while a client writes to that partition, so the active owner acknowledges writes no
 * replica has applied; then the active is {@code kill -9}ed and the replica resumed and promoted. The new
 * active publishes the revisions it inherited, and the client must name exactly the acknowledged writes
 * that were lost: every key reads back its newest acknowledged write not reported lost, and every write
 * reported lost is newer than what the key reads back.
 */
@Tag("multi-process")
class AsyncLossReportIntegrationTests {

    private static final int KEYS = 200;
    private static final int IN_FLIGHT = 256;

    @Test
    void aTakeoverNamesExactlyTheAcknowledgedAsyncWritesItLost() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "async-loss-logs"))) {
            List<NodeAddress> seeds = processes.start(3, 2, "--partitions", "8", "--segments", "64",
                    "--ack-mode", "async", "--eviction-delay", "10m", "--heal-cooldown", "10m");
            Set<String> reportedLost = ConcurrentHashMap.newKeySet();
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(90))
                    .asyncAckHistory(2_000_000)
                    .lostWriteListener(lost -> reportedLost.add(lost.key() + "@" + lost.revision()))
                    .environment(Map.of()).build())) {
                ClusterView before = client.clusterView();
                SegmentMapper mapper = new SegmentMapper(before.layout().segmentCount());
                int partition = 0;
                String active = before.runtimeMap().get(partition).activeNode();
                String replica = before.partitionMap().ownersOf(partition).stream().filter(n -> !n.equals(active))
                        .findFirst().orElseThrow();
                List<String> keys = keysOf(partition, before, mapper);

                // key -> (version -> sequence) of every acknowledged write
                Map<String, NavigableMap<Long, Long>> acknowledged = new ConcurrentHashMap<>();
                // First with the replica running (these writes reach it), then with it paused (these do not).
                writeFor(client, keys, acknowledged, Duration.ofSeconds(2));
                processes.node(replica).signal("STOP");
                writeFor(client, keys, acknowledged, Duration.ofSeconds(3));
                processes.node(active).kill();
                processes.node(replica).signal("CONT");

                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    client.refreshMap().get(10, TimeUnit.SECONDS);
                    return replica.equals(client.clusterView().runtimeMap().get(partition).activeNode());
                });

                long acks = acknowledged.values().stream().mapToLong(Map::size).sum();
                int checked = 0;
                int survivors = 0;
                for (String key : keys) {
                    NavigableMap<Long, Long> writes = acknowledged.get(key);
                    if (writes == null) {
                        continue;
                    }
                    Optional<VersionedValue> read = client.sync().get(key);
                    long readVersion = read.map(VersionedValue::version).orElse(0L);
                    Map.Entry<Long, Long> newestKept = null;
                    for (Map.Entry<Long, Long> write : writes.descendingMap().entrySet()) {
                        if (reportedLost.contains(key + "@" + write.getKey())) {
                            assertThat(write.getKey()).as("%s: a write reported lost is newer than what survived", key)
                                    .isGreaterThan(readVersion);
                        } else if (newestKept == null) {
                            newestKept = write;
                        }
                    }
                    if (newestKept == null) {
                        assertThat(read).as("%s: every acknowledged write was reported lost", key).isEmpty();
                    } else {
                        assertThat(read).as("%s: survives", key).isPresent();
                        survivors++;
                        assertThat(readVersion).as("%s: reads its newest write not reported lost", key)
                                .isEqualTo(newestKept.getKey());
                        assertThat(Long.parseLong(new String(read.get().value(), StandardCharsets.US_ASCII)))
                                .isEqualTo(newestKept.getValue());
                    }
                    checked++;
                }
                System.out.printf("ASYNC takeover of partition %d (%s -> %s): %d writes acknowledged, %d named lost, "
                        + "%d keys checked, %d read back a surviving write%n", partition, active, replica, acks,
                        reportedLost.size(), checked, survivors);
                assertThat(checked).isEqualTo(keys.size());
                assertThat(reportedLost).as("the paused replica missed acknowledged writes").isNotEmpty();
                assertThat(survivors).as("writes made before the pause reached the replica").isPositive();
            }
        }
    }

    /** Pipelined unique-value puts to the keys, one sequence number per write, for the given time. */
    private static void writeFor(ZarisClient client, List<String> keys, Map<String, NavigableMap<Long, Long>> acknowledged,
                                 Duration duration) throws InterruptedException {
        Semaphore window = new Semaphore(IN_FLIGHT);
        long end = System.nanoTime() + duration.toNanos();
        long sequence = 0;
        while (System.nanoTime() < end) {
            window.acquire();
            String key = keys.get((int) (sequence % keys.size()));
            long written = ++sequence;
            client.put(key, Long.toString(written).getBytes(StandardCharsets.US_ASCII)).whenComplete((version, error) -> {
                if (error == null) {
                    acknowledged.computeIfAbsent(key, k -> new ConcurrentSkipListMap<>()).put(version, written);
                }
                window.release();
            });
        }
        assertThat(window.tryAcquire(IN_FLIGHT, 60, TimeUnit.SECONDS)).as("in-flight writes completed").isTrue();
    }

    private static List<String> keysOf(int partition, ClusterView view, SegmentMapper mapper) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < KEYS; i++) {
            String key = "loss-" + i;
            if (view.layout().partitionOf(mapper.segmentOf(key)) == partition) {
                keys.add(key);
            }
        }
        return keys;
    }
}
