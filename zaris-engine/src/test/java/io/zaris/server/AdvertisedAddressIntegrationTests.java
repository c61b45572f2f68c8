package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three server processes bound to every interface ({@code 0.0.0.0}), each announcing {@code 127.0.0.1} as its
 * advertised data and membership address: the cluster forms, the map carries the advertised addresses (never
 * the wildcard), and a client routes through them. The same nodes serve their HTTP endpoint, which a real HTTP
 * client scrapes: liveness, readiness, and Prometheus text that parses and carries the node's and the JVM's meters.
 */
@Tag("multi-process")
class AdvertisedAddressIntegrationTests {

    /** One Prometheus text sample: name, optional labels, value. */
    private static final Pattern SAMPLE = Pattern.compile(
            "^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})? (-?[0-9.eE+-]+|NaN|[+-]Inf)$");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void nodesBoundToEveryInterfaceAnnounceTheirAdvertisedAddressAndServeHealthAndMetrics() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "advertised-address-logs"))) {
            int count = 3;
            List<int[]> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ports.add(new int[] {ServerProcesses.freeTcpPort(), ServerProcesses.freeTcpPort(),
                        ServerProcesses.freeTcpPort()});
            }
            String seeds = ports.stream().map(p -> "127.0.0.1:" + p[1]).collect(Collectors.joining(","));
            String clusterName = "advertised-" + ProcessHandle.current().pid();
            for (int i = 0; i < count; i++) {
                processes.startNode("n" + (i + 1), List.of("--host", "0.0.0.0", "--advertise-host", "127.0.0.1",
                        "--port", Integer.toString(ports.get(i)[0]), "--cluster-port", Integer.toString(ports.get(i)[1]),
                        "--http-port", Integer.toString(ports.get(i)[2]), "--seeds", seeds, "--cluster-name", clusterName,
                        "--allow-insecure", "--resp-port", "off", "--drain-on-stop", "0"));
            }
            for (ServerProcesses.Node node : processes.nodes()) {
                await().atMost(Duration.ofSeconds(90)).until(() -> node.logText().contains("node " + node.nodeId() + " started")
                        || !node.process().isAlive());
                assertThat(node.process().isAlive()).as(node.logText()).isTrue();
                assertThat(node.logText()).contains("data port 0.0.0.0:").contains("(announced as 127.0.0.1:");
            }

            try (ZarisClient client = ServerProcesses.defaultClient(List.of(new NodeAddress("127.0.0.1", ports.get(0)[0])))) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                ClusterView view = client.clusterView();
                Map<String, NodeAddress> expected = new HashMap<>();
                for (int i = 0; i < count; i++) {
                    expected.put("n" + (i + 1), new NodeAddress("127.0.0.1", ports.get(i)[0]));
                }
                assertThat(view.addresses()).isEqualTo(expected);
                for (int i = 0; i < 200; i++) {
                    client.sync().put("advertised-" + i, ("v" + i).getBytes(StandardCharsets.UTF_8));
                }
                for (int i = 0; i < 200; i++) {
                    assertThat(client.sync().get("advertised-" + i).orElseThrow().value())
                            .isEqualTo(("v" + i).getBytes(StandardCharsets.UTF_8));
                }
            }

            for (int i = 0; i < count; i++) {
                String base = "http://127.0.0.1:" + ports.get(i)[2];
                assertThat(get(base + "/health/live").statusCode()).isEqualTo(200);
                await().atMost(Duration.ofSeconds(60)).until(() -> get(base + "/health/ready").statusCode() == 200);
                assertThat(get(base + "/nothing-here").statusCode()).isEqualTo(404);
                HttpResponse<String> metrics = get(base + "/metrics");
                assertThat(metrics.statusCode()).isEqualTo(200);
                assertThat(metrics.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                        .startsWith("text/plain"));
                Map<String, Double> samples = parse(metrics.body());
                String node = "n" + (i + 1);
                assertThat(samples).containsKey("zaris_node_keys{node=\"" + node + "\"}")
                        .containsKey("zaris_node_ready{node=\"" + node + "\"}")
                        .containsKey("zaris_node_requests_served_total{node=\"" + node + "\"}");
                assertThat(samples.get("zaris_node_ready{node=\"" + node + "\"}")).isEqualTo(1.0);
                assertThat(samples.keySet()).anyMatch(name -> name.startsWith("jvm_memory_used_bytes{"))
                        .anyMatch(name -> name.startsWith("process_uptime_seconds"));
            }
            // 200 keys, two copies each (replication factor 2), spread over the three nodes.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                double keys = 0;
                for (int i = 0; i < count; i++) {
                    keys += parse(get("http://127.0.0.1:" + ports.get(i)[2] + "/metrics").body())
                            .getOrDefault("zaris_node_keys{node=\"n" + (i + 1) + "\"}", 0.0);
                }
                assertThat(keys).isGreaterThanOrEqualTo(400);
            });
        }
    }

    @Test
    void twoNodesOnIpv6LoopbackFormAClusterAClientUses() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(ipv6LoopbackWorks(), "this machine has no IPv6 loopback (::1)");
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "ipv6-logs"))) {
            List<int[]> ports = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                ports.add(new int[] {ServerProcesses.freeTcpPort(), ServerProcesses.freeTcpPort()});
            }
            String seeds = ports.stream().map(p -> "[::1]:" + p[1]).collect(Collectors.joining(","));
            for (int i = 0; i < 2; i++) {
                ServerProcesses.Node node = processes.startNode("n" + (i + 1), List.of("--host", "::1",
                        "--port", Integer.toString(ports.get(i)[0]), "--cluster-port", Integer.toString(ports.get(i)[1]),
                        "--seeds", seeds, "--cluster-name", "ipv6-" + ProcessHandle.current().pid(), "--resp-port", "off",
                        "--drain-on-stop", "0"));
                await().atMost(Duration.ofSeconds(90)).until(() -> node.logText().contains("node " + node.nodeId() + " started")
                        || !node.process().isAlive());
                assertThat(node.process().isAlive()).as(node.logText()).isTrue();
            }
            try (ZarisClient client = ServerProcesses.defaultClient(List.of(new NodeAddress("::1", ports.get(0)[0])))) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                assertThat(client.clusterView().addresses()).containsEntry("n2", new NodeAddress("::1", ports.get(1)[0]));
                for (int i = 0; i < 100; i++) {
                    client.sync().put("v6-" + i, new byte[] {(byte) i});
                }
                for (int i = 0; i < 100; i++) {
                    assertThat(client.sync().get("v6-" + i).orElseThrow().value()).containsExactly((byte) i);
                }
            }
        }
    }

    private static boolean ipv6LoopbackWorks() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket()) {
            socket.bind(new java.net.InetSocketAddress("::1", 0));
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Every sample line of a Prometheus text page as "name{labels}" → value; fails on a line that is neither. */
    private static Map<String, Double> parse(String page) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : page.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            assertThat(sample.matches()).as("a Prometheus sample line: %s", line).isTrue();
            String value = sample.group(3);
            samples.put(sample.group(1) + (sample.group(2) == null ? "" : sample.group(2)),
                    value.equals("NaN") ? Double.NaN : value.endsWith("Inf") ? (value.startsWith("-")
                            ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY) : Double.parseDouble(value));
        }
        return samples;
    }
}
