package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.NodeAddress;
import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Membership found through a real DNS server: dnsmasq answers SRV records for {@code _cluster._tcp.zaris.test},
 * one per node (all on 127.0.0.1, each with its own membership port), and every node starts with {@code --discovery
 * dns-srv:_cluster._tcp.zaris.test} and no seeds. Two nodes listed form the cluster; then a third node is added to
 * DNS (dnsmasq restarted with one more record on the same port) and started the same way, and joins the running
 * cluster. Skipped when dnsmasq is not installed ({@code scripts/install-test-tools} installs it).
 */
@Tag("multi-process")
class DnsDiscoveryIntegrationTests {

    private static final String SERVICE = "_cluster._tcp.zaris.test";

    @Test
    void nodesFindEachOtherThroughDnsAndANodeAddedToDnsLaterJoins() throws Exception {
        Assumptions.assumeTrue(new File("/usr/sbin/dnsmasq").canExecute(),
                "dnsmasq is not installed: scripts/install-test-tools installs it");
        Path logs = Path.of("target", "dns-discovery-logs");
        Files.createDirectories(logs);
        int dnsPort = freeUdpPort();
        List<int[]> ports = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ports.add(new int[] {ServerProcesses.freeTcpPort(), ServerProcesses.freeTcpPort()});
        }
        String clusterName = "dns-" + ProcessHandle.current().pid();
        Process dns = startDnsmasq(dnsPort, ports.subList(0, 2), logs);
        try (ServerProcesses processes = new ServerProcesses(logs)) {
            for (int i = 0; i < 2; i++) {
                start(processes, i, ports, dnsPort, clusterName);
            }
            try (ZarisClient client = ServerProcesses.defaultClient(List.of(new NodeAddress("127.0.0.1", ports.get(0)[0])))) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                assertThat(client.clusterView().addresses()).containsOnlyKeys("n1", "n2");

                dns.destroy();
                assertThat(dns.waitFor(10, TimeUnit.SECONDS)).isTrue();
                dns = startDnsmasq(dnsPort, ports, logs);
                start(processes, 2, ports, dnsPort, clusterName);
                // The leader plans the newcomer in after its join settle delay (1 s here).
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    assertThat(client.clusterView().addresses()).containsKey("n3");
                    assertThat(client.clusterView().partitionMap().nodes()).contains("n3");
                });
                assertThat(processes.node("n3").logText()).contains("adopted partition map");
            }
        } finally {
            dns.destroy();
            dns.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void start(ServerProcesses processes, int index, List<int[]> ports, int dnsPort, String clusterName)
            throws IOException {
        String nodeId = "n" + (index + 1);
        ServerProcesses.Node node = processes.startNode(nodeId, List.of("--port", Integer.toString(ports.get(index)[0]),
                "--cluster-port", Integer.toString(ports.get(index)[1]), "--discovery", "dns-srv:" + SERVICE,
                "--dns-server", "127.0.0.1:" + dnsPort, "--cluster-size", "2", "--cluster-name", clusterName,
                "--join-settle-delay", "1s", "--resp-port", "off", "--drain-on-stop", "0"));
        await().atMost(Duration.ofSeconds(90)).until(() -> node.logText().contains("node " + nodeId + " started")
                || !node.process().isAlive());
        assertThat(node.process().isAlive()).as(node.logText()).isTrue();
    }

    /** dnsmasq in the foreground on 127.0.0.1:{@code port}, answering only the SRV records of {@code ports}. */
    private static Process startDnsmasq(int port, List<int[]> ports, Path logs) throws IOException {
        List<String> command = new ArrayList<>(List.of("/usr/sbin/dnsmasq", "--keep-in-foreground", "--no-resolv",
                "--no-hosts", "--no-poll", "--pid-file=", "--conf-file=/dev/null", "--bind-interfaces",
                "--listen-address=127.0.0.1", "--port=" + port, "--log-queries", "--log-facility=-",
                "--host-record=zaris-node.test,127.0.0.1"));
        for (int[] node : ports) {
            command.add("--srv-host=" + SERVICE + ",zaris-node.test," + node[1]);
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve("dnsmasq.log").toFile())).start();
        await().atMost(Duration.ofSeconds(10)).until(() -> !process.isAlive() || Files.readString(logs.resolve("dnsmasq.log"))
                .contains("started, version"));
        assertThat(process.isAlive()).as(Files.readString(logs.resolve("dnsmasq.log"))).isTrue();
        return process;
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
