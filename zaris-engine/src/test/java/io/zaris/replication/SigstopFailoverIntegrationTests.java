package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ServerProcesses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code SIGSTOP} an active owner for 15 s (longer than the escalation timeout): writes to its partitions
 * resume on a replica after the escalation; after {@code SIGCONT} the old owner merges back (its copies were
 * re-homed meanwhile, so it rejoins like a new node), gets partitions back by rebalance and serves them again;
 * nothing acknowledged is lost, so nothing it could have acknowledged under its old epoch survived as an
 * acknowledgement. Three processes, RF 3, SYNC, a client with default options.
 */
@Tag("multi-process")
class SigstopFailoverIntegrationTests {

    @Test
    void aHungOwnerIsReplacedAfterTheEscalationAndRejoinsAsAFencedReplica() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "sigstop-logs"))) {
            List<NodeAddress> seeds = processes.start(3, 3, "--partitions", "16", "--segments", "256",
                    "--escalation-timeout", "6s", "--heal-cooldown", "2s");
            // Default client options: the writer's blocking puts go over direct sockets, and an attempt stuck at
            // the hung owner is given up once its partition moves, so writes resume during the pause.
            try (ZarisClient client = ServerProcesses.defaultClient(seeds)) {
                ClusterView before = client.clusterView();
                SegmentMapper mapper = new SegmentMapper(before.layout().segmentCount());
                String victim = before.runtimeOfSegment(mapper.segmentOf(AcknowledgedWriter.key(0))).activeNode();
                ServerProcesses.Node victimProcess = processes.nodes().stream().filter(n -> n.nodeId().equals(victim))
                        .findFirst().orElseThrow();
                AtomicLong acknowledgedDuringPause = new AtomicLong();
                AtomicBoolean paused = new AtomicBoolean();
                AcknowledgedWriter writer = new AcknowledgedWriter(client, 300, key -> {
                    if (paused.get() && victim.equals(before.runtimeOfSegment(mapper.segmentOf(key)).activeNode())) {
                        acknowledgedDuringPause.incrementAndGet();
                    }
                });
                writer.start();
                Thread.sleep(1000);
                victimProcess.signal("STOP");
                paused.set(true);
                Thread.sleep(15_000);
                long resumedWhilePaused = acknowledgedDuringPause.get();
                victimProcess.signal("CONT");
                paused.set(false);
                // The old owner merges back; its copies were re-homed while it was excluded, so it rejoins like a
                // new node and a rebalance (after the join settle delay) gives it partitions back.
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                        .until(() -> healthyOnPrimaries(client.refreshMap().join()) && serves(client.clusterView(), victim));
                Thread.sleep(1000);
                writer.stop();
                assertThat(resumedWhilePaused).as("writes to the hung owner's partitions acknowledged while it was paused")
                        .isPositive();
                assertThat(writer.countLost()).as("acknowledged writes lost").isZero();
                assertThat(writer.failedWrites()).as("writes that failed with default client options").isZero();
            }
        }
    }

    private static boolean serves(ClusterView view, String node) {
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (node.equals(view.runtimeMap().get(p).activeNode())) {
                return true;
            }
        }
        return false;
    }

    private static boolean healthyOnPrimaries(ClusterView view) {
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (view.runtimeMap().get(p).health() != PartitionHealth.HEALTHY
                    || !view.partitionMap().primaryOf(p).equals(view.runtimeMap().get(p).activeNode())) {
                return false;
            }
        }
        return true;
    }
}
