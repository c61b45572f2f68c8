package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ClusterScenario;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** Three separate server processes started from the standalone jar form one cluster a client can use. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("multi-process")
class StandaloneClusterIntegrationTests {

    private static ServerProcesses processes;
    private static ZarisClient client;

    @BeforeAll
    static void startProcesses() throws Exception {
        processes = new ServerProcesses(Path.of("target", "standalone-logs"));
        List<NodeAddress> seeds = processes.start(3, 2);
        client = ZarisClient.connect(ZarisClientOptions.builder()
                .seeds(seeds)
                .bootstrapTimeout(Duration.ofSeconds(90))
                .build());
        ServerProcesses.awaitEveryPartitionWritable(client);
    }

    @AfterAll
    static void stopProcesses() {
        if (client != null) {
            client.close();
        }
        if (processes != null) {
            processes.close();
        }
    }

    @Test
    @Order(1)
    void threeProcessesAgreeOnOneMapAndServeEndToEnd() throws Exception {
        ClusterView view = client.clusterView();
        assertThat(view.addresses()).containsOnlyKeys("n1", "n2", "n3");
        assertThat(view.partitionMap().version()).isEqualTo(1);
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            assertThat(view.partitionMap().ownersOf(p)).hasSize(2).doesNotHaveDuplicates();
        }
        ClusterScenario.exercise(client, "proc-");
    }

    @Test
    @Order(2)
    void theServerJarRunsTheAdminCommand() throws Exception {
        NodeAddress n1 = client.clusterView().addresses().get("n1");
        ServerProcesses.AdminRun map = processes.admin("map", "--node", n1.toString());
        assertThat(map.status()).as(map.err()).isZero();
        assertThat(map.out()).contains("cluster map version 1").contains("n1    " + n1)
                .contains("moving (rebalance/heal in progress)").contains("  node  primaries  owned  active");
        ServerProcesses.AdminRun bad = processes.admin("map");
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).contains("zaris admin: --node <host:port> is required").contains("usage:");
    }

    @Test
    @Order(3)
    void sigtermLeavesTheClusterCleanly() throws Exception {
        // Last: the cluster is down to two nodes afterwards. The harness starts nodes with --drain-on-stop 0, so n3
        // leaves at once; SigtermDrainIntegrationTests covers the default drain.
        ServerProcesses.Node n3 = processes.nodes().get(2);
        await().atMost(Duration.ofSeconds(60)).until(() -> n3.logText().contains("adopted partition map version 1"));
        n3.process().destroy(); // SIGTERM
        assertThat(n3.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(n3.logText()).contains("node n3: shutting down")
                .contains("node n3: leaving without a drain (--drain-on-stop is 0)").contains("node n3: stopped");
        await().atMost(Duration.ofSeconds(30)).until(() -> processes.nodes().get(0).logText()
                .matches("(?s).*membership view \\S+ with 2 member\\(s\\).*"));
    }
}
