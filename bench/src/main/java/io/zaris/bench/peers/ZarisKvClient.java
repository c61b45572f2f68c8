package io.zaris.bench.peers;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.NodeAddress;
import io.zaris.protocol.VersionedValue;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The Zaris native client with its default options: one pipelined connection per node. */
final class ZarisKvClient implements KvClient {

    private final ZarisClient client;

    ZarisKvClient(List<NodeAddress> seeds) {
        this.client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                .bootstrapTimeout(Duration.ofSeconds(180)).build());
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
