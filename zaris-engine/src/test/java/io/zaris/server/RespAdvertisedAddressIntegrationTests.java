package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.NodeAddress;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A server process bound to every interface ({@code 0.0.0.0}) that advertises another loopback address
 * ({@code 127.0.0.7}) and a RESP port other than the one it binds: {@code CLUSTER SLOTS}, {@code CLUSTER SHARDS}
 * and {@code CLUSTER NODES} must name the advertised host and RESP port, never the bound ones, and a native
 * client that starts from a seed at {@code 127.0.0.1} must route through the advertised address it is handed.
 */
@Tag("multi-process")
class RespAdvertisedAddressIntegrationTests {

    private static final String ADVERTISED_HOST = "127.0.0.7";
    /** The advertised RESP port's offset from the advertised data port; nothing listens there. */
    private static final int ADVERTISED_RESP_OFFSET = 7;

    @Test
    void clusterCommandsNameTheAdvertisedHostAndRespPortAndTheClientRoutesThroughThem() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "resp-advertised-logs"))) {
            int data = ServerProcesses.freeTcpPort();
            int cluster = ServerProcesses.freeTcpPort();
            int resp = ServerProcesses.freeTcpPort();
            int advertisedResp = data + ADVERTISED_RESP_OFFSET;
            ServerProcesses.Node node = processes.startNode("n1", List.of("--host", "0.0.0.0",
                    "--advertise-host", ADVERTISED_HOST, "--port", Integer.toString(data),
                    "--cluster-host", "127.0.0.1", "--cluster-port", Integer.toString(cluster),
                    "--seeds", "127.0.0.1:" + cluster, "--cluster-name", "resp-advertised-" + ProcessHandle.current().pid(),
                    "--replication-factor", "1", "--resp-port", Integer.toString(resp),
                    "--resp-advertise-port", Integer.toString(advertisedResp), "--allow-insecure",
                    "--drain-on-stop", "0"));
            await().atMost(Duration.ofSeconds(90)).until(() -> node.logText().contains("node n1 started")
                    || !node.process().isAlive());
            assertThat(node.process().isAlive()).as(node.logText()).isTrue();

            try (ZarisClient client = ServerProcesses.defaultClient(List.of(new NodeAddress("127.0.0.1", data)))) {
                assertThat(client.clusterView().addresses()).containsEntry("n1", new NodeAddress(ADVERTISED_HOST, data));
                ServerProcesses.awaitEveryPartitionWritable(client);
                client.sync().put("advertised-resp", "yes".getBytes(StandardCharsets.UTF_8));
                assertThat(client.sync().get("advertised-resp")).isPresent();
            }

            String slots = ask(resp, "CLUSTER", "SLOTS");
            String shards = ask(resp, "CLUSTER", "SHARDS");
            String nodes = ask(resp, "CLUSTER", "NODES");
            // SLOTS and SHARDS give the host and the port as values of their own (one per line here).
            for (String answer : List.of(slots, shards)) {
                assertThat(answer.lines().toList()).contains(ADVERTISED_HOST, Integer.toString(advertisedResp))
                        .doesNotContain("0.0.0.0", Integer.toString(resp));
            }
            assertThat(nodes).contains(ADVERTISED_HOST + ":" + advertisedResp + "@").doesNotContain("0.0.0.0")
                    .doesNotContain(":" + resp + "@");
        }
    }

    /** Sends one command to the RESP port at 127.0.0.1 and returns its whole reply, flattened to text. */
    private static String ask(int port, String... command) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            StringBuilder request = new StringBuilder("*" + command.length + "\r\n");
            for (String part : command) {
                request.append('$').append(part.length()).append("\r\n").append(part).append("\r\n");
            }
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            StringBuilder reply = new StringBuilder();
            readValue(new BufferedInputStream(socket.getInputStream()), reply);
            return reply.toString();
        }
    }

    /** Reads one RESP2/RESP3 value, appending its scalars to {@code text} one per line; an error reply fails. */
    private static void readValue(InputStream in, StringBuilder text) throws IOException {
        int type = in.read();
        String line = readLine(in);
        switch (type) {
            case '+', ':' -> text.append(line).append('\n');
            case '-' -> throw new IOException("error reply: " + line);
            case '$' -> {
                int length = Integer.parseInt(line);
                if (length >= 0) {
                    text.append(new String(in.readNBytes(length), StandardCharsets.UTF_8)).append('\n');
                    readLine(in);
                }
            }
            case '*' -> {
                int count = Integer.parseInt(line);
                for (int i = 0; i < count; i++) {
                    readValue(in, text);
                }
            }
            case '%' -> {
                int count = Integer.parseInt(line);
                for (int i = 0; i < 2 * count; i++) {
                    readValue(in, text);
                }
            }
            default -> throw new IOException("unexpected RESP type '" + (char) type + "' before '" + line + "'");
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int next = in.read();
            if (next < 0) {
                throw new EOFException("the RESP reply ended early");
            }
            if (previous == '\r' && next == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(next);
            previous = next;
        }
    }
}
