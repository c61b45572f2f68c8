package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import io.zaris.security.SecurityOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The operator's scale-out and scale-in against a live in-process cluster: {@code admin rebalance} gives a
 * new node its share, {@code admin drain} takes it away again, and the SIGTERM drain empties another node
 * before it would stop; and who may send the commands. The admin command runs in this JVM but speaks to
 * the nodes over their data ports.
 */
@Tag("in-process-cluster")
class AdminCommandIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private EmbeddedCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void rebalanceGivesANewNodeItsShareAndDrainTakesItAwayAgain() {
        cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8))
                .joinSettleDelay(Duration.ofSeconds(1))
                .replication(ReplicationSettings.defaults().withHealCooldown(Duration.ofMillis(500)))
                .build().start();
        ZarisNode first = cluster.nodes().get(0);
        await().atMost(DEADLINE).until(() -> settled(first.currentView()));

        ZarisNode added = cluster.addNode();
        String newcomer = added.nodeId();
        Run rebalance = admin("rebalance", "--node", first.dataAddress().toString(), "--timeout", "60s");
        assertThat(rebalance.status).as(rebalance.err).isEqualTo(AdminCommand.DONE);
        assertThat(rebalance.out).contains("asked the leader to rebalance").contains("nothing moving").contains(newcomer);
        // The command returned once the map it polled was quiet: the newcomer is in it and nothing moves.
        ClusterView rebalanced = first.currentView();
        assertThat(rebalanced.partitionMap().nodes()).contains(newcomer);
        assertThat(AdminCommand.partitionsOn(rebalanced, newcomer)).isPositive();
        assertThat(AdminCommand.moving(rebalanced)).isZero();

        Run map = admin("map", "--node", added.dataAddress().toString());
        assertThat(map.status).as(map.err).isEqualTo(AdminCommand.DONE);
        assertThat(map.out).contains("cluster map version " + rebalanced.partitionMap().version())
                .contains("8 partitions, 0 moving (rebalance/heal in progress)")
                .contains(newcomer + "  " + added.dataAddress());

        Run drain = admin("drain", "--node", added.dataAddress().toString(), "--timeout", "60s");
        assertThat(drain.status).as(drain.err).isEqualTo(AdminCommand.DONE);
        assertThat(drain.out).contains("node " + newcomer + " is draining").contains("partitions still on " + newcomer)
                .contains("node " + newcomer + " is drained");
        // The node's own map, as the command saw it last: no owner role and active for nothing.
        assertThat(AdminCommand.hasNoRole(added.currentView(), newcomer)).isTrue();
        assertThat(added.isDraining()).isTrue();
        // Drained, the newcomer stops without a failover (left running, the leader would plan it in again).
        cluster.stopNode(newcomer);
        await().atMost(DEADLINE).until(() -> settled(first.currentView()));

        // What SIGTERM does in the server jar before it closes the node: node-3 drains to node-1 and node-2.
        ZarisNode stopping = cluster.node("node-3");
        assertThat(AdminCommand.partitionsOn(stopping.currentView(), "node-3")).isPositive();
        assertThat(ZarisServerMain.drainBeforeStop(stopping, DEADLINE)).isTrue();
        assertThat(AdminCommand.hasNoRole(stopping.currentView(), "node-3")).isTrue();
        assertThat(ZarisServerMain.drainBeforeStop(stopping, DEADLINE)).as("nothing left to drain").isTrue();
        assertThat(ZarisServerMain.drainBeforeStop(first, Duration.ZERO)).as("--drain-on-stop 0 leaves at once").isFalse();
        assertThat(first.isDraining()).isFalse();
    }

    @Test
    void operatorCommandsNeedAReadWriteLoginAndALoneNodeRefusesToDrain() throws Exception {
        try (ZarisNode alone = new ZarisNode(NodeConfig.builder("alone")
                .port(0)
                .clusterSettings(new ClusterSettings(1, PartitionLayout.of(64, 8), 1))
                .membership(new MembershipConfig.InJvm("admin-alone-" + UUID.randomUUID()))
                .security(SecurityOptions.of("node-secret", List.of("ops read-write ops-secret",
                        "viewer read-only viewer-secret")))
                .build()).start()) {
            alone.awaitReady(DEADLINE);
            String node = alone.dataAddress().toString();
            Map<String, String> files = Map.of("/ops", "ops-secret", "/viewer", "viewer-secret", "/wrong", "guess");

            Run withoutLogin = admin(Map.of(), "map", "--node", node);
            assertThat(withoutLogin.status).isEqualTo(AdminCommand.FAILED);
            assertThat(withoutLogin.err).contains("UNAUTHORIZED").contains("authentication required");

            Run viewerMap = admin(files, "map", "--node", node, "--user", "viewer", "--password-file", "/viewer");
            assertThat(viewerMap.status).as(viewerMap.err).isEqualTo(AdminCommand.DONE);
            assertThat(viewerMap.out).contains("8 partitions, 0 moving");

            Run viewerDrain = admin(files, "drain", "--node", node, "--user", "viewer", "--password-file", "/viewer");
            assertThat(viewerDrain.status).isEqualTo(AdminCommand.FAILED);
            assertThat(viewerDrain.err).contains("UNAUTHORIZED").contains("read-only");
            Run viewerRebalance = admin(files, "rebalance", "--node", node, "--user", "viewer", "--password-file", "/viewer");
            assertThat(viewerRebalance.status).isEqualTo(AdminCommand.FAILED);
            assertThat(viewerRebalance.err).contains("UNAUTHORIZED");

            Run wrongPassword = admin(files, "map", "--node", node, "--user", "ops", "--password-file", "/wrong");
            assertThat(wrongPassword.status).isEqualTo(AdminCommand.FAILED);
            assertThat(wrongPassword.err).contains("cannot reach " + node).contains("refused");

            Run opsDrain = admin(files, "drain", "--node", node, "--user", "ops", "--password-file", "/ops");
            assertThat(opsDrain.status).isEqualTo(AdminCommand.FAILED);
            assertThat(opsDrain.err).contains("UNAVAILABLE").contains("no other node is present");
            assertThat(alone.isDraining()).isFalse();

            Run opsRebalance = admin(files, "rebalance", "--node", node, "--user", "ops", "--password-file", "/ops",
                    "--timeout", "60s");
            assertThat(opsRebalance.status).as(opsRebalance.err).isEqualTo(AdminCommand.DONE);
            assertThat(opsRebalance.out).contains("nothing moving");
        }
    }

    /** Every partition HEALTHY on its primary, as the given node sees it. */
    private static boolean settled(ClusterView view) {
        return view != null && AdminCommand.moving(view) == 0;
    }

    private record Run(int status, String out, String err) {
    }

    /** Runs the admin command in this JVM with no password and no environment; captures what it prints. */
    private static Run admin(String... args) {
        return admin(Map.of(), args);
    }

    /** Runs the admin command with {@code files} (path to its one line) as the only readable files. */
    private static Run admin(Map<String, String> files, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = AdminCommand.run(args, Map.of(), path -> {
            if (!files.containsKey(path)) {
                throw new NoSuchFileException(path);
            }
            return List.of(files.get(path));
        }, options -> AdminCommand.DataPortNode.connect(options, AdminCommand.Clock.SYSTEM), AdminCommand.Clock.SYSTEM,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
