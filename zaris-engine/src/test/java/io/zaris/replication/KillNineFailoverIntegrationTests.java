package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterView;
import io.zaris.cluster.NodeAddress;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.VersionedValue;
import io.zaris.server.ServerProcesses;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Three server processes, RF 2, SYNC acknowledgements: {@code kill -9} the owner of a partition while a
 * client writes unique values and records every acknowledged write. After failover every acknowledged
 * write reads back. Prints the writes acknowledged, the writes lost and the window during which writes
 * to the victim's partitions could not be acknowledged.
 */
class KillNineFailoverIntegrationTests {

    @Test
    void noAcknowledgedSyncWriteIsLostWhenAnOwnerIsKilled() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "kill9-logs"))) {
            List<NodeAddress> seeds = processes.start(3, 2, "--partitions", "16", "--segments", "256",
                    "--eviction-delay-ms", "1000", "--heal-cooldown-ms", "1000");
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(90)).requestTimeout(Duration.ofSeconds(20)).maxAttempts(40)
                    .environment(Map.of()).build())) {
                ClusterView before = client.clusterView();
                SegmentMapper mapper = new SegmentMapper(before.layout().segmentCount());
                String victim = before.runtimeOfSegment(mapper.segmentOf("key-0")).activeNode();
                ServerProcesses.Node victimProcess = processes.nodes().stream().filter(n -> n.nodeId().equals(victim))
                        .findFirst().orElseThrow();

                Map<String, Long> acknowledged = new ConcurrentHashMap<>();
                AtomicLong acknowledgedWrites = new AtomicLong();
                AtomicLong killedAtNanos = new AtomicLong();
                AtomicLong firstVictimAckAfterKill = new AtomicLong();
                AtomicBoolean running = new AtomicBoolean(true);
                Thread writer = new Thread(() -> {
                    long sequence = 0;
                    while (running.get()) {
                        String key = "key-" + (sequence % 500);
                        long value = sequence++;
                        try {
                            client.sync().put(key, Long.toString(value).getBytes(StandardCharsets.UTF_8));
                            acknowledged.merge(key, value, Math::max);
                            acknowledgedWrites.incrementAndGet();
                            boolean victimKey = victim.equals(before.runtimeOfSegment(mapper.segmentOf(key)).activeNode());
                            if (victimKey && killedAtNanos.get() != 0) {
                                firstVictimAckAfterKill.compareAndSet(0, System.nanoTime());
                            }
                        } catch (RuntimeException notAcknowledged) {
                            // not acknowledged: nothing to check for this value
                        }
                    }
                }, "writer");
                writer.start();
                Thread.sleep(2000);
                killedAtNanos.set(System.nanoTime());
                victimProcess.kill();
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (firstVictimAckAfterKill.get() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                Thread.sleep(2000);
                running.set(false);
                writer.join(60_000);

                long lost = 0;
                for (Map.Entry<String, Long> write : acknowledged.entrySet()) {
                    Optional<VersionedValue> read = client.sync().get(write.getKey());
                    long readValue = read.map(v -> Long.parseLong(new String(v.value(), StandardCharsets.UTF_8))).orElse(-1L);
                    if (readValue < write.getValue()) {
                        lost++;
                    }
                }
                double windowSeconds = (firstVictimAckAfterKill.get() - killedAtNanos.get()) / 1e9;
                System.out.printf("kill -9 of %s: %d writes acknowledged, %d lost, writes to its partitions resumed after %.2f s%n",
                        victim, acknowledgedWrites.get(), lost, windowSeconds);
                assertThat(firstVictimAckAfterKill.get()).as("writes to the victim's partitions resumed").isNotZero();
                assertThat(lost).as("acknowledged writes lost").isZero();
                assertThat(windowSeconds).isLessThan(30);
            }
        }
    }
}
