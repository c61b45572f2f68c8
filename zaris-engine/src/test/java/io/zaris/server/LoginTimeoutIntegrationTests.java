package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.Request;
import io.zaris.security.SecurityOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Connections to a node that requires a password must log in within the login timeout: native and RESP
 * connections that do not are closed by the node, logged-in ones are left alone.
 */
@Tag("in-process-cluster")
class LoginTimeoutIntegrationTests {

    private static final String PASSWORD = "login-timeout-pass";
    private static final Duration LOGIN_TIMEOUT = Duration.ofSeconds(1);
    private static EmbeddedCluster cluster;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.builder().nodes(1).replicationFactor(1).layout(PartitionLayout.of(16, 4)).resp(true)
                .security(SecurityOptions.password(PASSWORD).withLoginTimeout(LOGIN_TIMEOUT)).build().start();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aNativeConnectionThatDoesNotLogInIsClosedAndALoggedInOneIsNot() throws Exception {
        try (RawConnection loggedIn = new RawConnection(cluster.seeds().get(0));
             RawConnection idle = new RawConnection(cluster.seeds().get(0))) {
            loggedIn.handshake();
            assertThat(loggedIn.login("default", PASSWORD).status()).isEqualTo(KvStatus.OK);
            long start = System.nanoTime();
            idle.handshake();

            assertThat(idle.isClosedByPeer()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(LOGIN_TIMEOUT.minusMillis(100));
            // The idle connection's timeout has passed, and the logged-in one's (armed earlier) with it.
            loggedIn.send(new Request.ClusterMap(7));
            assertThat(loggedIn.read().status()).isEqualTo(KvStatus.OK);
        }
    }

    @Test
    void aRespConnectionThatDoesNotAuthenticateIsClosedAndAnAuthenticatedOneIsNot() throws Exception {
        NodeAddress resp = cluster.respSeeds().get(0);
        try (Socket authenticated = new Socket(resp.host(), resp.port()); Socket idle = new Socket(resp.host(), resp.port())) {
            authenticated.setSoTimeout(10_000);
            idle.setSoTimeout(10_000);
            assertThat(command(authenticated, "AUTH " + PASSWORD)).isEqualTo("+OK");
            long start = System.nanoTime();

            assertThat(closedByPeer(idle.getInputStream())).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(LOGIN_TIMEOUT.minusMillis(100));
            assertThat(command(authenticated, "PING")).isEqualTo("+PONG");
        }
    }

    /** Sends an inline command and reads one reply line. */
    private static String command(Socket socket, String command) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("closed after '" + line + "'");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    /** Reads until the node closes the connection; a socket timeout (10 s) propagates as a failure. */
    private static boolean closedByPeer(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // discard anything the node says before closing
            }
            return true;
        } catch (SocketException e) {
            return true;
        }
    }
}
