package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Sorted sets survive the loss of their active owner: three nodes keeping three copies (SYNC acknowledgement),
 * leaderboards written through Lettuce (one of 5,000 members, added 500 per ZADD), changed by ZINCRBY, ZPOPMIN and
 * ZREMRANGEBYSCORE (whose outcomes, not the commands, reach the replicas), then a node that actively owns some of
 * them is stopped. Every member reads back with its score, in order, from the new owners; a TTL is kept, and writes
 * go on from where they were.
 */
@Tag("in-process-cluster")
class SortedSetFailoverIntegrationTests {

    private static final int BOARDS = 100;
    private static final int PLAYERS = 40;
    private static final int BIG_MEMBERS = 5_000;

    @Test
    void everyMemberOfEveryLeaderboardReadsBackWithItsScoreFromTheNewOwner() throws Exception {
        try (RespFailoverCluster cluster = RespFailoverCluster.start()) {
            RedisAdvancedClusterCommands<String, String> redis = cluster.redis();
            Map<String, Map<String, Double>> expected = new LinkedHashMap<>();
            for (int b = 0; b < BOARDS; b++) {
                Map<String, Double> board = new LinkedHashMap<>();
                List<ScoredValue<String>> players = new ArrayList<>();
                for (int p = 0; p < PLAYERS; p++) {
                    double score = (p * 37 + b) % 101 + 0.25 * (p % 4);
                    board.put("player-" + b + "-" + p, score);
                    players.add(ScoredValue.just(score, "player-" + b + "-" + p));
                }
                @SuppressWarnings("unchecked")
                ScoredValue<String>[] values = players.toArray(new ScoredValue[0]);
                assertThat(redis.zadd("board-" + b, (Object[]) values)).isEqualTo(PLAYERS);
                expected.put("board-" + b, board);
            }
            Map<String, Double> big = new LinkedHashMap<>();
            for (int from = 0; from < BIG_MEMBERS; from += 500) {
                List<Object> batch = new ArrayList<>();
                for (int m = from; m < from + 500; m++) {
                    batch.add(ScoredValue.just(m % 997, "m" + m));
                    big.put("m" + m, (double) (m % 997));
                }
                assertThat(redis.zadd("big", batch.toArray())).isEqualTo(500);
            }
            expected.put("big", big);

            assertThat(redis.zincrby("board-0", 1000.5, "player-0-3")).isEqualTo(expected.get("board-0").get("player-0-3") + 1000.5);
            expected.get("board-0").merge("player-0-3", 1000.5, Double::sum);
            ScoredValue<String> lowest = redis.zpopmin("board-1");
            assertThat(expected.get("board-1").remove(lowest.getValue())).isEqualTo(lowest.getScore());
            long removed = redis.zremrangebyscore("board-2", Range.create(0.0, 20.0));
            assertThat(removed).isPositive();
            expected.get("board-2").values().removeIf(score -> score <= 20.0);
            assertThat(redis.expire("board-3", 3_600)).isTrue();

            cluster.stopActiveOwnerOfSome(expected.keySet(), "sorted sets");

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> {
                        for (Map.Entry<String, Map<String, Double>> board : expected.entrySet()) {
                            assertThat(render(redis.zrangeWithScores(board.getKey(), 0, -1)))
                                    .as(board.getKey()).isEqualTo(ordered(board.getValue()));
                        }
                    });
            assertThat(redis.zcard("big")).isEqualTo(BIG_MEMBERS);
            assertThat(redis.zrevrank("board-0", "player-0-3")).as("the incremented player leads").isZero();
            assertThat(redis.ttl("board-3")).as("the sorted set kept its TTL").isBetween(3_000L, 3_600L);
            assertThat(redis.type("board-4")).isEqualTo("zset");
            assertThat(redis.zscore("board-1", lowest.getValue())).as("the popped member stays removed").isNull();
            assertThat(redis.zadd("board-1", 1.0, lowest.getValue())).as("adds go on").isEqualTo(1);
            assertThat(redis.zincrby("big", 0.5, "m0")).isEqualTo(0.5);
            assertThat(redis.zrangebyscore("big", Range.create(0.0, 0.75))).as("equal scores order by member bytes").containsExactly("m1994", "m2991", "m3988", "m4985", "m997", "m0");
        }
    }

    /** Members as "member=score", by ascending score then member, as ZRANGE orders them. */
    private static List<String> ordered(Map<String, Double> board) {
        return board.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry.comparingByKey(Comparator.naturalOrder())))
                .map(entry -> entry.getKey() + "=" + entry.getValue()).toList();
    }

    private static List<String> render(List<ScoredValue<String>> values) {
        return values.stream().map(value -> value.getValue() + "=" + value.getScore()).toList();
    }
}
