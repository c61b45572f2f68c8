package io.zaris.bench.peers;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.NodeAddress;
import io.zaris.model.VersionedValue;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The Zaris native client: one pipelined connection per node, and direct blocking sockets per node that its blocking
 * calls use ({@link #get} and {@link #put}, so every 1-in-flight row). {@code bench/run} connects it with its default
 * options but a long bootstrap timeout; the failover command hands in a client it connected itself.
 */
final class ZarisKvClient implements KvClient {

    private final ZarisClient client;

    ZarisKvClient(List<NodeAddress> seeds) {
        this(ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                .bootstrapTimeout(Duration.ofSeconds(180)).build()));
    }

    /** Wraps a connected client; {@link #close()} closes it. */
    ZarisKvClient(ZarisClient client) {
        this.client = client;
    }

    @Override
    public int get(String key) {
        return length(client.sync().get(key));
    }

    @Override
    public void put(String key, byte[] value) {
        client.sync().put(key, value);
    }

    @Override
    public byte[] value(String key) {
        return client.sync().get(key).map(VersionedValue::value).orElse(null);
    }

    @Override
    public void getAsync(String key, Completion completion) {
        client.get(key).whenComplete((value, failure) -> completion.complete(failure == null ? length(value) : -1, failure));
    }

    @Override
    public void putAsync(String key, byte[] value, Completion completion) {
        client.put(key, value).whenComplete((version, failure) -> completion.complete(value.length, failure));
    }

    @Override
    public void close() {
        client.close();
    }

    private static int length(Optional<VersionedValue> value) {
        return value.map(v -> v.value().length).orElse(-1);
    }
}
