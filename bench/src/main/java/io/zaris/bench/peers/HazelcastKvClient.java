package io.zaris.bench.peers;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.util.ConcurrencyUtil;
import com.hazelcast.map.IMap;
import java.util.List;

/**
 * Hazelcast's Java client (smart routing: one hop to the partition owner) on an {@link IMap}.
 *
 * <p>Callbacks run on the completing thread ({@code CALLER_RUNS}). Without an executor Hazelcast
 * completes dependent stages on its default async executor, which on a machine where the common pool
 * has a parallelism of one starts a new thread per callback. Some of the client's own internal stages
 * still use that default executor, so {@code bench/run} also gives the common pool a parallelism of two.
 */
final class HazelcastKvClient implements KvClient {

    static final String MAP = "bench";

    private final HazelcastInstance client;
    private final IMap<String, byte[]> map;

    HazelcastKvClient(String clusterName, List<String> memberAddresses) {
        ClientConfig config = new ClientConfig();
        config.setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.getNetworkConfig().setAddresses(memberAddresses).setSmartRouting(true);
        this.client = HazelcastClient.newHazelcastClient(config);
        this.map = client.getMap(MAP);
    }

    HazelcastInstance instance() {
        return client;
    }

    @Override
    public int get(String key) {
        return length(map.get(key));
    }

    @Override
    public void put(String key, byte[] value) {
        map.set(key, value);
    }

    @Override
    public byte[] value(String key) {
        return map.get(key);
    }

    @Override
    public void getAsync(String key, Completion completion) {
        map.getAsync(key).whenCompleteAsync((value, failure) -> completion.complete(length(value), failure),
                ConcurrencyUtil.CALLER_RUNS);
    }

    @Override
    public void putAsync(String key, byte[] value, Completion completion) {
        map.setAsync(key, value).whenCompleteAsync((ignored, failure) -> completion.complete(value.length, failure),
                ConcurrencyUtil.CALLER_RUNS);
    }

    @Override
    public void close() {
        client.shutdown();
    }

    private static int length(byte[] value) {
        return value == null ? -1 : value.length;
    }
}
