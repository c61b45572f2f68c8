package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.protocol.ProtocolVersions;
import io.zaris.server.ServerProcesses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A rolling upgrade from the previous protocol version to the current one, under a SYNC write load of a
 * default-options client. Three nodes start speaking the previous version (the release before); then each is
 * upgraded in turn (SIGTERM drains it, it starts again speaking the current version). While the cluster is mixed,
 * an old node is killed with SIGKILL, so a failover runs between an upgraded node and an old one, and the killed
 * node comes back upgraded. Replication between the two versions only works if the upgraded nodes fall back to
 * the previous version's frames: an old node refuses the newer frames (today {@code ADVANCE_EPOCH}, with which an
 * active carries a replica's copy over to a new epoch), so its copies would fall behind and the failover would lose
 * acknowledged writes. No acknowledged write is lost, and the only writes that may fail are
 * those whose attempts all fell between the kill and the failover: the drained upgrades and the killed node's
 * return reach no writer.
 */
@Tag("multi-process")
class ProtocolUpgradeIntegrationTests {

    private static final int PREVIOUS = ProtocolVersions.CURRENT - 1;
    private static final String SPEAK_PREVIOUS = "-D" + ProtocolVersions.SPEAK_VERSION_PROPERTY + "=" + PREVIOUS;

    @Test
    void upgradingEveryNodeInTurnWithAFailoverInTheMixedClusterLosesNoAcknowledgedWrite() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "protocol-upgrade-logs"))
                .drainingOnStop().withJvmOptions(SPEAK_PREVIOUS)) {
            List<NodeAddress> seeds = processes.start(3, 2, "--partitions", "16", "--segments", "256",
                    "--join-settle-delay", "1s", "--heal-cooldown", "1s");
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(90)).environment(Map.of()).build())) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                AcknowledgedWriter writer = new AcknowledgedWriter(client, 500, key -> { });
                writer.start();
                awaitMoreWrites(writer, 500);

                // n1 upgraded: it talks to n2 and n3 in the previous version's frames.
                processes.node("n1").stopGracefully();
                processes.restart("n1", ProtocolUpgradeIntegrationTests::withoutPreviousVersion);
                awaitRolesAndSettled(client, processes, "n1");
                awaitMoreWrites(writer, 500);
                assertThat(restartedLog(processes, "n1")).as("n1's replication links to the old nodes")
                        .contains("open (protocol version " + PREVIOUS + ")")
                        .doesNotContain("open (protocol version " + ProtocolVersions.CURRENT + ")");

                assertThat(writer.failedWrites()).as("writes that failed while n1 was drained and upgraded").isZero();

                // A crash in the mixed cluster: old n2 dies, its partitions fail over to upgraded n1 and old n3.
                ClusterView beforeCrash = client.refreshMap().get(10, TimeUnit.SECONDS);
                processes.node("n2").kill();
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    ClusterView view = client.refreshMap().get(10, TimeUnit.SECONDS);
                    for (int p = 0; p < view.layout().partitionCount(); p++) {
                        if ("n2".equals(beforeCrash.runtimeMap().get(p).activeNode())
                                && ("n2".equals(view.runtimeMap().get(p).activeNode())
                                        || !view.runtimeMap().get(p).health().isServing())) {
                            return false;
                        }
                    }
                    return true;
                });
                awaitMoreWrites(writer, 500);
                // Only the kill may reach the writer (a write whose attempts all fell in the failover window).
                long failedAroundKill = writer.failedWrites();
                processes.restart("n2", ProtocolUpgradeIntegrationTests::withoutPreviousVersion);
                awaitRolesAndSettled(client, processes, "n2");

                // The last old node upgraded: from now on every connection negotiates the current version.
                processes.node("n3").stopGracefully();
                processes.restart("n3", ProtocolUpgradeIntegrationTests::withoutPreviousVersion);
                awaitRolesAndSettled(client, processes, "n3");
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() ->
                        client.refreshMap().get(10, TimeUnit.SECONDS).runtimeMap().partitions().stream()
                                .allMatch(p -> p.health() == PartitionHealth.HEALTHY));
                awaitMoreWrites(writer, 500);
                writer.stop();
                assertThat(restartedLog(processes, "n3")).as("n3's replication links once every node is upgraded")
                        .contains("open (protocol version " + ProtocolVersions.CURRENT + ")")
                        .doesNotContain("open (protocol version " + PREVIOUS + ")");

                long lost = writer.countLost();
                System.out.printf("protocol upgrade %d -> %d of 3 nodes with a SIGKILL in the mixed cluster: "
                        + "%d acknowledged writes, %d lost, %d failed (all around the kill: %d)%n", PREVIOUS,
                        ProtocolVersions.CURRENT, writer.acknowledgedWrites(), lost, writer.failedWrites(), failedAroundKill);
                assertThat(lost).as("acknowledged writes lost").isZero();
                assertThat(writer.failedWrites()).as("writes that failed after the failover (the killed node's return "
                        + "and n3's drained upgrade must not reach the writer)").isEqualTo(failedAroundKill);
            }
        }
    }

    private static List<String> withoutPreviousVersion(List<String> command) {
        List<String> upgraded = new ArrayList<>(command);
        assertThat(upgraded.remove(SPEAK_PREVIOUS)).as("the node ran the previous version").isTrue();
        return upgraded;
    }


    private static void awaitMoreWrites(AcknowledgedWriter writer, long more) {
        long target = writer.acknowledgedWrites() + more;
        await().atMost(Duration.ofSeconds(90)).until(() -> writer.acknowledgedWrites() >= target);
    }

    /** Waits until the restarted node has partitions again and nothing is moving. */
    private static void awaitRolesAndSettled(ZarisClient client, ServerProcesses processes, String nodeId) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
            assertThat(processes.node(nodeId).process().isAlive()).as("%s running", nodeId).isTrue();
            ClusterView view = client.refreshMap().get(10, TimeUnit.SECONDS);
            return ServerProcesses.rolesOf(view, nodeId) > 0 && view.unsettledPartitions() == 0;
        });
    }

    /** What the node logged since its last restart. */
    private static String restartedLog(ServerProcesses processes, String nodeId) throws Exception {
        String log = processes.node(nodeId).logText();
        return log.substring(log.lastIndexOf(ServerProcesses.RESTART_MARKER));
    }

}
