package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.security.AuthFailureLimiter;
import io.zaris.security.Credentials;
import io.zaris.security.SecurityOptions;
import io.zaris.security.UserDirectory;
import io.zaris.transport.ZarisStatusException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A 3-node cluster (replication factor 2, SYNC acknowledgements) that requires a password, with an
 * application user and a read-only user, over real TCP on its data and RESP ports. SYNC writes being
 * acknowledged proves the replication links log in too. The failed-login limiter runs on a clock this test
 * moves, so one test's failures never throttle the next.
 */
@Tag("in-process-cluster")
class AuthenticationIntegrationTests {

    private static final String SHARED = "cluster-pass";
    private static final AtomicLong limiterNanos = new AtomicLong();
    private static EmbeddedCluster cluster;

    @BeforeAll
    static void start() {
        SecurityOptions security = new SecurityOptions(
                UserDirectory.of(SHARED, List.of("app read-write app-pass", "reports read-only reports-pass")),
                Credentials.password(SHARED), new AuthFailureLimiter(5, Duration.ofSeconds(1), 100, limiterNanos::get));
        cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8)).resp(true)
                .security(security).build().start();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void forgetEarlierFailures() {
        limiterNanos.addAndGet(Duration.ofMinutes(1).toNanos());
    }

    @Test
    void clientWithThePasswordIsServedAndSyncWritesReachReplicas() {
        try (ZarisClient client = connect(new Credentials("app", "app-pass"))) {
            for (int i = 0; i < 50; i++) {
                client.sync().put("auth:" + i, bytes("v" + i));
            }
            assertThat(client.sync().get("auth:7")).hasValueSatisfying(v -> assertThat(v.value()).isEqualTo(bytes("v7")));
        }
        long replicatedEntries = cluster.nodes().stream().mapToLong(ZarisNode::storedEntries).sum();
        assertThat(replicatedEntries).isGreaterThanOrEqualTo(100);
    }

    @Test
    void clientWithAWrongPasswordIsRefusedAtConnect() {
        assertThatThrownBy(() -> connect(new Credentials("app", "guess")))
                .isInstanceOfSatisfying(ZarisStatusException.class, e -> assertThat(e.status()).isEqualTo(KvStatus.UNAUTHORIZED))
                .hasMessageContaining("invalid username-password pair");
    }

    @Test
    void requestsBeforeLoginAreUnauthorizedAndTheConnectionStaysUsable() throws IOException {
        try (RawConnection raw = new RawConnection(cluster.seeds().get(0))) {
            raw.handshake();
            raw.send(new Request.Get(5, bytes("k")));
            RawConnection.Response refused = raw.read();
            assertThat(refused.status()).isEqualTo(KvStatus.UNAUTHORIZED);
            assertThat(ResponseCodec.readMessage(refused.body())).contains("authentication required");
            assertThat(raw.login("default", SHARED).status()).isEqualTo(KvStatus.OK);
            raw.send(new Request.MapVersion(6));
            assertThat(raw.read().status()).isEqualTo(KvStatus.OK);
        }
    }

    @Test
    void threeFailedLoginsCloseTheConnection() throws IOException {
        long failedBefore = totalFailedLogins();
        try (RawConnection raw = new RawConnection(cluster.seeds().get(0))) {
            raw.handshake();
            assertThat(raw.login("app", "a").status()).isEqualTo(KvStatus.UNAUTHORIZED);
            assertThat(raw.login("app", "b").status()).isEqualTo(KvStatus.UNAUTHORIZED);
            assertThat(raw.login("app", "c").status()).isEqualTo(KvStatus.UNAUTHORIZED);
            assertThat(raw.isClosedByPeer()).isTrue();
        }
        assertThat(totalFailedLogins() - failedBefore).isEqualTo(3);
    }

    @Test
    void aPeerThatFailedTooOftenIsThrottledEvenWithTheRightPassword() throws IOException {
        for (int connection = 0; connection < 2; connection++) {
            try (RawConnection raw = new RawConnection(cluster.seeds().get(1))) {
                raw.handshake();
                raw.login("app", "x1");
                raw.login("app", "x2");
                raw.login("app", "x3");
            }
        }
        try (RawConnection raw = new RawConnection(cluster.seeds().get(1))) {
            raw.handshake();
            RawConnection.Response throttled = raw.login("app", "app-pass");
            assertThat(throttled.status()).isEqualTo(KvStatus.UNAUTHORIZED);
            assertThat(ResponseCodec.readMessage(throttled.body())).contains("too many failed logins").contains("retry in");
        }
        limiterNanos.addAndGet(Duration.ofSeconds(1).toNanos());
        try (RawConnection raw = new RawConnection(cluster.seeds().get(1))) {
            raw.handshake();
            assertThat(raw.login("app", "app-pass").status()).isEqualTo(KvStatus.OK);
        }
    }

    @Test
    void readOnlyUserReadsButCannotWrite() throws IOException {
        try (RawConnection raw = new RawConnection(cluster.seeds().get(0))) {
            raw.handshake();
            assertThat(raw.login("reports", "reports-pass").status()).isEqualTo(KvStatus.OK);
            raw.send(new Request.Put(7, bytes("ro"), bytes("v"), 0, false, -1));
            RawConnection.Response refused = raw.read();
            assertThat(refused.status()).isEqualTo(KvStatus.UNAUTHORIZED);
            assertThat(ResponseCodec.readMessage(refused.body())).contains("read-only");
            raw.send(new Request.Get(8, bytes("ro")));
            assertThat(raw.read().status()).isIn(KvStatus.NOT_FOUND, KvStatus.MOVED);
        }
    }

    @Test
    void applicationUsersCannotSendNodeToNodeOperations() throws IOException {
        try (RawConnection raw = new RawConnection(cluster.seeds().get(0))) {
            raw.handshake();
            assertThat(raw.login("app", "app-pass").status()).isEqualTo(KvStatus.OK);
            raw.send(new Request.Replicate(9, 0, Long.MAX_VALUE / 2, 0, List.of()));
            assertThat(raw.read().status()).isEqualTo(KvStatus.UNAUTHORIZED);
            raw.send(new Request.ReplicateBatch(10, List.of(new Request.Replicate(10, 0, Long.MAX_VALUE / 2, 0, List.of()))));
            assertThat(raw.read().status()).isEqualTo(KvStatus.UNAUTHORIZED);
        }
        try (ZarisClient client = connect(new Credentials("app", "app-pass"))) {
            client.sync().put("after-fence-attempt", bytes("still served"));
        }
    }

    @Test
    void redisClientsMustAuthenticate() throws IOException {
        NodeAddress resp = cluster.respSeeds().get(0);
        try (Socket socket = new Socket(resp.host(), resp.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out.write(bytes("PING\r\nAUTH wrong\r\nAUTH app nope\r\nHELLO 3\r\nAUTH reports reports-pass\r\n"
                    + "SET k v\r\nGET missing-key\r\n"));
            out.flush();
            assertThat(in.readLine()).isEqualTo("-NOAUTH Authentication required.");
            assertThat(in.readLine()).isEqualTo("-WRONGPASS invalid username-password pair or user is disabled.");
            assertThat(in.readLine()).isEqualTo("-WRONGPASS invalid username-password pair or user is disabled.");
            assertThat(in.readLine()).startsWith("-NOAUTH HELLO must be called with the client already authenticated");
            assertThat(in.readLine()).isEqualTo("+OK");
            assertThat(in.readLine()).isEqualTo("-NOPERM User reports has no permissions to run the 'set' command");
            assertThat(in.readLine()).matches("\\$-1|-MOVED .*");
        }
    }

    @Test
    void aRedisPeerThatFailedTooOftenIsThrottledEvenWithTheRightPassword() throws IOException {
        NodeAddress resp = cluster.respSeeds().get(2);
        long failedBefore = totalFailedLogins();
        for (int connection = 0; connection < 2; connection++) {
            try (RespLines redis = new RespLines(resp)) {
                for (int attempt = 0; attempt < 3; attempt++) {
                    assertThat(redis.call("AUTH app wrong-" + attempt)).startsWith("-WRONGPASS");
                }
                assertThat(redis.closedByPeer()).as("the third failure closes the connection").isTrue();
            }
        }
        assertThat(totalFailedLogins() - failedBefore).isEqualTo(6);
        try (RespLines redis = new RespLines(resp)) {
            String throttled = redis.call("AUTH app app-pass");
            assertThat(throttled).startsWith("-WRONGPASS too many failed logins from this address; retry in ");
            assertThat(redis.call("GET k")).startsWith("-NOAUTH");
        }
        limiterNanos.addAndGet(Duration.ofSeconds(1).toNanos());
        try (RespLines redis = new RespLines(resp)) {
            assertThat(redis.call("AUTH app app-pass")).isEqualTo("+OK");
        }
    }

    /** One RESP connection spoken inline, one reply line per command. */
    private static final class RespLines implements AutoCloseable {

        private final Socket socket;
        private final OutputStream out;
        private final BufferedReader in;

        RespLines(NodeAddress address) throws IOException {
            socket = new Socket(address.host(), address.port());
            socket.setSoTimeout(10_000);
            out = socket.getOutputStream();
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        }

        String call(String command) throws IOException {
            out.write(bytes(command + "\r\n"));
            out.flush();
            return in.readLine();
        }

        boolean closedByPeer() throws IOException {
            try {
                return in.read() == -1;
            } catch (java.net.SocketException reset) {
                return true;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void lettuceLogsInWithHelloAuth() {
        NodeAddress resp = cluster.respSeeds().get(0);
        RedisClient redis = RedisClient.create(RedisURI.builder().withHost(resp.host()).withPort(resp.port())
                .withAuthentication("app", "app-pass").build());
        try (StatefulRedisConnection<String, String> connection = redis.connect()) {
            assertThat(connection.sync().ping()).isEqualTo("PONG");
        } finally {
            redis.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static ZarisClient connect(Credentials credentials) {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).credentials(credentials)
                .bootstrapTimeout(Duration.ofSeconds(3)).environment(Map.of()).build());
    }

    private static long totalFailedLogins() {
        return cluster.nodes().stream().mapToLong(node -> node.stats().failedLogins()).sum();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
