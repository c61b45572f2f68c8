package io.zaris.bench.peers;

import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.List;

/**
 * Lettuce's cluster client into a Redis Cluster, configured as Lettuce's documentation recommends for
 * production: periodic plus adaptive topology refresh, command timeouts, one shared multiplexed
 * connection (Lettuce pipelines every command on it); async API, callbacks on the event loop.
 */
final class LettuceClusterKvClient implements KvClient {

    /** Period of the background topology refresh. */
    static final Duration TOPOLOGY_REFRESH_PERIOD = Duration.ofSeconds(30);

    /** Timeout of every command. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private final RedisClusterClient client;
    private final StatefulRedisClusterConnection<String, byte[]> connection;

    LettuceClusterKvClient(List<RedisURI> seeds) {
        this.client = RedisClusterClient.create(seeds);
        client.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enablePeriodicRefresh(TOPOLOGY_REFRESH_PERIOD)
                        .enableAllAdaptiveRefreshTriggers()
                        .build())
                .timeoutOptions(TimeoutOptions.enabled(COMMAND_TIMEOUT))
                .build());
        client.setDefaultTimeout(COMMAND_TIMEOUT);
        this.connection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
    }

    StatefulRedisClusterConnection<String, byte[]> connection() {
        return connection;
    }

    @Override
    public int get(String key) {
        return length(connection.sync().get(key));
    }

    @Override
    public void put(String key, byte[] value) {
        connection.sync().set(key, value);
    }

    @Override
    public byte[] value(String key) {
        return connection.sync().get(key);
    }

    @Override
    public void getAsync(String key, Completion completion) {
        connection.async().get(key).whenComplete((value, failure) -> completion.complete(length(value), failure));
    }

    @Override
    public void putAsync(String key, byte[] value, Completion completion) {
        connection.async().set(key, value).whenComplete((ok, failure) -> completion.complete(value.length, failure));
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }

    private static int length(byte[] value) {
        return value == null ? -1 : value.length;
    }
}
