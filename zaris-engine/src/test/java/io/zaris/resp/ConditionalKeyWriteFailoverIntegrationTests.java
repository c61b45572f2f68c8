package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.ExpireArgs;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What SET ... XX/KEEPTTL, PERSIST and EXPIRE ... NX/GT/LT leave on the active owner reaches the replicas exactly: after
 * the active owner of some of the keys is stopped, the new owners hold each key's type and expiry (three nodes, three
 * copies, SYNC acknowledgement), for a key of every type.
 */
@Tag("in-process-cluster")
class ConditionalKeyWriteFailoverIntegrationTests {

    private static final int KEYS_PER_TYPE = 12;
    private static final List<String> TYPES = List.of("hash", "list", "set", "zset");

    /** What a key holds after the writes: its type and whether it has a TTL of about an hour (else none). */
    private record Outcome(String type, boolean expiresInAnHour) {
    }

    @Test
    void replicasHoldTheTypeAndExpiryTheConditionalWritesLeft() throws Exception {
        try (RespFailoverCluster failover = RespFailoverCluster.start()) {
            RedisAdvancedClusterCommands<String, String> redis = failover.redis();
            Map<String, Outcome> expected = new LinkedHashMap<>();
            for (String type : TYPES) {
                for (int i = 0; i < KEYS_PER_TYPE; i++) {
                    String key = type + "-" + i;
                    create(redis, type, key);
                    assertThat(redis.expire(key, 600, ExpireArgs.Builder.nx())).isTrue();
                    assertThat(redis.expire(key, 60, ExpireArgs.Builder.gt())).as("GT: 60 s is not longer").isFalse();
                    assertThat(redis.expire(key, 3_600, ExpireArgs.Builder.gt())).isTrue();
                    switch (i % 3) {
                        case 0 -> {
                            assertThat(redis.persist(key)).isTrue();
                            expected.put(key, new Outcome(type, false));
                        }
                        case 1 -> {
                            assertThat(redis.set(key, "now a string", SetArgs.Builder.xx().keepttl())).isEqualTo("OK");
                            expected.put(key, new Outcome("string", true));
                        }
                        default -> {
                            assertThat(redis.expire(key, 7_200, ExpireArgs.Builder.lt())).as("LT: longer").isFalse();
                            expected.put(key, new Outcome(type, true));
                        }
                    }
                }
            }
            for (int i = 0; i < KEYS_PER_TYPE; i++) {
                String key = "string-" + i;
                assertThat(redis.set(key, "v", SetArgs.Builder.ex(3_600))).isEqualTo("OK");
                assertThat(redis.set(key, "w", SetArgs.Builder.xx().keepttl())).isEqualTo("OK");
                assertThat(redis.set(key, "x", SetArgs.Builder.nx())).as("NX on a string").isNull();
                expected.put(key, new Outcome("string", true));
            }

            failover.stopActiveOwnerOfSome(expected.keySet(), "keys");

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> {
                        List<String> wrong = new ArrayList<>();
                        for (Map.Entry<String, Outcome> entry : expected.entrySet()) {
                            String key = entry.getKey();
                            Outcome outcome = new Outcome(redis.type(key), isAboutAnHour(redis.ttl(key)));
                            if (!outcome.equals(entry.getValue())) {
                                wrong.add(key + ": " + outcome);
                            }
                        }
                        assertThat(wrong).as("keys whose type or expiry the new owner does not have").isEmpty();
                    });
            assertThat(redis.ttl("hash-0")).as("PERSIST reached the replica").isEqualTo(-1);
            assertThat(redis.get("list-1")).isEqualTo("now a string");
            assertThat(redis.get("string-0")).isEqualTo("w");
        }
    }

    private static void create(RedisAdvancedClusterCommands<String, String> redis, String type, String key) {
        switch (type) {
            case "hash" -> redis.hset(key, "f", "v");
            case "list" -> redis.rpush(key, "a", "b");
            case "set" -> redis.sadd(key, "m");
            default -> redis.zadd(key, 1.0, "m");
        }
    }

    /** A TTL set to an hour a minute or less ago (-1: none). */
    private static boolean isAboutAnHour(long ttlSeconds) {
        return ttlSeconds > 3_540 && ttlSeconds <= 3_600;
    }
}
