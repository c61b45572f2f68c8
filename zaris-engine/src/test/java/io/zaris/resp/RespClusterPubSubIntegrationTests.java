package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Pub/sub on a three-node cluster. A PUBLISH on one node reaches channel and pattern subscribers on the others, and
 * still does with a node down. Sharded: SSUBSCRIBE and SPUBLISH run on the channel's slot owner only (MOVED
 * elsewhere, CROSSSLOT across slots); a slot that moves away (a drain, a stopped owner) pushes {@code sunsubscribe} to
 * its subscribers, and a Lettuce cluster subscriber that subscribes again on that push keeps receiving messages.
 */
@Tag("in-process-cluster")
class RespClusterPubSubIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final ReplicationSettings FAST = ReplicationSettings.defaults()
            .withEvictionDelay(Duration.ofSeconds(2))
            .withHealCooldown(Duration.ofSeconds(1));

    @Test
    void aPublishOnOneNodeReachesSubscribersOnEveryNodeAndANodeDownBlocksNothing() {
        try (EmbeddedCluster cluster = cluster()) {
            List<ZarisNode> nodes = cluster.nodes();
            RedisClient first = RedisClient.create(respUri(nodes.get(0)));
            RedisClient second = RedisClient.create(respUri(nodes.get(1)));
            RedisClient third = RedisClient.create(respUri(nodes.get(2)));
            try (StatefulRedisPubSubConnection<String, String> onFirst = first.connectPubSub();
                 StatefulRedisPubSubConnection<String, String> onSecond = second.connectPubSub();
                 StatefulRedisConnection<String, String> publisher = third.connect()) {
                List<String> firstGot = new CopyOnWriteArrayList<>();
                List<String> secondGot = new CopyOnWriteArrayList<>();
                onFirst.addListener(new RedisPubSubAdapter<>() {
                    @Override
                    public void message(String channel, String message) {
                        firstGot.add(channel + "=" + message);
                    }
                });
                onSecond.addListener(new RedisPubSubAdapter<>() {
                    @Override
                    public void message(String pattern, String channel, String message) {
                        secondGot.add(pattern + ":" + channel + "=" + message);
                    }
                });
                onFirst.sync().subscribe("news");
                onSecond.sync().psubscribe("n*");

                assertThat(publisher.sync().publish("news", "one")).as("nobody subscribed on the publishing node").isZero();
                await().atMost(DEADLINE).until(() -> firstGot.contains("news=one") && secondGot.contains("n*:news=one"));
                assertThat(publisher.sync().info("stats")).as("both relays were delivered").contains("zaris_pubsub_relays_dropped:0");

                cluster.stopNode(nodes.get(1).nodeId());
                assertThat(publisher.sync().publish("news", "two")).isZero();
                await().atMost(DEADLINE).until(() -> firstGot.contains("news=two"));
                assertThat(firstGot).containsExactly("news=one", "news=two");
            } finally {
                first.shutdown(Duration.ZERO, Duration.ofSeconds(2));
                second.shutdown(Duration.ZERO, Duration.ofSeconds(2));
                third.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void shardCommandsRunOnTheSlotOwnerOnly() throws Exception {
        try (EmbeddedCluster cluster = cluster()) {
            String channel = "orders";
            int slot = SegmentMapper.slot(channel);
            String owner = ownerOf(cluster, channel);
            NodeAddress ownerResp = cluster.node(owner).respAddress();
            NodeAddress other = otherThan(cluster, owner).respAddress();

            String moved = "-MOVED " + slot + " " + ownerResp.host() + ":" + ownerResp.port() + "\r\n";
            assertThat(RedisCli.exchangeLines(other, "SSUBSCRIBE orders\nSPUBLISH orders m\n"))
                    .isEqualTo(moved + moved + "+OK\r\n");
            assertThat(RedisCli.exchangeLines(ownerResp, "SSUBSCRIBE {a}1 {b}1\nSUNSUBSCRIBE {a}1 {b}1\n"))
                    .isEqualTo("-CROSSSLOT Keys in request don't hash to the same slot\r\n".repeat(2) + "+OK\r\n");
            assertThat(RedisCli.exchangeLines(ownerResp, "SPUBLISH orders m\n")).isEqualTo(":0\r\n+OK\r\n");
        }
    }

    @Test
    void aDrainedOwnerPushesSunsubscribeToItsShardSubscribers() throws Exception {
        try (EmbeddedCluster cluster = cluster()) {
            String channel = "drained";
            String owner = ownerOf(cluster, channel);
            NodeAddress address = cluster.node(owner).respAddress();
            try (Socket subscriber = new Socket(address.host(), address.port())) {
                subscriber.setSoTimeout(60_000);
                subscriber.getOutputStream().write("SSUBSCRIBE drained\r\n".getBytes(StandardCharsets.US_ASCII));
                InputStream in = subscriber.getInputStream();
                assertThat(read(in, "*3\r\n$10\r\nssubscribe\r\n$7\r\ndrained\r\n:1\r\n".length()))
                        .isEqualTo("*3\r\n$10\r\nssubscribe\r\n$7\r\ndrained\r\n:1\r\n");

                cluster.node(owner).drain().get(60, TimeUnit.SECONDS);

                String pushed = "*3\r\n$12\r\nsunsubscribe\r\n$7\r\ndrained\r\n:0\r\n";
                assertThat(read(in, pushed.length())).as("told, not disconnected").isEqualTo(pushed);
                // Out of subscribed mode again: the connection answers a plain PING.
                subscriber.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(read(in, "+PONG\r\n".length())).isEqualTo("+PONG\r\n");
            }
        }
    }

    @Test
    void aLettuceClusterSubscriberKeepsReceivingAfterTheOwnerStops() {
        try (EmbeddedCluster cluster = cluster()) {
            String channel = channelNotOwnedByTheLeader(cluster, "failover:");
            String owner = ownerOf(cluster, channel);
            RedisClusterClient client = clusterClient(cluster);
            try (StatefulRedisClusterPubSubConnection<String, String> subscriber = client.connectPubSub();
                 StatefulRedisClusterConnection<String, String> publisher = client.connect()) {
                List<String> received = new CopyOnWriteArrayList<>();
                List<String> unsubscribed = new CopyOnWriteArrayList<>();
                subscriber.setNodeMessagePropagation(true);
                subscriber.addListener(new RedisClusterPubSubAdapter<>() {
                    @Override
                    public void smessage(RedisClusterNode node, String shardChannel, String message) {
                        received.add(message);
                    }

                    @Override
                    public void sunsubscribed(RedisClusterNode node, String shardChannel, long count) {
                        unsubscribed.add(shardChannel);
                    }
                });
                subscriber.sync().ssubscribe(channel);
                await().atMost(DEADLINE).until(() -> publisher.sync().spublish(channel, "before") == 1L);
                await().atMost(DEADLINE).until(() -> received.contains("before"));

                cluster.stopNode(owner);

                await("the stopping owner pushed sunsubscribe").atMost(DEADLINE).until(() -> unsubscribed.contains(channel));
                // What a cluster application does on that push: subscribe again, routed to the slot's new owner.
                await().atMost(DEADLINE).ignoreExceptions().pollInterval(Duration.ofMillis(500)).until(() -> {
                    subscriber.sync().ssubscribe(channel);
                    return publisher.sync().spublish(channel, "after") >= 1L;
                });
                await().atMost(DEADLINE).until(() -> received.contains("after"));
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    // ------------------------------------------------------------------ fixtures

    private static EmbeddedCluster cluster() {
        return EmbeddedCluster.builder().nodes(3).replicationFactor(3).layout(PartitionLayout.of(64, 8))
                .replication(FAST).resp(true).build().start();
    }

    private static RedisURI respUri(ZarisNode node) {
        NodeAddress address = node.respAddress();
        return RedisURI.builder().withHost(address.host()).withPort(address.port()).withTimeout(Duration.ofSeconds(5)).build();
    }

    private static String ownerOf(EmbeddedCluster cluster, String key) {
        ZarisNode leader = cluster.leader();
        int segment = new SegmentMapper(leader.currentView().layout().segmentCount()).segmentOf(key);
        return leader.currentView().runtimeOfSegment(segment).activeNode();
    }

    private static ZarisNode otherThan(EmbeddedCluster cluster, String nodeId) {
        return cluster.nodes().stream().filter(node -> !node.nodeId().equals(nodeId)).findFirst().orElseThrow();
    }

    /** A channel whose owner is not the leader: stopping it fails over without a leader election first. */
    private static String channelNotOwnedByTheLeader(EmbeddedCluster cluster, String prefix) {
        String leader = cluster.leader().nodeId();
        for (int i = 0; ; i++) {
            if (!ownerOf(cluster, prefix + i).equals(leader)) {
                return prefix + i;
            }
        }
    }

    private static RedisClusterClient clusterClient(EmbeddedCluster cluster) {
        List<RedisURI> seeds = new ArrayList<>();
        for (NodeAddress address : cluster.respSeeds()) {
            seeds.add(RedisURI.builder().withHost(address.host()).withPort(address.port())
                    .withTimeout(Duration.ofSeconds(3)).build());
        }
        RedisClusterClient client = RedisClusterClient.create(seeds);
        client.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .adaptiveRefreshTriggersTimeout(Duration.ofMillis(500))
                        .refreshTriggersReconnectAttempts(2)
                        .build())
                .build());
        return client;
    }

    private static String read(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
