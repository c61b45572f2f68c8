package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.lettuce.core.KeyValue;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;

/**
 * Unmodified Redis Cluster clients — Lettuce's {@code RedisClusterClient}, Jedis's {@code JedisCluster} and
 * {@code redis-cli -c} — against a three-node embedded cluster with RESP enabled. One cluster for the class.
 */
@Tag("in-process-cluster")
class RedisClientsIntegrationTests {

    private static EmbeddedCluster cluster;
    private static RedisClusterClient lettuce;
    private static StatefulRedisClusterConnection<String, String> connection;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8)).resp(true)
                .build().start();
        List<RedisURI> seeds = new ArrayList<>();
        for (NodeAddress address : cluster.respSeeds()) {
            seeds.add(RedisURI.create(address.host(), address.port()));
        }
        lettuce = RedisClusterClient.create(seeds);
        connection = lettuce.connect();
    }

    @AfterAll
    static void stopCluster() {
        if (connection != null) {
            connection.close();
        }
        if (lettuce != null) {
            lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void lettuceSetsGetsCountsAndExpiresAcrossTheCluster() {
        RedisAdvancedClusterCommands<String, String> redis = connection.sync();
        for (int i = 0; i < 100; i++) {
            assertThat(redis.set("lettuce:" + i, "v" + i)).isEqualTo("OK");
        }
        for (int i = 0; i < 100; i++) {
            assertThat(redis.get("lettuce:" + i)).isEqualTo("v" + i);
        }
        assertThat(redis.get("lettuce:missing")).isNull();
        assertThat(redis.incr("lettuce:counter")).isEqualTo(1);
        assertThat(redis.incrby("lettuce:counter", 41)).isEqualTo(42);
        assertThat(redis.decr("lettuce:counter")).isEqualTo(41);
        assertThat(redis.expire("lettuce:counter", 100)).isTrue();
        assertThat(redis.ttl("lettuce:counter")).isBetween(90L, 100L);
        assertThat(redis.persist("lettuce:counter")).isTrue();
        assertThat(redis.ttl("lettuce:counter")).isEqualTo(-1);
        assertThat(redis.set("lettuce:nx", "a", SetArgs.Builder.nx())).isEqualTo("OK");
        assertThat(redis.set("lettuce:nx", "b", SetArgs.Builder.nx())).isNull();
        assertThat(redis.setGet("lettuce:nx", "c")).isEqualTo("a");
        assertThat(redis.append("lettuce:nx", "def")).isEqualTo(4);
        assertThat(redis.getdel("lettuce:nx")).isEqualTo("cdef");
        assertThat(redis.exists("lettuce:nx")).isZero();
        assertThat(redis.psetex("lettuce:short", 50, "x")).isEqualTo("OK");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> redis.get("lettuce:short") == null);
    }

    @Test
    void lettuceMultiKeyCommandsWorkOnHashTaggedKeys() {
        RedisAdvancedClusterCommands<String, String> redis = connection.sync();
        assertThat(redis.mset(java.util.Map.of("{user1000}.a", "1", "{user1000}.b", "2", "{user1000}.c", "3"))).isEqualTo("OK");
        List<KeyValue<String, String>> values = redis.mget("{user1000}.a", "{user1000}.b", "{user1000}.missing");
        assertThat(values.get(0).getValue()).isEqualTo("1");
        assertThat(values.get(1).getValue()).isEqualTo("2");
        assertThat(values.get(2).hasValue()).isFalse();
        // Lettuce splits keys of different slots itself; the node answers each slot's part.
        redis.set("plain-a", "x");
        redis.set("plain-b", "y");
        assertThat(redis.mget("plain-a", "plain-b")).extracting(KeyValue::getValue).containsExactly("x", "y");
        assertThat(redis.del("{user1000}.a", "{user1000}.b")).isEqualTo(2);
    }

    @Test
    void lettucePipelinedBatchIsAnsweredInOrder() throws Exception {
        // Lettuce opens node connections lazily, and one that finishes connecting after flushCommands() keeps
        // its commands buffered (auto-flush is off): open every master's connection before the batch. Slot-routed
        // commands use connections keyed by host and port, not the node-id keyed ones getConnection(nodeId)
        // returns, so the warm-up must itself be routed by slot: one GET per master, on a key that master owns.
        for (RedisClusterNode node : connection.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
                connection.sync().get(keyOwnedBy(node));
            }
        }
        RedisAdvancedClusterAsyncCommands<String, String> async = connection.async();
        connection.setAutoFlushCommands(false);
        List<RedisFuture<?>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < 500; i++) {
                futures.add(async.set("pipe:" + i, Integer.toString(i)));
                futures.add(async.incr("pipe:counter:" + (i % 10)));
            }
            RedisFuture<?>[] batch = futures.toArray(new RedisFuture[0]);
            // A command Lettuce re-dispatches after a MOVED (an ownership change under a loaded build) joins the
            // target connection's buffer and, with auto-flush off, waits for the next flush: flush until answered.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            boolean answered = false;
            while (!answered && System.nanoTime() < deadline) {
                connection.flushCommands();
                answered = LettuceFutures.awaitAll(200, TimeUnit.MILLISECONDS, batch);
            }
            assertThat(answered).as("every pipelined command answered within 30 s").isTrue();
        } finally {
            connection.setAutoFlushCommands(true);
        }
        for (int i = 0; i < 500; i += 50) {
            assertThat(connection.sync().get("pipe:" + i)).isEqualTo(Integer.toString(i));
        }
        assertThat(connection.sync().get("pipe:counter:3")).isEqualTo("50");
    }

    private static String keyOwnedBy(RedisClusterNode node) {
        for (int i = 0; i < 1_000_000; i++) {
            String key = "warm:" + i;
            if (node.hasSlot(SlotHash.getSlot(key))) {
                return key;
            }
        }
        throw new AssertionError("no key found for the slots of " + node);
    }

    @Test
    void jedisClusterDoesTheBasicSet() {
        Set<HostAndPort> nodes = new HashSet<>();
        for (NodeAddress address : cluster.respSeeds()) {
            nodes.add(new HostAndPort(address.host(), address.port()));
        }
        try (JedisCluster jedis = new JedisCluster(nodes)) {
            for (int i = 0; i < 50; i++) {
                assertThat(jedis.set("jedis:" + i, "v" + i)).isEqualTo("OK");
                assertThat(jedis.get("jedis:" + i)).isEqualTo("v" + i);
            }
            assertThat(jedis.incr("jedis:counter")).isEqualTo(1);
            assertThat(jedis.expire("jedis:counter", 60)).isEqualTo(1);
            assertThat(jedis.ttl("jedis:counter")).isPositive();
            assertThat(jedis.mset("{t}1", "a", "{t}2", "b")).isEqualTo("OK");
            assertThat(jedis.mget("{t}1", "{t}2")).containsExactly("a", "b");
            assertThat(jedis.del("jedis:0")).isEqualTo(1);
            assertThat(jedis.exists("jedis:0")).isFalse();
        }
    }

    @Test
    void redisCliFollowsMovedAndParsesClusterSlots() throws Exception {
        assumeThat(RedisCli.installed()).as(RedisCli.MISSING).isTrue();
        NodeAddress first = cluster.respSeeds().get(0);
        // A key that the first node does not serve: redis-cli -c must follow the MOVED reply.
        String key = null;
        for (int i = 0; key == null; i++) {
            String candidate = "cli:" + i;
            int segment = new SegmentMapper(64).segmentOf(candidate);
            if (!cluster.nodes().get(0).nodeId().equals(cluster.nodes().get(0).currentView().runtimeOfSegment(segment).activeNode())) {
                key = candidate;
            }
        }
        assertThat(RedisCli.at(first, "-c", "SET", key, "from-cli")).isEqualTo("OK");
        assertThat(RedisCli.at(first, "-c", "GET", key)).isEqualTo("from-cli");
        assertThat(RedisCli.at(first, "GET", key)).startsWith("MOVED ");
        String slots = RedisCli.at(first, "CLUSTER", "SLOTS");
        long covered = 0;
        String[] lines = slots.split("\n");
        // Raw output: each range starts with its first and last slot followed by node entries.
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].matches("\\d+") && lines[i + 1].matches("\\d+") && Long.parseLong(lines[i + 1]) >= Long.parseLong(lines[i])
                    && Long.parseLong(lines[i + 1]) < 16384 && (i + 2 >= lines.length || !lines[i + 2].matches("\\d+"))) {
                covered += Long.parseLong(lines[i + 1]) - Long.parseLong(lines[i]) + 1;
                i++;
            }
        }
        assertThat(covered).isEqualTo(16384);
        assertThat(RedisCli.at(first, "CLUSTER", "INFO")).contains("cluster_state:ok");
        assertThat(RedisCli.at(first, "PING")).isEqualTo("PONG");
    }

    @Test
    void redisCliClusterCheckPassesWithEverySlotCovered() throws Exception {
        assumeThat(RedisCli.installed()).as(RedisCli.MISSING).isTrue();
        RedisCli.Result check = RedisCli.clusterCheck(cluster.respSeeds().get(0));
        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains("[OK] All nodes agree about slots configuration.", "[OK] All 16384 slots covered.")
                .doesNotContain("[ERR]", "[WARNING]");
    }

    @Test
    void countKeysInSlotCountsOnTheServingNodeAndNamesItElsewhere() {
        String key = "{countkeys}x";
        int slot = SlotHash.getSlot(key);
        connection.sync().set(key, "v");
        RedisClusterNode owner = connection.getPartitions().getPartitionBySlot(slot);
        RedisClusterNode other = connection.getPartitions().stream().filter(node -> !node.getNodeId().equals(owner.getNodeId()))
                .findFirst().orElseThrow();
        assertThat(connection.getConnection(owner.getNodeId()).sync().clusterCountKeysInSlot(slot)).isEqualTo(1);
        assertThatThrownBy(() -> connection.getConnection(other.getNodeId()).sync().clusterCountKeysInSlot(slot))
                .hasMessage("ERR slot " + slot + " is not served by this node; ask " + owner.getUri().getHost() + ":"
                        + owner.getUri().getPort());
    }

    @Test
    void errorsUseTheWordingRedisClientsMatchOn() throws Exception {
        assumeThat(RedisCli.installed()).as(RedisCli.MISSING).isTrue();
        NodeAddress first = cluster.respSeeds().get(0);
        assertThat(RedisCli.at(first, "-c", "SET", "errors:text", "abc")).isEqualTo("OK");
        assertThat(RedisCli.at(first, "-c", "INCR", "errors:text")).isEqualTo("ERR value is not an integer or out of range");
        assertThat(RedisCli.at(first, "MSET", "a", "1", "b", "2")).isEqualTo("CROSSSLOT Keys in request don't hash to the same slot");
        assertThat(RedisCli.at(first, "GET")).isEqualTo("ERR wrong number of arguments for 'get' command");
        assertThat(RedisCli.at(first, "-c", "SET", "errors:text", "x", "EX", "0")).isEqualTo("ERR invalid expire time in 'set' command");
        assertThat(RedisCli.at(first, "CLUSTER", "KEYSLOT", "{user1000}.following")).isEqualTo("3443");
    }
}
