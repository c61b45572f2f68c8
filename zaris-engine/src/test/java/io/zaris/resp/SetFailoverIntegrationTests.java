package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Sets survive the loss of their active owner: three nodes keeping three copies (SYNC acknowledgement), sets written
 * through Lettuce (one of 5,000 members, added 500 per SADD, so replicas receive it member by member), then a node
 * that actively owns some of them is stopped. Every member reads back from the new owners, a set's TTL is kept, and
 * writes to the sets go on from where they were.
 */
@Tag("in-process-cluster")
class SetFailoverIntegrationTests {

    private static final int SETS = 100;
    private static final int MEMBERS = 40;
    private static final int BIG_MEMBERS = 5_000;

    @Test
    void everyMemberOfEverySetReadsBackFromTheNewOwner() throws Exception {
        try (RespFailoverCluster failover = RespFailoverCluster.start()) {
            RedisAdvancedClusterCommands<String, String> redis = failover.redis();
            Map<String, Set<String>> expected = new LinkedHashMap<>();
            for (int s = 0; s < SETS; s++) {
                Set<String> members = new HashSet<>();
                for (int m = 0; m < MEMBERS; m++) {
                    members.add("member-" + s + "-" + m);
                }
                assertThat(redis.sadd("set-" + s, members.toArray(new String[0]))).isEqualTo(MEMBERS);
                expected.put("set-" + s, members);
            }
            Set<String> big = new HashSet<>();
            for (int from = 0; from < BIG_MEMBERS; from += 500) {
                List<String> batch = new ArrayList<>();
                for (int m = from; m < from + 500; m++) {
                    batch.add("m" + m);
                }
                assertThat(redis.sadd("big", batch.toArray(new String[0]))).isEqualTo(500);
                big.addAll(batch);
            }
            expected.put("big", big);
            assertThat(redis.srem("set-0", "member-0-0")).isEqualTo(1);
            expected.get("set-0").remove("member-0-0");
            assertThat(redis.expire("set-1", 3_600)).isTrue();

            failover.stopActiveOwnerOfSome(expected.keySet(), "sets");

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> {
                        for (Map.Entry<String, Set<String>> set : expected.entrySet()) {
                            assertThat(redis.smembers(set.getKey())).as(set.getKey()).isEqualTo(set.getValue());
                        }
                    });
            assertThat(redis.scard("big")).isEqualTo(BIG_MEMBERS);
            assertThat(redis.ttl("set-1")).as("the set kept its TTL").isBetween(3_000L, 3_600L);
            assertThat(redis.type("set-2")).isEqualTo("set");
            assertThat(redis.sismember("set-0", "member-0-0")).as("the removed member stays removed").isFalse();
            assertThat(redis.sadd("set-0", "member-0-0", "member-0-1")).as("adds go on from the set").isEqualTo(1);
            assertThat(redis.srem("big", "m0", "m1")).isEqualTo(2);
            assertThat(redis.scard("big")).isEqualTo(BIG_MEMBERS - 2);
        }
    }
}
