package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.security.ClusterSecret;
import io.zaris.security.SecurityOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cluster secret on the TCP membership stack: nodes in one JVM, each with its own JGroups TCP port on
 * loopback and all of them in every seed list, so only the secret decides who forms a cluster with whom.
 */
@Tag("multi-process")
class ClusterSecretIntegrationTests {

    private static final ClusterSecret SECRET_A = ClusterSecret.of("secret A, long enough to be accepted");
    private static final ClusterSecret SECRET_B = ClusterSecret.of("secret B, long enough to be accepted");
    private static final Duration FORMING = Duration.ofSeconds(30);
    private static final String CLUSTER_NAME = "zaris-secret-test";

    private final List<ZarisNode> started = new ArrayList<>();

    @AfterEach
    void stopNodes() {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
    }

    @Test
    void aNodeWithAnotherSecretIsNeverSeenByTheClusterAndSeesNoneOfIt() throws Exception {
        List<NodeAddress> seeds = seeds(3);
        ZarisNode a1 = start("a1", seeds, 0, SECRET_A);
        ZarisNode a2 = start("a2", seeds, 1, SECRET_A);
        await().atMost(FORMING).untilAsserted(() -> {
            assertThat(a1.presentNodeIds()).containsExactlyInAnyOrder("a1", "a2");
            assertThat(a2.presentNodeIds()).containsExactlyInAnyOrder("a1", "a2");
        });

        ZarisNode intruder = start("b", seeds, 2, SECRET_B);

        // Longer than discovery, a join attempt (3 x 2 s) and a merge round (MERGE3 every 1-5 s) take.
        await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(a1.presentNodeIds()).containsExactlyInAnyOrder("a1", "a2");
            assertThat(a2.presentNodeIds()).containsExactlyInAnyOrder("a1", "a2");
            assertThat(intruder.presentNodeIds()).isSubsetOf(Set.of("b"));
        });
    }

    /**
     * The node without a secret runs as its own process: it reads the members' encrypted discovery replies as
     * plaintext, and the garbage lengths in them can make it attempt huge allocations that must not disturb
     * the members under test.
     */
    @Test
    void aNodeWithoutASecretCannotJoinAClusterThatHasOne() throws Exception {
        List<NodeAddress> seeds = seeds(3);
        ZarisNode a1 = start("a1", seeds, 0, SECRET_A);
        ZarisNode a2 = start("a2", seeds, 1, SECRET_A);
        await().atMost(FORMING).untilAsserted(() -> {
            assertThat(a1.presentNodeIds()).containsExactlyInAnyOrder("a1", "a2");
            assertThat(a2.presentNodeIds()).containsExactlyInAnyOrder("a1", "a2");
        });

        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "cluster-secret-logs"))) {
            ServerProcesses.Node open = processes.startNode("open", List.of(
                    "--port", Integer.toString(ServerProcesses.freeTcpPort()), "--resp-port", "off",
                    "--cluster-port", Integer.toString(seeds.get(2).port()),
                    "--seeds", seeds.stream().map(NodeAddress::toString).collect(Collectors.joining(",")),
                    "--cluster-name", CLUSTER_NAME, "--cluster-size", "3", "--segments", "16", "--partitions", "4",
                    "--replication-factor", "2", "--drain-on-stop", "0"));
            await().atMost(FORMING).until(() -> open.logText().contains("node open: membership view [open|0] with 1 member(s)"));

            // Its plaintext discovery and join requests carry no valid HMAC and cannot be decrypted by the members.
            await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(a1.presentNodeIds()).containsExactlyInAnyOrder("a1", "a2");
                assertThat(a2.presentNodeIds()).containsExactlyInAnyOrder("a1", "a2");
                assertThat(open.logText()).doesNotContainPattern("node open: membership view \\S+ with [2-9] member");
            });
        }
    }

    @Test
    void aNodeWithTheSameSecretJoins() throws Exception {
        List<NodeAddress> seeds = seeds(3);
        ZarisNode a1 = start("a1", seeds, 0, SECRET_A);
        ZarisNode a2 = start("a2", seeds, 1, SECRET_A);
        ZarisNode a3 = start("a3", seeds, 2, ClusterSecret.of("secret A, long enough to be accepted"));

        await().atMost(FORMING).untilAsserted(() -> {
            for (ZarisNode node : List.of(a1, a2, a3)) {
                assertThat(node.presentNodeIds()).containsExactlyInAnyOrder("a1", "a2", "a3");
            }
        });
    }

    private ZarisNode start(String id, List<NodeAddress> seeds, int seed, ClusterSecret secret) throws Exception {
        NodeConfig config = NodeConfig.builder(id)
                .port(0)
                .clusterSettings(new ClusterSettings(3, PartitionLayout.of(16, 4), 2))
                .membership(new MembershipConfig.Tcp(CLUSTER_NAME, "127.0.0.1", seeds.get(seed).port(), seeds))
                .security(SecurityOptions.none().withClusterSecret(secret))
                .build();
        ZarisNode node = new ZarisNode(config).start();
        started.add(node);
        return node;
    }

    private static List<NodeAddress> seeds(int count) throws IOException {
        List<NodeAddress> seeds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            seeds.add(new NodeAddress("127.0.0.1", LoopbackPorts.free()));
        }
        return seeds;
    }
}
