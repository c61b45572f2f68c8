package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.server.NodeConfig;
import io.zaris.server.ZarisNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node's RESP port fed random and mutated frames over real TCP: every connection ends (answered and
 * closed by the client's half-close, or closed for a protocol error) without hanging, no command fails
 * with an internal error, and the node keeps serving a well-behaved client throughout.
 */
@Tag("in-process-cluster")
class RespFuzzIntegrationTests {

    private static final RespLimits SMALL = new RespLimits(4096, 64, 1024, 64 * 1024);
    private static ZarisNode node;

    @BeforeAll
    static void startNode() throws Exception {
        node = new ZarisNode(NodeConfig.builder("fuzz")
                .port(0)
                .clusterSettings(new ClusterSettings(1, PartitionLayout.of(64, 8), 1))
                .membership(new MembershipConfig.InJvm("resp-fuzz-" + UUID.randomUUID()))
                .resp(RespOptions.builder().port(0).limits(SMALL).peerPorts(RespPeerPorts.offset(0)).build())
                .build()).start();
        node.awaitReady(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void randomAndMutatedFramesNeverStopTheNodeFromServing() throws Exception {
        Random random = new Random(7L);
        NodeAddress address = node.respAddress();
        for (int round = 0; round < 1500; round++) {
            byte[] frame = RespFuzz.frame(random);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address.host(), address.port()), 5000);
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(frame);
                socket.shutdownOutput();
                String replies = drain(socket.getInputStream());
                // A command that throws is answered "-ERR internal error: …" and would otherwise pass unseen.
                assertThat(replies).as("replies to frame " + round + ": " + new String(frame, StandardCharsets.ISO_8859_1))
                        .doesNotContain("internal error");
            } catch (SocketTimeoutException e) {
                throw new AssertionError("connection stuck after frame " + round + ": "
                        + new String(frame, StandardCharsets.ISO_8859_1), e);
            } catch (IOException reset) {
                // The node closed the connection while we were still writing: a clean close of that connection.
            }
            if (round % 250 == 0) {
                assertWellBehavedClientIsServed(address, round);
            }
        }
        assertWellBehavedClientIsServed(address, -1);
    }

    @Test
    void aProtocolErrorIsAnsweredBeforeTheConnectionCloses() throws Exception {
        NodeAddress address = node.respAddress();
        try (Socket socket = new Socket(address.host(), address.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("*1\r\n$99999999\r\n".getBytes(StandardCharsets.US_ASCII));
            String reply = drain(socket.getInputStream());
            assertThat(reply).startsWith("-ERR Protocol error: invalid bulk length");
        }
    }

    @Test
    void inlineAndPipelinedCommandsAreAnsweredInOrder() throws Exception {
        NodeAddress address = node.respAddress();
        try (Socket socket = new Socket(address.host(), address.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("SET fuzz:k 1\r\nINCR fuzz:k\r\n*2\r\n$3\r\nGET\r\n$6\r\nfuzz:k\r\n"
                    + "HELLO 3\r\nGET fuzz:missing\r\nBOGUS a\r\nQUIT\r\n").getBytes(StandardCharsets.US_ASCII));
            String reply = drain(socket.getInputStream());
            assertThat(reply).startsWith("+OK\r\n:2\r\n$1\r\n2\r\n%7\r\n");
            assertThat(reply).endsWith("_\r\n-ERR unknown command 'BOGUS', with args beginning with: 'a' \r\n+OK\r\n");
        }
    }

    private static void assertWellBehavedClientIsServed(NodeAddress address, int round) throws IOException {
        try (Socket socket = new Socket(address.host(), address.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("*3\r\n$3\r\nSET\r\n$4\r\nwell\r\n$6\r\nbehave\r\n*2\r\n$3\r\nGET\r\n$4\r\nwell\r\nQUIT\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(drain(socket.getInputStream())).as("after round " + round).isEqualTo("+OK\r\n$6\r\nbehave\r\n+OK\r\n");
        }
    }

    private static String drain(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int read;
        while ((read = in.read(buffer)) >= 0) {
            out.write(buffer, 0, read);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }
}
