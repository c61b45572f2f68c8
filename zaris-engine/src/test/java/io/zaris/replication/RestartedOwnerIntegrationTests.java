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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three server processes, RF 2, SYNC: {@code kill -9} an active owner and start it again at once, while
 * a client keeps writing. The new process has none of the data; if it rejoins before the cluster failed
 * its partitions over, the view still names it active. It must neither serve those partitions nor sync
 * its empty segments over the replicas: it disowns them and the leader fails them over. Either way no
 * acknowledged write may be lost, and the cluster heals back to HEALTHY.
 */
@Tag("multi-process")
class RestartedOwnerIntegrationTests {

    @Test
    void anOwnerRestartedBeforeFailoverNeverServesOrSpreadsItsEmptyStore() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "restart-logs"))) {
            List<NodeAddress> seeds = processes.start(3, 2, "--partitions", "16", "--segments", "256",
                    "--heal-cooldown", "1s");
            try (ZarisClient client = ServerProcesses.defaultClient(seeds)) {
                ClusterView before = client.clusterView();
                SegmentMapper mapper = new SegmentMapper(before.layout().segmentCount());
                String victim = before.runtimeOfSegment(mapper.segmentOf(AcknowledgedWriter.key(0))).activeNode();
                AcknowledgedWriter writer = new AcknowledgedWriter(client, 400, key -> { });
                writer.start();
                Thread.sleep(2000);
                processes.node(victim).kill();
                processes.restart(victim);
                // Healed after the restart, not before the kill was noticed: every partition the victim was active
                // for has moved on to a newer epoch (a failover or a disown), and all are HEALTHY again.
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    ClusterView view = client.refreshMap().get(10, TimeUnit.SECONDS);
                    for (int p = 0; p < view.layout().partitionCount(); p++) {
                        if (victim.equals(before.runtimeMap().get(p).activeNode())
                                && view.runtimeMap().get(p).epoch() <= before.runtimeMap().get(p).epoch()) {
                            return false;
                        }
                    }
                    return view.runtimeMap().partitions().stream().allMatch(p -> p.health() == PartitionHealth.HEALTHY);
                });
                writer.stop();
                long lost = writer.countLost();
                boolean rejoinedAsActive = processes.node(victim).logText().contains("the cluster still names it active");
                System.out.printf("kill -9 and immediate restart of %s: %d writes acknowledged, %d lost; the restarted "
                        + "process %s%n", victim, writer.acknowledgedWrites(), lost,
                        rejoinedAsActive ? "rejoined while still named active and disowned those partitions"
                                : "rejoined after its partitions had failed over");
                assertThat(lost).as("acknowledged writes lost").isZero();
                assertThat(writer.failedWrites()).as("writes that failed with default client options").isZero();
            }
        }
    }
}
