package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Pub/sub on one node that serves every slot: the replies of the (un)subscribe commands, PUBSUB and the RESP2
 * subscribed mode compared byte for byte with a real redis-server, messages and pattern messages delivered over RESP2
 * and RESP3 (Lettuce), and the bounds: a connection's subscription limit and the disconnection of a subscriber that
 * does not read.
 */
@Tag("in-process-cluster")
class RespPubSubIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /** One RESP2 connection's commands: confirmations, counts, errors and the subscribed mode's refusals. */
    private static final String SEQUENCE = """
            PUBSUB NUMSUB a b
            PUBSUB NUMPAT
            PUBSUB CHANNELS
            PUBLISH a hello
            UNSUBSCRIBE
            PUNSUBSCRIBE
            SUNSUBSCRIBE
            SUBSCRIBE a b a
            SUBSCRIBE b
            PSUBSCRIBE n* n*
            PING
            PING x
            GET k
            SET k v
            PUBSUB NUMSUB a
            PUNSUBSCRIBE n*
            PUNSUBSCRIBE n*
            UNSUBSCRIBE a b c
            SSUBSCRIBE {s}1 {s}2
            SSUBSCRIBE {s}1
            SUBSCRIBE c
            SUNSUBSCRIBE {s}1
            SUNSUBSCRIBE
            UNSUBSCRIBE
            PING
            SUBSCRIBE z
            RESET
            GET k
            PUBSUB NUMSUB z
            PUBSUB FOO
            PUBSUB CHANNELS x y
            PUBSUB NUMPAT x
            PUBLISH a
            SUBSCRIBE
            PSUBSCRIBE
            SSUBSCRIBE
            """;

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

    @Test
    void subscribeCommandsAnswerAsRedisDoes() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        String commands = SEQUENCE.replace("\n", "\r\n") + "QUIT\r\n";
        String redis;
        try (RedisServer server = RedisServer.start()) {
            redis = new String(RedisCli.exchange(server.address(), commands), StandardCharsets.ISO_8859_1);
        }
        String ours = new String(RedisCli.exchange(zaris(), commands), StandardCharsets.ISO_8859_1);
        assertThat(redis).as("Redis answered up to QUIT").endsWith("+OK\r\n");
        assertThat(ours).isEqualTo(redis);
    }

    @Test
    void messagesReachChannelAndPatternSubscribersOverResp2AsRedisSendsThem() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        String redis;
        try (RedisServer server = RedisServer.start()) {
            redis = subscriberSees(server.address());
        }
        assertThat(subscriberSees(zaris())).isEqualTo(redis);
    }

    /** What a RESP2 subscriber to {@code news} and {@code n*} receives when another connection publishes twice. */
    private static String subscriberSees(NodeAddress address) throws Exception {
        try (Socket subscriber = new Socket(address.host(), address.port())) {
            subscriber.setSoTimeout(10_000);
            OutputStream out = subscriber.getOutputStream();
            out.write("SUBSCRIBE news\r\nPSUBSCRIBE n*\r\n".getBytes(StandardCharsets.US_ASCII));
            String confirmed = "*3\r\n$9\r\nsubscribe\r\n$4\r\nnews\r\n:1\r\n*3\r\n$10\r\npsubscribe\r\n$2\r\nn*\r\n:2\r\n";
            String seen = readExactly(subscriber.getInputStream(), confirmed.length());
            assertThat(seen).isEqualTo(confirmed);
            String published = RedisCli.exchangeLines(address, "PUBLISH news first\nPUBLISH nothing second\nPUBLISH x third\n");
            assertThat(published).isEqualTo(":2\r\n:1\r\n:0\r\n+OK\r\n");
            String expected = "*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nfirst\r\n"
                    + "*4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$4\r\nnews\r\n$5\r\nfirst\r\n"
                    + "*4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$7\r\nnothing\r\n$6\r\nsecond\r\n";
            return readExactly(subscriber.getInputStream(), expected.length());
        }
    }

    @Test
    void aResp3SubscriberGetsPushesAndMayRunAnyCommand() {
        NodeAddress address = zaris();
        RedisClient client = RedisClient.create(RedisURI.create(address.host(), address.port()));
        try (StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub();
             StatefulRedisConnection<String, String> publisher = client.connect()) {
            List<String> received = new CopyOnWriteArrayList<>();
            subscriber.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    received.add(channel + "=" + message);
                }

                @Override
                public void message(String pattern, String channel, String message) {
                    received.add(pattern + ":" + channel + "=" + message);
                }
            });
            subscriber.sync().subscribe("resp3:a");
            subscriber.sync().psubscribe("resp3:*");
            assertThat(subscriber.sync().set("resp3:key", "v")).as("RESP3: any command while subscribed").isEqualTo("OK");
            assertThat(subscriber.sync().get("resp3:key")).isEqualTo("v");
            assertThat(publisher.sync().pubsubNumsub("resp3:a")).containsEntry("resp3:a", 1L);
            assertThat(publisher.sync().pubsubNumpat()).isEqualTo(1L);

            assertThat(publisher.sync().publish("resp3:a", "one")).isEqualTo(2L);
            assertThat(publisher.sync().publish("resp3:b", "two")).isEqualTo(1L);

            await().atMost(DEADLINE).until(() -> received.size() == 3);
            assertThat(received).containsExactly("resp3:a=one", "resp3:*:resp3:a=one", "resp3:*:resp3:b=two");

            subscriber.sync().unsubscribe("resp3:a");
            subscriber.sync().punsubscribe("resp3:*");
            assertThat(publisher.sync().publish("resp3:a", "three")).isZero();
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Test
    void aConnectionHoldsAtMostItsLimitOfSubscriptions() {
        NodeAddress address = zaris();
        RedisClient client = RedisClient.create(RedisURI.create(address.host(), address.port()));
        try (StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub();
             StatefulRedisConnection<String, String> other = client.connect()) {
            int limit = PubSubRegistry.DEFAULT_MAX_PER_CONNECTION;
            String[] tooMany = new String[limit + 1];
            for (int i = 0; i < tooMany.length; i++) {
                tooMany[i] = "limit:" + i;
            }
            assertThatThrownBy(() -> subscriber.sync().subscribe(tooMany))
                    .isInstanceOf(RedisCommandExecutionException.class)
                    .hasMessage("ERR too many subscriptions on this connection (at most " + limit + ")");
            assertThat(other.sync().pubsubNumsub("limit:0")).as("refused as a whole").containsEntry("limit:0", 0L);

            subscriber.sync().subscribe(java.util.Arrays.copyOf(tooMany, limit));
            assertThat(other.sync().pubsubNumsub("limit:" + (limit - 1))).containsEntry("limit:" + (limit - 1), 1L);
            assertThatThrownBy(() -> subscriber.sync().psubscribe("limit:*"))
                    .isInstanceOf(RedisCommandExecutionException.class)
                    .hasMessageStartingWith("ERR too many subscriptions on this connection");
            subscriber.sync().unsubscribe();
            assertThat(other.sync().pubsubNumsub("limit:0")).containsEntry("limit:0", 0L);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Test
    void aSubscriberThatDoesNotReadIsDisconnectedWhilePublishNeverWaitsForIt() throws Exception {
        NodeAddress address = zaris();
        RedisClient client = RedisClient.create(RedisURI.create(address.host(), address.port()));
        try (Socket slow = new Socket(address.host(), address.port());
             StatefulRedisConnection<String, String> publisher = client.connect()) {
            slow.setReceiveBufferSize(4096);
            slow.setSoTimeout(30_000);
            slow.getOutputStream().write("SUBSCRIBE slow\r\n".getBytes(StandardCharsets.US_ASCII));
            await().atMost(DEADLINE).until(() -> publisher.sync().pubsubNumsub("slow").get("slow") == 1L);

            // 64 KiB messages, never read: far more than the node lets wait for one connection (8 MiB unsent).
            String message = "m".repeat(64 * 1024);
            int published = 0;
            while (publisher.sync().pubsubNumsub("slow").get("slow") == 1L) {
                assertThat(published).as("disconnected before 64 MiB were published").isLessThan(1024);
                publisher.sync().publish("slow", message);
                published++;
            }
            assertThat(publisher.sync().publish("slow", "after")).as("nobody listens any more").isZero();
            // The node closed the slow connection rather than only dropping its subscription: the publisher is the
            // one client left. (Reading the slow socket to its end proved the same, but the megabytes the node's
            // kernel still held for it took about 100 s to come through the 4 KiB window that made it slow.)
            await().atMost(DEADLINE).until(() -> connectedClients(publisher) == 1);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static long connectedClients(StatefulRedisConnection<String, String> connection) {
        return connection.sync().info("clients").lines()
                .filter(line -> line.startsWith("connected_clients:"))
                .mapToLong(line -> Long.parseLong(line.substring("connected_clients:".length()).trim()))
                .findFirst().orElseThrow(() -> new AssertionError("INFO clients has no connected_clients line"));
    }

    private static String readExactly(InputStream in, int length) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[length];
        while (out.size() < length) {
            int n = in.read(buffer, 0, length - out.size());
            if (n < 0) {
                break;
            }
            out.write(buffer, 0, n);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }
}
