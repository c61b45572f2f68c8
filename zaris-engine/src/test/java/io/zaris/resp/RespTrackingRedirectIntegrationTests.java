package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code CLIENT TRACKING ... REDIRECT} over real sockets: a RESP2 tracking connection whose invalidations reach a
 * subscribed RESP2 connection as {@code message __redis__:invalidate [keys]}, a RESP3 redirect connection's
 * {@code invalidate} pushes, and a closed redirect's {@code tracking-redir-broken}, each compared byte for byte with
 * what a real redis-server sends (connection ids, which differ, normalized to {@code <id>}); the null payload of a
 * stopping node's flush and the keys of a drained node's partitions at the redirect connection.
 */
@Tag("in-process-cluster")
class RespTrackingRedirectIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static EmbeddedCluster cluster;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.builder().nodes(1).replicationFactor(1).layout(PartitionLayout.of(64, 8)).resp(true)
                .build().start();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static NodeAddress zaris() {
        return cluster.respSeeds().get(0);
    }

    /** The commands and errors without a live id: the same replies as Redis. */
    @Test
    void redirectErrorsAndGetRedirAnswerAsRedisDoes() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        RedisServer.assertSameReplies(zaris(), List.of(
                "CLIENT GETREDIR",
                "CLIENT TRACKINGINFO",
                "CLIENT TRACKING on REDIRECT 999999",
                "CLIENT TRACKING off REDIRECT 999999",
                "CLIENT TRACKING maybe REDIRECT 999999",
                "CLIENT TRACKING on REDIRECT abc",
                "CLIENT TRACKING on REDIRECT",
                "CLIENT TRACKING on REDIRECT 0",
                "CLIENT TRACKING on REDIRECT -1",
                "CLIENT TRACKING on BCAST PREFIX a REDIRECT 999999",
                "CLIENT GETREDIR x",
                "CLIENT TRACKING off",
                "CLIENT GETREDIR"), Set.of());
    }

    @Test
    void aSubscribedResp2RedirectConnectionGetsEachChangedKeyAsAPubSubMessageAsRedisSendsIt() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        String redis;
        try (RedisServer server = RedisServer.start()) {
            redis = resp2RedirectSees(server.address());
        }
        String ours = resp2RedirectSees(zaris());
        assertThat(ours).isEqualTo(redis);
        assertThat(ours).contains("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n*1\r\n$6\r\nr2:one\r\n");
    }

    /**
     * What a RESP2 connection subscribed to {@code __redis__:invalidate} receives, and what the RESP2 tracking connection
     * redirecting to it is answered, while a third connection writes: every byte, the redirect id as {@code <id>}.
     */
    private static String resp2RedirectSees(NodeAddress address) throws Exception {
        StringBuilder seen = new StringBuilder();
        try (Socket redirect = open(address); Socket tracker = open(address)) {
            long id = clientId(redirect);
            seen.append(exchange(redirect, "SUBSCRIBE __redis__:invalidate",
                    "*3\r\n$9\r\nsubscribe\r\n$20\r\n__redis__:invalidate\r\n:1\r\n"));
            String expectedTracker = "+OK\r\n-ERR A client can only redirect to a single other client\r\n$-1\r\n$-1\r\n"
                    + ":<id>\r\n*6\r\n$5\r\nflags\r\n*1\r\n$2\r\non\r\n$8\r\nredirect\r\n:<id>\r\n$8\r\nprefixes\r\n*0\r\n";
            seen.append(normalized(exchange(tracker, "CLIENT TRACKING on REDIRECT " + id + "\r\nCLIENT TRACKING on REDIRECT "
                    + id + " REDIRECT " + id + "\r\nGET r2:one\r\nGET r2:two\r\nCLIENT GETREDIR\r\nCLIENT TRACKINGINFO",
                    expectedTracker.replace("<id>", Long.toString(id))), id));
            RedisCli.exchangeLines(address, "SET r2:one 1\nSET r2:two 2\nSET r2:unread 3\nSET r2:one 4\n");
            String message = "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n";
            seen.append(readExactly(redirect, message + "*1\r\n$6\r\nr2:one\r\n" + message + "*1\r\n$6\r\nr2:two\r\n"));
            // Read again, changed again: pushed again, once.
            seen.append(exchange(tracker, "GET r2:one", "$1\r\n4\r\n"));
            RedisCli.exchangeLines(address, "SET r2:one 5\n");
            seen.append(readExactly(redirect, message + "*1\r\n$6\r\nr2:one\r\n"));
        }
        return seen.toString();
    }

    @Test
    void aResp3RedirectConnectionGetsInvalidatePushesAsRedisSendsThem() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        String redis;
        try (RedisServer server = RedisServer.start()) {
            redis = resp3RedirectSees(server.address());
        }
        String ours = resp3RedirectSees(zaris());
        assertThat(ours).isEqualTo(redis);
    }

    /** A RESP3 connection that subscribed to nothing, named by a RESP2 tracking connection's REDIRECT. */
    private static String resp3RedirectSees(NodeAddress address) throws Exception {
        try (Socket redirect = open(address); Socket tracker = open(address)) {
            long id = clientId(redirect);
            skipReply(redirect, "HELLO 3");
            exchange(tracker, "CLIENT TRACKING on REDIRECT " + id + "\r\nGET r3:k", "+OK\r\n$-1\r\n");
            RedisCli.exchangeLines(address, "SET r3:k 1\n");
            return readExactly(redirect, ">2\r\n$10\r\ninvalidate\r\n*1\r\n$4\r\nr3:k\r\n");
        }
    }

    @Test
    void aClosedRedirectIsReportedToAResp3TrackerAtEachInvalidationAsRedisDoes() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        String redis;
        try (RedisServer server = RedisServer.start()) {
            redis = brokenRedirectSeen(server.address());
        }
        String ours = brokenRedirectSeen(zaris());
        assertThat(ours).isEqualTo(redis);
        assertThat(ours).contains("$15\r\nbroken_redirect\r\n");
    }

    /** A RESP3 tracker's pushes and TRACKINGINFO after its redirect connection closed, the id as {@code <id>}. */
    private static String brokenRedirectSeen(NodeAddress address) throws Exception {
        try (Socket tracker = open(address)) {
            long id;
            try (Socket redirect = open(address)) {
                id = clientId(redirect);
                skipReply(tracker, "HELLO 3");
                exchange(tracker, "CLIENT TRACKING on REDIRECT " + id + "\r\nGET rb:a\r\nGET rb:b", "+OK\r\n_\r\n_\r\n");
            }
            // The server has seen the close once REDIRECT cannot name the connection any more (OFF changes nothing).
            await().atMost(DEADLINE).until(() -> RedisCli.exchangeLines(address, "CLIENT TRACKING off REDIRECT " + id + "\n")
                    .startsWith("-ERR The client ID you want redirect to does not exist"));
            RedisCli.exchangeLines(address, "SET rb:a 1\nSET rb:b 2\n");
            String broken = ">2\r\n$21\r\ntracking-redir-broken\r\n:" + id + "\r\n";
            String pushes = readExactly(tracker, broken + broken);
            String info = exchange(tracker, "CLIENT TRACKINGINFO\r\nCLIENT GETREDIR", "%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n"
                    + "$15\r\nbroken_redirect\r\n$8\r\nredirect\r\n:" + id + "\r\n$8\r\nprefixes\r\n*0\r\n:" + id + "\r\n");
            return normalized(pushes + info, id);
        }
    }

    @Test
    void aStoppingNodeFlushesABcastTrackerAtItsResp2RedirectWithANullPayload() throws Exception {
        try (EmbeddedCluster own = EmbeddedCluster.builder().nodes(1).replicationFactor(1).layout(PartitionLayout.of(64, 8))
                .resp(true).build().start()) {
            NodeAddress address = own.respSeeds().get(0);
            try (Socket redirect = open(address); Socket tracker = open(address)) {
                long id = clientId(redirect);
                exchange(redirect, "SUBSCRIBE __redis__:invalidate",
                        "*3\r\n$9\r\nsubscribe\r\n$20\r\n__redis__:invalidate\r\n:1\r\n");
                exchange(tracker, "CLIENT TRACKING on BCAST PREFIX bc: REDIRECT " + id, "+OK\r\n");
                RedisCli.exchangeLines(address, "SET bc:1 v\n");
                String message = "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n";
                readExactly(redirect, message + "*1\r\n$4\r\nbc:1\r\n");

                own.stopNode(own.nodes().get(0).nodeId());

                // A flush when the node stops serving (a view without it may come first, and flush too), then the close.
                assertThat(readToEnd(redirect)).as("the flush arrives before the connection closes")
                        .matches("(" + Pattern.quote(message + "$-1\r\n") + ")+");
            }
        }
    }

    @Test
    void aDrainedOwnerInvalidatesItsKeysAtTheRedirectConnection() throws Exception {
        ReplicationSettings fast = ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(2))
                .withHealCooldown(Duration.ofSeconds(1));
        try (EmbeddedCluster three = EmbeddedCluster.builder().nodes(3).replicationFactor(3).layout(PartitionLayout.of(64, 8))
                .replication(fast).resp(true).build().start()) {
            String key = "drained:tracked";
            ZarisNode leader = three.leader();
            int segment = new SegmentMapper(leader.currentView().layout().segmentCount()).segmentOf(key);
            ZarisNode owner = three.node(leader.currentView().runtimeOfSegment(segment).activeNode());
            NodeAddress address = owner.respAddress();
            RedisCli.exchangeLines(address, "SET " + key + " v1\n");
            try (Socket redirect = open(address); Socket tracker = open(address)) {
                long id = clientId(redirect);
                exchange(redirect, "SUBSCRIBE __redis__:invalidate",
                        "*3\r\n$9\r\nsubscribe\r\n$20\r\n__redis__:invalidate\r\n:1\r\n");
                exchange(tracker, "CLIENT TRACKING on REDIRECT " + id + "\r\nGET " + key, "+OK\r\n$2\r\nv1\r\n");

                owner.drain().get(60, TimeUnit.SECONDS);

                assertThat(readExactly(redirect, "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n*1\r\n$"
                        + key.length() + "\r\n" + key + "\r\n")).isNotEmpty();
            }
        }
    }

    // ------------------------------------------------------------------ a small RESP socket client

    private static Socket open(NodeAddress address) throws IOException {
        Socket socket = new Socket(address.host(), address.port());
        socket.setSoTimeout((int) DEADLINE.toMillis());
        return socket;
    }

    /** {@code CLIENT ID} on {@code socket}. */
    private static long clientId(Socket socket) throws IOException {
        socket.getOutputStream().write("CLIENT ID\r\n".getBytes(StandardCharsets.US_ASCII));
        String line = line(socket.getInputStream());
        assertThat(line).startsWith(":");
        return Long.parseLong(line.substring(1));
    }

    /**
     * Sends {@code commands} (inline, CRLF between them) and reads as many bytes as {@code expected} has, asserting
     * them equal: the replies, which the caller may also compare with Redis's.
     */
    private static String exchange(Socket socket, String commands, String expected) throws IOException {
        socket.getOutputStream().write((commands + "\r\n").getBytes(StandardCharsets.UTF_8));
        return readExactly(socket, expected);
    }

    /** Reads as many bytes as {@code expected} has and asserts them equal to it. */
    private static String readExactly(Socket socket, String expected) throws IOException {
        InputStream in = socket.getInputStream();
        int length = expected.getBytes(StandardCharsets.ISO_8859_1).length;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[length];
        while (out.size() < length) {
            int n = in.read(buffer, 0, length - out.size());
            if (n < 0) {
                break;
            }
            out.write(buffer, 0, n);
        }
        String read = out.toString(StandardCharsets.ISO_8859_1);
        assertThat(read).isEqualTo(expected);
        return read;
    }

    private static String readToEnd(Socket socket) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        socket.getInputStream().transferTo(out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** Sends {@code command} and reads its one reply, whatever it is (HELLO's, which names the server). */
    private static void skipReply(Socket socket, String command) throws IOException {
        socket.getOutputStream().write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
        skip(socket.getInputStream());
    }

    private static void skip(InputStream in) throws IOException {
        String line = line(in);
        char type = line.charAt(0);
        int count = type == '$' || type == '*' || type == '%' || type == '~' || type == '>'
                ? Integer.parseInt(line.substring(1)) : 0;
        switch (type) {
            case '$' -> in.readNBytes(count + 2);
            case '*', '~', '>' -> {
                for (int i = 0; i < count; i++) {
                    skip(in);
                }
            }
            case '%' -> {
                for (int i = 0; i < 2 * count; i++) {
                    skip(in);
                }
            }
            default -> {
                // a one-line reply
            }
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder out = new StringBuilder();
        int b;
        while ((b = in.read()) != '\r') {
            if (b < 0) {
                throw new IOException("the connection closed in a reply");
            }
            out.append((char) b);
        }
        in.read(); // '\n'
        return out.toString();
    }

    /** {@code replies} with connection {@code id}, as an integer reply, written {@code :<id>}. */
    private static String normalized(String replies, long id) {
        return replies.replace(":" + id + "\r\n", ":<id>\r\n");
    }
}
