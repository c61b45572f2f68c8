package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RestoreArgs;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Renamed and restored keys survive the loss of their active owner: three nodes keeping three copies (SYNC
 * acknowledgement), keys of every type renamed (within a hash tag's slot) and restored from DUMPs (across slots)
 * through Lettuce, then a node that actively owns some of them is stopped. The new owners hold every renamed and
 * restored value with its TTL, and none of the old names.
 */
@Tag("in-process-cluster")
class RenameFailoverIntegrationTests {

    private static final int GROUPS = 30;

    @Test
    void renamedAndRestoredKeysReadBackFromTheNewOwner() throws Exception {
        try (RespFailoverCluster failover = RespFailoverCluster.start()) {
            RedisAdvancedClusterCommands<String, String> redis = failover.redis();
            List<String> keys = new ArrayList<>();
            for (int g = 0; g < GROUPS; g++) {
                String tag = "{g" + g + "}";
                redis.set(tag + "s", "v" + g);
                redis.hset(tag + "h", Map.of("f", "v" + g, "g", "w"));
                redis.rpush(tag + "l", "a", "b", "c" + g);
                redis.sadd(tag + "set", "m", "n" + g);
                redis.zadd(tag + "z", ScoredValue.just(g, "a"), ScoredValue.just(-1, "b"));
                redis.expire(tag + "h", 3_600);
                for (String type : List.of("s", "h", "l", "set", "z")) {
                    assertThat(redis.rename(tag + type, tag + type + "2")).isEqualTo("OK");
                    keys.add(tag + type + "2");
                }
                byte[] payload = redis.dump(tag + "h2");
                assertThat(redis.restore("copy-" + g, payload, RestoreArgs.Builder.ttl(7_200_000))).isEqualTo("OK");
                keys.add("copy-" + g);
            }

            failover.stopActiveOwnerOfSome(keys, "renamed keys");

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> {
                        for (int g = 0; g < GROUPS; g++) {
                            String tag = "{g" + g + "}";
                            assertThat(redis.get(tag + "s2")).isEqualTo("v" + g);
                            assertThat(redis.hgetall(tag + "h2")).isEqualTo(Map.of("f", "v" + g, "g", "w"));
                            assertThat(redis.lrange(tag + "l2", 0, -1)).containsExactly("a", "b", "c" + g);
                            assertThat(redis.smembers(tag + "set2")).containsExactlyInAnyOrder("m", "n" + g);
                            assertThat(redis.zrangeWithScores(tag + "z2", 0, -1)).extracting(ScoredValue::getValue)
                                    .containsExactly("b", "a");
                            assertThat(redis.exists(tag + "s", tag + "h", tag + "l", tag + "set", tag + "z"))
                                    .as("the old names").isZero();
                            assertThat(redis.hgetall("copy-" + g)).isEqualTo(Map.of("f", "v" + g, "g", "w"));
                        }
                    });
            assertThat(redis.ttl("{g0}h2")).as("the renamed hash kept its TTL").isBetween(3_000L, 3_600L);
            assertThat(redis.ttl("copy-0")).as("the restored hash has RESTORE's TTL").isBetween(7_000L, 7_200L);
            assertThat(redis.ttl("{g0}s2")).isEqualTo(-1);
            assertThat(redis.rename("{g0}l2", "{g0}l3")).as("renames go on at the new owner").isEqualTo("OK");
            assertThat(redis.lrange("{g0}l3", 0, -1)).containsExactly("a", "b", "c0");
        }
    }
}
