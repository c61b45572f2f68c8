package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.store.EvictionPolicy;
import io.zaris.store.MemoryOptions;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A Redis client sees Redis's own {@code -OOM} reply and {@code INFO} figures from a full node. */
@Tag("in-process-cluster")
class RespMemoryIntegrationTests {

    @Test
    void aFullNoevictionNodeAnswersOomAndKeepsWhatItStored() {
        MemoryOptions memory = MemoryOptions.builder().maxBytes(64 * 1024).policy(EvictionPolicy.NOEVICTION).build();
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(1).replicationFactor(1).layout(PartitionLayout.of(64, 8))
                .resp(true).memory(memory).build().start()) {
            NodeAddress address = cluster.respSeeds().get(0);
            RedisClient client = RedisClient.create(RedisURI.create(address.host(), address.port()));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> redis = connection.sync();
                String value = "x".repeat(1000);
                int stored = 0;
                RedisCommandExecutionException refusal = null;
                while (refusal == null && stored < 1000) {
                    try {
                        redis.set("k" + stored, value);
                        stored++;
                    } catch (RedisCommandExecutionException e) {
                        refusal = e;
                    }
                }
                assertThat(refusal).isNotNull();
                assertThat(refusal.getMessage()).isEqualTo("OOM command not allowed when used memory > 'maxmemory'.");
                assertThat(redis.get("k0")).isEqualTo(value);
                assertThat(redis.get("k" + (stored - 1))).isEqualTo(value);
                assertThat(redis.dbsize()).isEqualTo(stored);
                assertThatThrownBy(() -> redis.incr("counter")).hasMessageStartingWith("OOM ");
                assertThat(redis.del("k0")).isEqualTo(1);
                String info = redis.info("memory") + redis.info("stats");
                assertThat(info).contains("maxmemory:65536").contains("maxmemory_policy:noeviction")
                        .contains("evicted_keys:0");
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }
}
