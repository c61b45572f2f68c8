package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lists survive the loss of their active owner: three nodes keeping three copies (SYNC acknowledgement), lists written
 * through Lettuce with every kind of list change (pushes at both ends, pops, LSET, LREM, LTRIM, LINSERT, LMOVE; one
 * list of 5,000 elements pushed 500 per RPUSH, so replicas receive it change by change), then a node that actively
 * owns some of them is stopped. Every list reads back from the new owners in the same order, a list's TTL is kept,
 * and pushes and pops go on from where they were.
 */
@Tag("in-process-cluster")
class ListFailoverIntegrationTests {

    private static final int LISTS = 100;
    private static final int ELEMENTS = 40;
    private static final int BIG_ELEMENTS = 5_000;

    @Test
    void everyListReadsBackInOrderFromTheNewOwner() throws Exception {
        try (RespFailoverCluster cluster = RespFailoverCluster.start()) {
            RedisAdvancedClusterCommands<String, String> redis = cluster.redis();
            Map<String, List<String>> expected = new LinkedHashMap<>();
            for (int l = 0; l < LISTS; l++) {
                String key = "{list-" + l + "}";
                List<String> elements = new ArrayList<>();
                for (int e = 0; e < ELEMENTS; e++) {
                    elements.add("element-" + l + "-" + e);
                }
                assertThat(redis.rpush(key, elements.toArray(new String[0]))).isEqualTo(ELEMENTS);
                // One of each change on every list, mirrored on the expected copy.
                redis.lpush(key, "head");
                elements.add(0, "head");
                assertThat(redis.rpop(key)).isEqualTo(elements.remove(elements.size() - 1));
                redis.lset(key, 5, "set");
                elements.set(5, "set");
                redis.rpush(key, "dup", "x", "dup");
                elements.addAll(List.of("dup", "x", "dup"));
                assertThat(redis.lrem(key, 0, "dup")).isEqualTo(2);
                elements.removeIf("dup"::equals);
                redis.ltrim(key, 1, -2);
                elements = new ArrayList<>(elements.subList(1, elements.size() - 1));
                assertThat(redis.linsert(key, true, "set", "inserted")).isEqualTo(elements.size() + 1);
                elements.add(elements.indexOf("set"), "inserted");
                redis.rpush(key + "moved", "m");
                assertThat(redis.lmove(key, key + "moved", io.lettuce.core.LMoveArgs.Builder.leftRight()))
                        .isEqualTo(elements.remove(0));
                expected.put(key, elements);
            }
            List<String> big = new ArrayList<>();
            for (int from = 0; from < BIG_ELEMENTS; from += 500) {
                List<String> batch = new ArrayList<>();
                for (int e = from; e < from + 500; e++) {
                    batch.add("e" + e);
                }
                assertThat(redis.rpush("big", batch.toArray(new String[0]))).isEqualTo(from + 500);
                big.addAll(batch);
            }
            expected.put("big", big);
            assertThat(redis.expire("{list-1}", 3_600)).isTrue();

            cluster.stopActiveOwnerOfSome(expected.keySet(), "lists");

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> {
                        for (Map.Entry<String, List<String>> list : expected.entrySet()) {
                            assertThat(redis.lrange(list.getKey(), 0, -1)).as(list.getKey()).isEqualTo(list.getValue());
                        }
                    });
            assertThat(redis.llen("big")).isEqualTo(BIG_ELEMENTS);
            assertThat(redis.ttl("{list-1}")).as("the list kept its TTL").isBetween(3_000L, 3_600L);
            assertThat(redis.type("{list-2}")).isEqualTo("list");
            assertThat(redis.lrange("{list-3}moved", 0, -1)).containsExactly("m", "element-3-0");
            assertThat(redis.rpush("{list-0}", "after")).as("pushes go on from the list")
                    .isEqualTo(expected.get("{list-0}").size() + 1);
            assertThat(redis.lpop("big", 2)).containsExactly("e0", "e1");
            assertThat(redis.lindex("big", 0)).isEqualTo("e2");
            assertThat(redis.llen("big")).isEqualTo(BIG_ELEMENTS - 2);
        }
    }
}
