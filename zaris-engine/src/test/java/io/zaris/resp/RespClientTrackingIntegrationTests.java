package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.support.caching.CacheAccessor;
import io.lettuce.core.support.caching.CacheFrontend;
import io.lettuce.core.support.caching.ClientSideCaching;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.csc.Cache;
import redis.clients.jedis.csc.DefaultCache;

/**
 * The real client-side caches of Lettuce ({@code ClientSideCaching} over RESP3) and Jedis ({@code JedisCluster} with
 * a {@code Cache}, RESP3) against an in-process cluster with {@code CLIENT TRACKING}: another client's write
 * invalidates the cached value, a partition moved away from a live node pushes its cached keys, and after the owner is
 * stopped the cache does not answer the old value once a new one was written through the new owner.
 */
@Tag("in-process-cluster")
class RespClientTrackingIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final ReplicationSettings FAST = ReplicationSettings.defaults()
            .withEvictionDelay(Duration.ofSeconds(2))
            .withHealCooldown(Duration.ofSeconds(1));

    @Test
    void lettucesCacheDropsAValueAnotherClientChanged() {
        try (EmbeddedCluster cluster = cluster()) {
            String key = "lettuce:tracked";
            try (LettuceCache lettuce = new LettuceCache(cluster, key)) {
                assertThat(lettuce.frontend.get(key)).isEqualTo("v1");
                assertThat(lettuce.cached).containsEntry(key, "v1");
                assertThat(lettuce.frontend.get(key)).as("answered from the cache").isEqualTo("v1");
                assertThat(lettuce.connection.sync().info("clients")).contains("tracking_clients:1");
                assertThat(lettuce.connection.sync().info("stats")).contains("tracking_total_keys:1");

                lettuce.writer.sync().set(key, "v2");

                await().atMost(DEADLINE).until(() -> !lettuce.cached.containsKey(key));
                assertThat(lettuce.frontend.get(key)).isEqualTo("v2");
                assertThat(lettuce.cached).containsEntry(key, "v2");

                lettuce.writer.sync().del(key);
                await().atMost(DEADLINE).until(() -> !lettuce.cached.containsKey(key));
            }
        }
    }

    @Test
    void aBcastConnectionIsPushedEveryChangeUnderItsPrefixAndAHashFieldWriteInvalidatesItsKey() {
        try (EmbeddedCluster cluster = cluster()) {
            String key = "p:{bcast}1";
            String owner = ownerOf(cluster, key);
            RedisClusterClient writerClient = clusterClient(cluster);
            RedisClient listenerClient = RedisClient.create(respUri(cluster, owner));
            try (StatefulRedisClusterConnection<String, String> writer = writerClient.connect();
                 StatefulRedisConnection<String, String> connection = listenerClient.connect()) {
                List<String> invalidated = new java.util.concurrent.CopyOnWriteArrayList<>();
                connection.addListener(message -> {
                    if (message.getType().equals("invalidate")) {
                        Object keys = message.getContent(io.lettuce.core.codec.StringCodec.UTF8::decodeKey).get(1);
                        invalidated.add(String.valueOf(keys));
                    }
                });
                assertThat(connection.sync().clientTracking(TrackingArgs.Builder.enabled().bcast().prefixes("p:")))
                        .isEqualTo("OK");
                io.lettuce.core.TrackingInfo info = connection.sync().clientTrackinginfo();
                assertThat(info.getFlags()).containsExactlyInAnyOrder(io.lettuce.core.TrackingInfo.TrackingFlag.ON,
                        io.lettuce.core.TrackingInfo.TrackingFlag.BCAST);
                assertThat(info.getPrefixes()).containsExactly("p:");

                writer.sync().set(key, "v1");
                writer.sync().set("q:{bcast}1", "ignored");
                writer.sync().hset("p:{bcast}hash", Map.of("f1", "1", "f2", "2"));

                await().atMost(DEADLINE).until(() -> invalidated.size() >= 2);
                assertThat(invalidated).as("one push per changed key under the prefix")
                        .containsExactly("[" + key + "]", "[p:{bcast}hash]");
            } finally {
                listenerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
                writerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void trackingOverResp2NeedsARedirectAndARedirectMustNameAnOpenConnectionOfTheNode() {
        try (EmbeddedCluster cluster = cluster()) {
            String node = cluster.nodes().get(0).nodeId();
            RedisClient resp2Client = RedisClient.create(respUri(cluster, node));
            resp2Client.setOptions(io.lettuce.core.ClientOptions.builder()
                    .protocolVersion(io.lettuce.core.protocol.ProtocolVersion.RESP2).build());
            RedisClient resp3Client = RedisClient.create(respUri(cluster, node));
            try (StatefulRedisConnection<String, String> resp2 = resp2Client.connect();
                 StatefulRedisConnection<String, String> resp3 = resp3Client.connect()) {
                org.assertj.core.api.Assertions.assertThatThrownBy(
                                () -> resp2.sync().clientTracking(TrackingArgs.Builder.enabled()))
                        .isInstanceOf(RedisCommandExecutionException.class)
                        .hasMessageContaining("CLIENT TRACKING over RESP2 needs REDIRECT");
                org.assertj.core.api.Assertions.assertThatThrownBy(
                                () -> resp3.sync().clientTracking(TrackingArgs.Builder.enabled().redirect(1_000_000)))
                        .isInstanceOf(RedisCommandExecutionException.class)
                        .hasMessage("ERR The client ID you want redirect to does not exist");
                long resp3Id = resp3.sync().clientId();
                assertThat(resp2.sync().clientTracking(TrackingArgs.Builder.enabled().redirect(resp3Id))).isEqualTo("OK");
                assertThat(resp2.sync().clientGetredir()).isEqualTo(resp3Id);
                // Lettuce reads TRACKINGINFO's RESP3 set of flags.
                long resp2Id = resp2.sync().clientId();
                assertThat(resp3.sync().clientTracking(TrackingArgs.Builder.enabled().redirect(resp2Id))).isEqualTo("OK");
                io.lettuce.core.TrackingInfo info = resp3.sync().clientTrackinginfo();
                assertThat(info.getFlags()).containsExactly(io.lettuce.core.TrackingInfo.TrackingFlag.ON);
                assertThat(info.getRedirect()).isEqualTo(resp2Id);
                assertThat(resp3.sync().clientTracking(TrackingArgs.Builder.enabled(false))).isEqualTo("OK");
                assertThat(resp3.sync().clientTrackinginfo().getFlags())
                        .containsExactly(io.lettuce.core.TrackingInfo.TrackingFlag.OFF);
            } finally {
                resp2Client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
                resp3Client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void aPartitionMovedAwayFromALiveNodePushesTheKeysLettuceCachedThere() throws Exception {
        try (EmbeddedCluster cluster = cluster()) {
            String key = "moving:tracked";
            try (LettuceCache lettuce = new LettuceCache(cluster, key)) {
                assertThat(lettuce.frontend.get(key)).isEqualTo("v1");

                // A planned drain: the node keeps running (and its connection open) while its partitions move away.
                cluster.node(lettuce.owner).drain().get(60, TimeUnit.SECONDS);

                await().atMost(DEADLINE).until(() -> !lettuce.cached.containsKey(key));
                assertThat(lettuce.connection.isOpen()).as("pushed, not disconnected").isTrue();
                await().atMost(DEADLINE).ignoreExceptions()
                        .until(() -> "OK".equals(lettuce.writer.sync().set(key, "v2")));
                try {
                    assertThat(lettuce.frontend.get(key)).as("never the old value").isEqualTo("v2");
                } catch (RedisCommandExecutionException e) {
                    assertThat(e).as("the old owner sends the read on").hasMessageStartingWith("MOVED");
                }
                assertThat(lettuce.cached).doesNotContainEntry(key, "v1");
            }
        }
    }

    @Test
    void aStoppingOwnerPushesTheKeysLettuceCachedSoTheOldValueIsNotAnsweredAfterTheFailover() {
        try (EmbeddedCluster cluster = cluster()) {
            String key = keyNotOwnedByTheLeader(cluster, "stopping:tracked:");
            try (LettuceCache lettuce = new LettuceCache(cluster, key)) {
                assertThat(lettuce.frontend.get(key)).isEqualTo("v1");

                cluster.stopNode(lettuce.owner);

                // Lettuce's cache keeps entries when its connection drops; the stopping node pushed this one first.
                await().atMost(DEADLINE).until(() -> !lettuce.cached.containsKey(key));
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> "OK".equals(lettuce.writer.sync().set(key, "v2")));
                assertThat(lettuce.cached).doesNotContainKey(key);
            }
        }
    }

    @Test
    void jedissCacheDropsAValueAnotherClientChanged() {
        try (EmbeddedCluster cluster = cluster()) {
            String key = "jedis:tracked";
            Cache cache = jedisCache();
            RedisClusterClient writerClient = clusterClient(cluster);
            try (JedisCluster jedis = new JedisCluster(jedisSeeds(cluster), jedisConfig(), cache);
                 StatefulRedisClusterConnection<String, String> writer = writerClient.connect()) {
                writer.sync().set(key, "v1");

                assertThat(jedis.get(key)).isEqualTo("v1");
                assertThat(jedis.get(key)).isEqualTo("v1");
                assertThat(cache.getStats().getHitCount()).as("the second read was answered by the cache").isEqualTo(1);

                writer.sync().set(key, "v2");

                await().atMost(DEADLINE).until(() -> "v2".equals(jedis.get(key)));
                assertThat(cache.getStats().getInvalidationCount()).isPositive();
                jedis.set(key, "v3");
                assertThat(jedis.get(key)).as("its own write").isEqualTo("v3");
            } finally {
                writerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    /**
     * Reads race writes: a lost invalidation (a read remembered too late, or a push overtaking the reply it
     * invalidates) would leave Jedis's cache answering an old value for ever. Jedis files a reply's value before it
     * reads the pushes that follow it, so it relies on exactly the order the node promises.
     */
    @Test
    void jedissCacheNeverGoesBackAndEndsOnTheLastValueWhileAnotherClientKeepsWriting() throws Exception {
        try (EmbeddedCluster cluster = cluster()) {
            int keys = 8;
            int writes = 400;
            Cache cache = jedisCache();
            RedisClusterClient writerClient = clusterClient(cluster);
            try (JedisCluster jedis = new JedisCluster(jedisSeeds(cluster), jedisConfig(), cache);
                 StatefulRedisClusterConnection<String, String> writer = writerClient.connect()) {
                for (int k = 0; k < keys; k++) {
                    writer.sync().set("race:" + k, "0");
                }
                java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
                Thread writerThread = new Thread(() -> {
                    for (int i = 1; i <= writes; i++) {
                        writer.sync().set("race:" + (i % keys), Integer.toString(i));
                    }
                    writing.set(false);
                }, "tracking-writer");
                long[] seen = new long[keys];
                List<String> wentBack = new ArrayList<>();
                writerThread.start();
                while (writing.get()) {
                    for (int k = 0; k < keys; k++) {
                        long value = Long.parseLong(jedis.get("race:" + k));
                        if (value < seen[k]) {
                            wentBack.add("race:" + k + " " + seen[k] + " -> " + value);
                        }
                        seen[k] = value;
                    }
                }
                writerThread.join(60_000);

                assertThat(wentBack).isEmpty();
                assertThat(cache.getStats().getHitCount()).as("the cache answered reads").isPositive();
                assertThat(cache.getStats().getInvalidationCount()).isPositive();
                for (int k = 0; k < keys; k++) {
                    String key = "race:" + k;
                    String last = Integer.toString(writes - Math.floorMod(writes - k, keys)); // the last i with i % keys == k
                    await().atMost(DEADLINE).alias(key).until(() -> last.equals(jedis.get(key)));
                }
            } finally {
                writerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void afterTheOwnerStopsJedissCacheNeverAnswersTheOldValueOnceTheNewOwnerTookANewOne() {
        try (EmbeddedCluster cluster = cluster()) {
            String key = keyNotOwnedByTheLeader(cluster, "failover:tracked:");
            Cache cache = jedisCache();
            RedisClusterClient writerClient = clusterClient(cluster);
            try (JedisCluster jedis = new JedisCluster(jedisSeeds(cluster), jedisConfig(), cache, 5, Duration.ofSeconds(5));
                 StatefulRedisClusterConnection<String, String> writer = writerClient.connect()) {
                writer.sync().set(key, "v1");
                assertThat(jedis.get(key)).isEqualTo("v1");
                assertThat(jedis.get(key)).isEqualTo("v1");
                assertThat(cache.getSize()).isPositive();
                String owner = ownerOf(cluster, key);

                cluster.stopNode(owner);
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> "OK".equals(writer.sync().set(key, "v2")));
                assertThat(ownerOf(cluster, key)).isNotEqualTo(owner);

                List<String> reads = new ArrayList<>();
                List<String> failures = new ArrayList<>();
                try {
                    await().atMost(Duration.ofSeconds(60)).until(() -> {
                        try {
                            String read = jedis.get(key);
                            reads.add(read);
                            return "v2".equals(read);
                        } catch (RuntimeException e) {
                            if (failures.size() < 20) { // the old owner's connection fails until Jedis learns the new one
                                failures.add(e.toString());
                            }
                            return false;
                        }
                    });
                } catch (ConditionTimeoutException e) {
                    throw new AssertionError("reads " + reads + ", failures " + failures, e);
                }
                assertThat(reads).as("reads after the new owner acknowledged v2").doesNotContain("v1");
            } finally {
                writerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    // ------------------------------------------------------------------ fixtures

    private static EmbeddedCluster cluster() {
        return EmbeddedCluster.builder().nodes(3).replicationFactor(3).layout(PartitionLayout.of(64, 8))
                .replication(FAST).resp(true).build().start();
    }

    private static String ownerOf(EmbeddedCluster cluster, String key) {
        ZarisNode leader = cluster.leader();
        int segment = new SegmentMapper(leader.currentView().layout().segmentCount()).segmentOf(key);
        return leader.currentView().runtimeOfSegment(segment).activeNode();
    }

    /** A key whose owner is not the leader: stopping it fails over without a leader election first. */
    private static String keyNotOwnedByTheLeader(EmbeddedCluster cluster, String prefix) {
        String leader = cluster.leader().nodeId();
        for (int i = 0; ; i++) {
            if (!ownerOf(cluster, prefix + i).equals(leader)) {
                return prefix + i;
            }
        }
    }

    private static RedisURI respUri(EmbeddedCluster cluster, String nodeId) {
        NodeAddress address = cluster.node(nodeId).respAddress();
        return RedisURI.builder().withHost(address.host()).withPort(address.port()).withTimeout(Duration.ofSeconds(5)).build();
    }

    /** A Lettuce cluster client that follows failovers (as {@link RespFailoverIntegrationTests} sets it up). */
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

    /**
     * Lettuce's client-side cache ({@code ClientSideCaching}, default tracking) on one RESP3 connection to the owner
     * of a key that holds "v1" (not yet read), beside a cluster client that writes. Built and closed on the test's
     * thread; closing closes the cache and its connection, then shuts both clients down.
     */
    private static final class LettuceCache implements AutoCloseable {
        /** The node that owned the key when the cache connected to it. */
        final String owner;
        final StatefulRedisClusterConnection<String, String> writer;
        final StatefulRedisConnection<String, String> connection;
        /** What the cache holds; Lettuce writes it from its event loop, hence concurrent. */
        final Map<String, String> cached = new ConcurrentHashMap<>();
        final CacheFrontend<String, String> frontend;
        private final RedisClusterClient writerClient;
        private final RedisClient cachingClient;

        LettuceCache(EmbeddedCluster cluster, String key) {
            owner = ownerOf(cluster, key);
            writerClient = clusterClient(cluster);
            cachingClient = RedisClient.create(respUri(cluster, owner));
            try {
                writer = writerClient.connect();
                connection = cachingClient.connect();
                writer.sync().set(key, "v1");
                frontend = ClientSideCaching.enable(CacheAccessor.forMap(cached), connection,
                        TrackingArgs.Builder.enabled());
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        @Override
        public void close() {
            try {
                if (frontend != null) {
                    frontend.close();
                }
                if (connection != null) {
                    connection.close();
                }
                if (writer != null) {
                    writer.close();
                }
            } finally {
                cachingClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
                writerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    private static Set<HostAndPort> jedisSeeds(EmbeddedCluster cluster) {
        Set<HostAndPort> seeds = new HashSet<>();
        for (NodeAddress address : cluster.respSeeds()) {
            seeds.add(new HostAndPort(address.host(), address.port()));
        }
        return seeds;
    }

    private static JedisClientConfig jedisConfig() {
        return DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3).timeoutMillis(3000).build();
    }

    /**
     * Jedis's own cache, in compatibility mode: Jedis enables client-side caching only on a server that says it is
     * Redis 7.4 or later, and a node says 7.0.0 (see docs/redis-protocol.md).
     */
    private static Cache jedisCache() {
        return new DefaultCache(1000) {
            @Override
            public boolean compatibilityMode() {
                return true;
            }
        };
    }
}
