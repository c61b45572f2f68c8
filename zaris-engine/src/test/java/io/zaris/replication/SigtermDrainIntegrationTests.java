package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.server.ServerProcesses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The standalone server's default SIGTERM behaviour, as a real process: three server processes (RF 2, SYNC),
 * none started with {@code --drain-on-stop 0}. SIGTERM to one of them drains it (its partitions move to the
 * other two while it still serves) before it exits, and no acknowledged write is lost on the way.
 */
@Tag("multi-process")
class SigtermDrainIntegrationTests {

    private static final String VICTIM = "n3";

    @Test
    void sigtermMovesTheNodesPartitionsToTheOthersBeforeItExitsAndLosesNoAcknowledgedWrite() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "sigterm-drain-logs")).drainingOnStop()) {
            List<NodeAddress> seeds = processes.start(3, 2, "--partitions", "16", "--segments", "256");
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(90))
                    .environment(Map.of()).build())) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                ClusterView before = client.refreshMap().join();
                assertThat(ServerProcesses.rolesOf(before, VICTIM)).as("partitions on %s before SIGTERM", VICTIM).isPositive();

                AcknowledgedWriter writer = new AcknowledgedWriter(client, 500, key -> { });
                writer.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> writer.acknowledgedWrites() >= 500);

                ServerProcesses.Node victim = processes.node(VICTIM);
                victim.stopGracefully();

                // Right after the exit the map already gives the node no role: it was drained, not failed over
                // (a failover would leave it among the owners until the 30 s eviction delay re-homes them).
                ClusterView after = client.refreshMap().join();
                assertThat(after.partitionMap().version()).isGreaterThan(before.partitionMap().version());
                assertThat(ServerProcesses.rolesOf(after, VICTIM)).as("partitions still on %s after it exited", VICTIM).isZero();
                String log = victim.logText();
                assertThat(log).contains("node n3: draining before it stops").doesNotContain("not drained within");
                assertThat(log.indexOf("node n3: drained in")).as("drained before it stopped").isPositive()
                        .isLessThan(log.indexOf("node n3: stopped"));

                long acknowledgedAtExit = writer.acknowledgedWrites();
                await().atMost(Duration.ofSeconds(60)).until(() -> writer.acknowledgedWrites() >= acknowledgedAtExit + 500);
                writer.stop();
                assertThat(writer.countLost()).as("acknowledged writes lost").isZero();
                assertThat(writer.failedWrites()).as("writes that failed with default client options").isZero();
            }
        }
    }

    /**
     * SIGTERM to the leader: it says goodbye before it leaves the membership, so the third node installs the view
     * without it that the next coordinator sends, rather than holding that view back until its own failure detection
     * suspects the leader (see {@code CoordinatorLoyalty}), which takes the escalation timeout (10 s) with nobody
     * confirmed as leader meanwhile.
     */
    @Test
    void sigtermOfTheLeaderHandsTheLeadOverAtOnce() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "sigterm-leader-logs")).drainingOnStop()) {
            List<NodeAddress> seeds = processes.start(3, 2, "--partitions", "16", "--segments", "256");
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(90))
                    .environment(Map.of()).build())) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                String leader = client.refreshMap().join().leader();
                assertThat(leader).isNotNull();

                processes.node(leader).stopGracefully();
                long exitedNanos = System.nanoTime();
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
                    String now = client.refreshMap().join().leader();
                    return now != null && !now.equals(leader);
                });
                double seconds = (System.nanoTime() - exitedNanos) / 1e9;
                System.out.printf("SIGTERM of the leader %s: a new leader named %.2f s after it exited%n", leader, seconds);
                assertThat(seconds).as("seconds from the leader's exit until another node leads (the escalation "
                        + "timeout is 10 s)").isLessThan(5.0);
                for (String survivor : List.of("n1", "n2", "n3")) {
                    if (!survivor.equals(leader)) {
                        assertThat(processes.node(survivor).logText()).as("%s's log", survivor)
                                .doesNotContain("drops the membership view held back");
                    }
                }
            }
        }
    }
}
