package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterView;
import io.zaris.cluster.NodeAddress;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ServerProcesses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
                String victim = before.runtimeOfSegment(mapper.segmentOf(AcknowledgedWriter.key(0))).activeNode();
                ServerProcesses.Node victimProcess = processes.nodes().stream().filter(n -> n.nodeId().equals(victim))
                        .findFirst().orElseThrow();

                AtomicLong killedAtNanos = new AtomicLong();
                AtomicLong firstVictimAckAfterKill = new AtomicLong();
                AcknowledgedWriter writer = new AcknowledgedWriter(client, 500, key -> {
                    boolean victimKey = victim.equals(before.runtimeOfSegment(mapper.segmentOf(key)).activeNode());
                    if (victimKey && killedAtNanos.get() != 0) {
                        firstVictimAckAfterKill.compareAndSet(0, System.nanoTime());
                    }
                });
                writer.start();
                Thread.sleep(2000);
                killedAtNanos.set(System.nanoTime());
                victimProcess.kill();
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (firstVictimAckAfterKill.get() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                Thread.sleep(2000);
                writer.stop();
                long lost = writer.countLost();
                double windowSeconds = (firstVictimAckAfterKill.get() - killedAtNanos.get()) / 1e9;
                System.out.printf("kill -9 of %s: %d writes acknowledged, %d lost, writes to its partitions resumed after %.2f s%n",
                        victim, writer.acknowledgedWrites(), lost, windowSeconds);
                assertThat(firstVictimAckAfterKill.get()).as("writes to the victim's partitions resumed").isNotZero();
                assertThat(lost).as("acknowledged writes lost").isZero();
                assertThat(windowSeconds).isLessThan(30);
            }
        }
    }
}
