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
 * A rolling restart of a three-node cluster under a SYNC write load, the way a supervisor (a Kubernetes rolling
 * update) does it: for each node in turn, SIGTERM (the node drains), wait for it to exit, start it again (empty; it
 * rejoins as a new node), and wait until the map gives it partitions again and nothing is moving. A client with
 * default retry options writes throughout; at the end no acknowledged write is lost and no write failed.
 */
@Tag("multi-process")
class RollingRestartIntegrationTests {

    @Test
    void restartingEveryNodeInTurnUnderLoadLosesNoAcknowledgedWriteAndFailsNoWrite() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "rolling-restart-logs")).drainingOnStop()) {
            List<NodeAddress> seeds = processes.start(3, 2, "--partitions", "16", "--segments", "256",
                    "--join-settle-delay", "1s");
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(90)).environment(Map.of()).build())) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                AcknowledgedWriter writer = new AcknowledgedWriter(client, 500, key -> { });
                writer.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> writer.acknowledgedWrites() >= 500);
                long start = System.nanoTime();
                for (String nodeId : List.of("n1", "n2", "n3")) {
                    ServerProcesses.Node node = processes.node(nodeId);
                    node.process().destroy(); // SIGTERM: the node drains before it leaves
                    assertThat(node.process().waitFor(90, TimeUnit.SECONDS)).as("%s exited", nodeId).isTrue();
                    assertThat(node.logText()).contains("node " + nodeId + ": drained in");
                    ServerProcesses.Node restarted = processes.restart(nodeId);
                    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
                        assertThat(restarted.process().isAlive()).as("%s running", nodeId).isTrue();
                        ClusterView view = client.refreshMap().join();
                        return rolesOf(view, nodeId) > 0 && view.unsettledPartitions() == 0;
                    });
                }
                long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                long acknowledged = writer.acknowledgedWrites();
                await().atMost(Duration.ofSeconds(60)).until(() -> writer.acknowledgedWrites() >= acknowledged + 500);
                writer.stop();
                long lost = writer.countLost();
                System.out.printf("rolling restart of 3 nodes: %d ms, %d acknowledged writes, %d lost, %d failed%n",
                        elapsedMillis, writer.acknowledgedWrites(), lost, writer.failedWrites());
                assertThat(lost).as("acknowledged writes lost").isZero();
                assertThat(writer.failedWrites()).as("writes that failed with default client options").isZero();
            }
        }
    }

    /** Partitions that list the node as an owner or as their active node. */
    private static long rolesOf(ClusterView view, String nodeId) {
        long roles = 0;
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (view.partitionMap().ownersOf(p).contains(nodeId) || nodeId.equals(view.runtimeMap().get(p).activeNode())) {
                roles++;
            }
        }
        return roles;
    }
}
