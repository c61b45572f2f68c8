package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The embedded cluster's RESP options: a base port (node-k on base + k - 1) and input limits reach every node. */
@Tag("in-process-cluster")
class RespEmbeddedOptionsIntegrationTests {

    @Test
    void nodesListenOnTheBasePortOnwardsWithTheConfiguredLimits() throws Exception {
        int base = twoFreePorts();
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(2).replicationFactor(1).layout(PartitionLayout.of(64, 8))
                .resp(true).respPort(base).respLimits(RespLimits.of(1024, 16, 64)).build().start()) {
            assertThat(cluster.respSeeds()).containsExactly(new NodeAddress("127.0.0.1", base),
                    new NodeAddress("127.0.0.1", base + 1));
            NodeAddress second = cluster.respSeeds().get(1);
            assertThat(exchange(second, "PING\r\nQUIT\r\n")).isEqualTo("+PONG\r\n+OK\r\n");
            assertThat(exchange(second, "*2\r\n$4\r\nECHO\r\n$1025\r\n")).isEqualTo("-ERR Protocol error: invalid bulk length\r\n");
            assertThat(exchange(second, "*17\r\n")).isEqualTo("-ERR Protocol error: invalid multibulk length\r\n");
            assertThat(exchange(second, "ECHO " + "x".repeat(70) + "\r\n")).startsWith("-ERR Protocol error: too big inline request");

            cluster.stopNode("node-2");
            assertThat(cluster.restartNode("node-2").respAddress()).as("a restarted node gets its port back")
                    .isEqualTo(new NodeAddress("127.0.0.1", base + 1));
        }
    }

    @Test
    void aBasePortNeedsRespAndRoomForEveryNode() {
        assertThatThrownBy(() -> EmbeddedCluster.builder().respPort(7379).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resp(true)");
        assertThatThrownBy(() -> EmbeddedCluster.builder().nodes(3).resp(true).respPort(65534).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no port for node-3");
        assertThatThrownBy(() -> EmbeddedCluster.builder().respPort(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0..65535");
    }

    /** Sends {@code input}, half-closes, and returns everything the node answered before closing. */
    private static String exchange(NodeAddress address, String input) throws IOException {
        try (Socket socket = new Socket(address.host(), address.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(input.getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** A port p with p and p + 1 free on loopback right now (the cluster binds them a moment later). */
    private static int twoFreePorts() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket first = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = first.getLocalPort();
                if (port < 65535) {
                    try (ServerSocket second = new ServerSocket(port + 1, 1, InetAddress.getLoopbackAddress())) {
                        return port;
                    } catch (IOException taken) {
                        // try another pair
                    }
                }
            }
        }
        throw new IllegalStateException("no two adjacent free loopback ports found in 50 attempts");
    }
}
