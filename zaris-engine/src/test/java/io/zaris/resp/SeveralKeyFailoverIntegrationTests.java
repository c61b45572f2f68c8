package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.LMPopArgs;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ZPopArgs;
import io.lettuce.core.ZStoreArgs;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the several-key writes did survives the loss of their active owner: three nodes keeping three copies (SYNC),
 * groups of keys sharing a hash tag written through Lettuce by ZUNIONSTORE (with weights, over a sorted set and a
 * set), SMOVE, LMPOP and ZMPOP, whose outcomes reach the replicas as member, score and element changes; then a node
 * that actively owns some groups is stopped, and every key reads back as the commands left it from the new owners.
 */
@Tag("in-process-cluster")
class SeveralKeyFailoverIntegrationTests {

    private static final int GROUPS = 60;

    @Test
    void whatSeveralKeyWritesLeftReadsBackFromTheNewOwner() throws Exception {
        try (RespFailoverCluster cluster = RespFailoverCluster.start()) {
            RedisAdvancedClusterCommands<String, String> redis = cluster.redis();
            List<String> keys = new ArrayList<>();
            for (int g = 0; g < GROUPS; g++) {
                String tag = "{g" + g + "}";
                assertThat(redis.zadd(tag + "a", ScoredValue.just(1, "x"), ScoredValue.just(2, "y"), ScoredValue.just(g + 10, "top")))
                        .isEqualTo(3);
                assertThat(redis.sadd(tag + "s", "x", "y", "z")).isEqualTo(3);
                assertThat(redis.zunionstore(tag + "u", ZStoreArgs.Builder.weights(2, 1), tag + "a", tag + "s"))
                        .as("x=3, y=5, z=1, top=2(g+10)").isEqualTo(4);
                assertThat(redis.smove(tag + "s", tag + "t", "y")).isTrue();
                assertThat(redis.rpush(tag + "l", "1", "2", "3")).isEqualTo(3);
                assertThat(redis.lmpop(LMPopArgs.Builder.left().count(2), tag + "none", tag + "l").getValue())
                        .containsExactly("1", "2");
                assertThat(redis.zmpop(ZPopArgs.Builder.min(), tag + "a").getValue().getValue()).isEqualTo("x");
                keys.add(tag + "a");
            }

            cluster.stopActiveOwnerOfSome(keys, "groups of several keys");

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> {
                        for (int g = 0; g < GROUPS; g++) {
                            String tag = "{g" + g + "}";
                            Map<String, Double> union = new LinkedHashMap<>();
                            for (ScoredValue<String> value : redis.zrangeWithScores(tag + "u", 0, -1)) {
                                union.put(value.getValue(), value.getScore());
                            }
                            assertThat(union).as(tag + "u").containsEntry("x", 3.0).containsEntry("y", 5.0)
                                    .containsEntry("z", 1.0).containsEntry("top", 2.0 * (g + 10)).hasSize(4);
                            assertThat(new TreeSet<>(redis.smembers(tag + "s"))).as(tag + "s").isEqualTo(Set.of("x", "z"));
                            assertThat(redis.smembers(tag + "t")).as(tag + "t").containsExactly("y");
                            assertThat(redis.lrange(tag + "l", 0, -1)).as(tag + "l").containsExactly("3");
                            assertThat(redis.zrange(tag + "a", 0, -1)).as(tag + "a").containsExactly("y", "top");
                        }
                    });
            assertThat(redis.smove("{g0}t", "{g0}s", "y")).as("writes go on").isTrue();
        }
    }
}
