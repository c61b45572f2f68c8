package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Hashes survive the loss of their active owner: three nodes keeping three copies (SYNC acknowledgement), hashes
 * written through Lettuce (one of 5,000 fields, set 500 fields per HSET, so replicas receive it field by field),
 * then a node that actively owns some of them is stopped. Every field reads back from the new owners, a hash's
 * TTL is kept, and writes to the hashes go on from where they were.
 */
@Tag("in-process-cluster")
class HashFailoverIntegrationTests {

    private static final int HASHES = 100;
    private static final int FIELDS = 40;
    private static final int BIG_FIELDS = 5_000;

    @Test
    void everyFieldOfEveryHashReadsBackFromTheNewOwner() throws Exception {
        try (RespFailoverCluster failover = RespFailoverCluster.start()) {
            RedisAdvancedClusterCommands<String, String> redis = failover.redis();
            Map<String, Map<String, String>> expected = new LinkedHashMap<>();
            for (int h = 0; h < HASHES; h++) {
                Map<String, String> fields = new LinkedHashMap<>();
                for (int f = 0; f < FIELDS; f++) {
                    fields.put("field-" + f, "value-" + h + "-" + f);
                }
                assertThat(redis.hset("hash-" + h, fields)).isEqualTo(FIELDS);
                expected.put("hash-" + h, fields);
            }
            Map<String, String> big = new LinkedHashMap<>();
            for (int f = 0; f < BIG_FIELDS; f++) {
                big.put("f" + f, "v" + f);
            }
            List<String> names = new ArrayList<>(big.keySet());
            for (int from = 0; from < BIG_FIELDS; from += 500) {
                Map<String, String> batch = new HashMap<>();
                names.subList(from, from + 500).forEach(name -> batch.put(name, big.get(name)));
                redis.hset("big", batch);
            }
            expected.put("big", big);
            assertThat(redis.hincrby("hash-0", "counter", 41)).isEqualTo(41);
            expected.get("hash-0").put("counter", "41");
            assertThat(redis.expire("hash-1", 3_600)).isTrue();

            failover.stopActiveOwnerOfSome(expected.keySet(), "hashes");

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> {
                        for (Map.Entry<String, Map<String, String>> hash : expected.entrySet()) {
                            assertThat(redis.hgetall(hash.getKey())).as(hash.getKey()).isEqualTo(hash.getValue());
                        }
                    });
            assertThat(redis.hlen("big")).isEqualTo(BIG_FIELDS);
            assertThat(redis.ttl("hash-1")).as("the hash kept its TTL").isBetween(3_000L, 3_600L);
            assertThat(redis.type("hash-2")).isEqualTo("hash");
            assertThat(redis.hincrby("hash-0", "counter", 1)).as("the counter goes on from its value").isEqualTo(42);
            assertThat(redis.hdel("big", "f0", "f1")).isEqualTo(2);
            assertThat(redis.hlen("big")).isEqualTo(BIG_FIELDS - 2);
        }
    }
}
