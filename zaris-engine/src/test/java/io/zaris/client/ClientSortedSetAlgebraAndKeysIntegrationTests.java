package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.NodeAddress;
import io.zaris.transport.ZarisWrongTypeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.params.ZParams;
import redis.clients.jedis.resps.Tuple;

/**
 * The native client's sorted-set algebra (ZUNION, ZINTER, ZDIFF with WEIGHTS and AGGREGATE, their STORE forms,
 * ZINTERCARD, ZRANGESTORE by rank, score and member) and its key operations of any type (TYPE, EXISTS, RENAME,
 * RENAMENX) against one real three-node cluster keeping two copies, answered as Redis answers them, and as the cluster's
 * Redis port (whose replies the differential suite compares with a real Redis) answers a Redis client for the same
 * keys; each test on a hash tag of its own.
 */
@Tag("in-process-cluster")
class ClientSortedSetAlgebraAndKeysIntegrationTests extends AgainstThreeNodeCluster {

    @Test
    void sortedSetsCombineWithWeightsAndAggregatesAndStoreTheResult() {
        client.sortedSetAdd("{z}a", scores("a", 1, "b", 2, "c", 3)).join();
        client.sortedSetAdd("{z}b", scores("b", 10, "c", 20, "d", 30)).join();
        client.setAdd("{z}s", "c", "e").join();

        assertThat(client.sortedSetUnion("{z}a", "{z}b").join()).containsExactly(member("a", 1), member("b", 12),
                member("c", 23), member("d", 30));
        SortedSetCombineOptions weightedMax = SortedSetCombineOptions.builder().weights(2, 1).aggregate(ScoreAggregate.MAX)
                .build();
        assertThat(client.sortedSetUnion(weightedMax, "{z}a", "{z}b").join()).containsExactly(member("a", 2),
                member("b", 10), member("c", 20), member("d", 30));
        assertThat(client.sortedSetIntersection("{z}a", "{z}b").join()).containsExactly(member("b", 12), member("c", 23));
        SortedSetCombineOptions min = SortedSetCombineOptions.builder().aggregate(ScoreAggregate.MIN).build();
        assertThat(client.sortedSetIntersection(min, "{z}a", "{z}b").join()).containsExactly(member("b", 2), member("c", 3));
        assertThat(client.sortedSetDifference("{z}a", "{z}b").join()).containsExactly(member("a", 1));
        assertThat(client.sortedSetUnion("{z}a", "{z}s", "{z}absent").join()).as("a set's members score 1, by member then")
                .containsExactly(member("a", 1), member("e", 1), member("b", 2), member("c", 4));
        assertThat(client.sortedSetIntersectionSize("{z}a", "{z}b").join()).isEqualTo(2);
        assertThat(client.sortedSetIntersectionSize(1, "{z}a", "{z}b").join()).isEqualTo(1);
        assertThat(client.sortedSetIntersectionSize("{z}a", "{z}absent").join()).isZero();

        client.put("{z}dest", bytes("text"), Duration.ofHours(1)).join();
        assertThat(client.sortedSetUnionStore("{z}dest", "{z}a", "{z}b").join()).isEqualTo(4);
        assertThat(client.type("{z}dest").join()).as("the string is replaced").contains(KeyType.SORTED_SET);
        assertThat(client.sortedSetRange("{z}dest", 0, -1).join()).extracting(ScoredMember::member)
                .containsExactly("a", "b", "c", "d");
        assertThat(client.sortedSetUnionStore("{z}weighted", weightedMax, "{z}a", "{z}b").join()).isEqualTo(4);
        assertThat(client.sortedSetScore("{z}weighted", "a").join()).isEqualTo(2.0);
        assertThat(client.sortedSetDifferenceStore("{z}diff", "{z}a", "{z}b").join()).isEqualTo(1);
        assertThat(client.sortedSetIntersectionStore("{z}a", "{z}a", "{z}b").join()).as("the destination among the keys")
                .isEqualTo(2);
        assertThat(client.sortedSetRange("{z}a", 0, -1).join()).containsExactly(member("b", 12), member("c", 23));
        assertThat(client.sortedSetIntersectionStore("{z}dest", "{z}a", "{z}absent").join()).isZero();
        assertThat(client.exists("{z}dest").join()).as("an empty result leaves the destination absent").isFalse();

        client.put("{z}plain", bytes("v")).join();
        assertThatThrownBy(() -> client.sortedSetUnion("{z}a", "{z}plain").join()).cause()
                .isInstanceOf(ZarisWrongTypeException.class);
        assertThatThrownBy(() -> client.sortedSetDifferenceStore("{z}dest", "{z}plain").join()).cause()
                .isInstanceOf(ZarisWrongTypeException.class);
        assertThat(client.sync().sortedSetIntersection(weightedMax, "{z}a", "{z}b"))
                .containsExactly(member("b", 24), member("c", 46));
        assertThat(client.sync().sortedSetDifferenceStore("{z}diff2", "{z}b", "{z}a")).isEqualTo(1);
    }

    @Test
    void aRangeIsStoredByRankScoreOrMember() {
        client.sortedSetAdd("{r}src", scores("a", 1, "b", 2, "c", 3, "d", 4, "e", 5)).join();
        client.put("{r}dst", bytes("text"), Duration.ofHours(1)).join();

        assertThat(client.sortedSetRangeStore("{r}dst", "{r}src", 1, 2).join()).isEqualTo(2);
        assertThat(client.sortedSetRange("{r}dst", 0, -1).join()).containsExactly(member("b", 2), member("c", 3));
        assertThat(client.sortedSetReverseRangeStore("{r}dst", "{r}src", 0, 1).join()).isEqualTo(2);
        assertThat(client.sortedSetRange("{r}dst", 0, -1).join()).containsExactly(member("d", 4), member("e", 5));
        assertThat(client.sortedSetRangeByScoreStore("{r}dst", "{r}src", ScoreBound.exclusive(1), ScoreBound.inclusive(4),
                RangeLimit.of(1, 2)).join()).isEqualTo(2);
        assertThat(client.sortedSetRange("{r}dst", 0, -1).join()).containsExactly(member("c", 3), member("d", 4));
        assertThat(client.sortedSetReverseRangeByScoreStore("{r}dst", "{r}src", ScoreBound.unbounded(),
                ScoreBound.unbounded(), RangeLimit.of(0, 1)).join()).isEqualTo(1);
        assertThat(client.sortedSetRange("{r}dst", 0, -1).join()).containsExactly(member("e", 5));

        client.sortedSetAdd("{r}names", scores("alpha", 0, "bravo", 0, "charlie", 0)).join();
        assertThat(client.sortedSetRangeByLexStore("{r}dst", "{r}names", LexBound.inclusive("b"), LexBound.unbounded(),
                RangeLimit.ALL).join()).isEqualTo(2);
        assertThat(client.sortedSetRange("{r}dst", 0, -1).join()).containsExactly(member("bravo", 0), member("charlie", 0));
        assertThat(client.sortedSetReverseRangeByLexStore("{r}dst", "{r}names", LexBound.unbounded(),
                LexBound.exclusive("charlie"), RangeLimit.of(0, 1)).join()).isEqualTo(1);
        assertThat(client.sortedSetRange("{r}dst", 0, -1).join()).containsExactly(member("bravo", 0));

        assertThat(client.sortedSetRangeStore("{r}src", "{r}src", 0, 0).join()).as("a source that is its own destination")
                .isEqualTo(1);
        assertThat(client.sortedSetRange("{r}src", 0, -1).join()).containsExactly(member("a", 1));
        assertThat(client.sortedSetRangeStore("{r}dst", "{r}absent", 0, -1).join()).isZero();
        assertThat(client.exists("{r}dst").join()).as("an empty range leaves the destination absent").isFalse();
        client.put("{r}plain", bytes("v")).join();
        assertThatThrownBy(() -> client.sortedSetRangeStore("{r}dst", "{r}plain", 0, -1).join()).cause()
                .isInstanceOf(ZarisWrongTypeException.class);
        assertThat(client.sync().sortedSetRangeByScoreStore("{r}dst", "{r}names", ScoreBound.inclusive(0),
                ScoreBound.inclusive(0), RangeLimit.ALL)).isEqualTo(3);
    }

    @Test
    void keysOfAnyTypeAnswerTheirTypeAndAreRenamed() {
        client.put("{k}string", bytes("v"), Duration.ofHours(1)).join();
        client.hashSet("{k}hash", Map.of("f", bytes("1"))).join();
        client.listPush("{k}list", ListEnd.TAIL, bytes("x")).join();
        client.setAdd("{k}set", "m").join();
        client.sortedSetAdd("{k}zset", scores("m", 1)).join();
        assertThat(client.type("{k}string").join()).contains(KeyType.STRING);
        assertThat(client.type("{k}hash").join()).contains(KeyType.HASH);
        assertThat(client.type("{k}list").join()).contains(KeyType.LIST);
        assertThat(client.type("{k}set").join()).contains(KeyType.SET);
        assertThat(client.type("{k}zset").join()).contains(KeyType.SORTED_SET);
        assertThat(client.type("{k}absent").join()).isEqualTo(Optional.empty());
        assertThat(client.exists("{k}list").join()).isTrue();
        assertThat(client.exists("{k}absent").join()).isFalse();

        client.rename("{k}string", "{k}renamed").join();
        assertThat(client.exists("{k}string").join()).isFalse();
        assertThat(client.get("{k}renamed").join()).hasValueSatisfying(value -> {
            assertThat(new String(value.value(), StandardCharsets.UTF_8)).isEqualTo("v");
            assertThat(value.ttlRemainingMillis()).as("the expiry moves with the value").isPositive();
        });
        client.rename("{k}hash", "{k}list").join();
        assertThat(client.type("{k}list").join()).as("the destination's list is replaced").contains(KeyType.HASH);
        assertThat(client.hashGet("{k}list", "f").join()).isEqualTo(bytes("1"));
        assertThatThrownBy(() -> client.rename("{k}absent", "{k}other").join()).cause()
                .isInstanceOf(ZarisNoSuchKeyException.class).hasMessageContaining("no such key");

        assertThat(client.renameIfAbsent("{k}set", "{k}zset").join()).as("the destination exists").isFalse();
        assertThat(client.type("{k}set").join()).contains(KeyType.SET);
        assertThat(client.type("{k}zset").join()).contains(KeyType.SORTED_SET);
        assertThat(client.renameIfAbsent("{k}set", "{k}set2").join()).isTrue();
        assertThat(client.setMembers("{k}set2").join()).containsExactly("m");
        assertThatThrownBy(() -> client.renameIfAbsent("{k}absent", "{k}other").join()).cause()
                .isInstanceOf(ZarisNoSuchKeyException.class);

        assertThat(client.sync().type("{k}set2")).contains(KeyType.SET);
        client.sync().rename("{k}set2", "{k}set3");
        assertThat(client.sync().exists("{k}set3")).isTrue();
        assertThat(client.sync().renameIfAbsent("{k}set3", "{k}zset")).isFalse();
    }

    @Test
    void combinationsAnswerAsTheRedisPortAnswersJedis() {
        Random random = new Random(38_4);
        String[] keys = {"{j}a", "{j}b", "{j}c"};
        for (String key : keys) {
            Map<String, Double> scores = new LinkedHashMap<>();
            for (int i = 0; i < 12; i++) {
                scores.put("m" + random.nextInt(20), (double) (random.nextInt(41) - 20) / 4);
            }
            client.sortedSetAdd(key, scores).join();
        }
        client.setAdd("{j}set", "m1", "m2", "m3", "m30").join();
        Set<HostAndPort> nodes = new HashSet<>();
        for (NodeAddress address : cluster.respSeeds()) {
            nodes.add(new HostAndPort(address.host(), address.port()));
        }
        try (JedisCluster jedis = new JedisCluster(nodes)) {
            for (ScoreAggregate aggregate : ScoreAggregate.values()) {
                SortedSetCombineOptions options = SortedSetCombineOptions.builder().weights(2, -1, 0.5, 3)
                        .aggregate(aggregate).build();
                ZParams params = new ZParams().weights(2, -1, 0.5, 3).aggregate(ZParams.Aggregate.valueOf(aggregate.name()));
                String[] all = {"{j}a", "{j}b", "{j}c", "{j}set"};
                assertThat(client.sortedSetUnion(options, all).join()).as("ZUNION %s", aggregate)
                        .isEqualTo(scored(jedis.zunionWithScores(params, all)));
                assertThat(client.sortedSetIntersection(options, all).join()).as("ZINTER %s", aggregate)
                        .isEqualTo(scored(jedis.zinterWithScores(params, all)));
                assertThat(client.sortedSetUnionStore("{j}mine", options, all).join())
                        .isEqualTo(jedis.zunionstore("{j}theirs", params, all));
                assertThat(client.sortedSetRange("{j}mine", 0, -1).join())
                        .isEqualTo(scored(jedis.zrangeWithScores("{j}theirs", 0, -1)));
            }
            assertThat(client.sortedSetIntersection("{j}a", "{j}set").join()).as("a set's members score 1").isNotEmpty()
                    .isEqualTo(scored(jedis.zinterWithScores(new ZParams(), "{j}a", "{j}set")));
            assertThat(client.sortedSetIntersection(keys).join()).isEqualTo(scored(jedis.zinterWithScores(new ZParams(), keys)));
            assertThat(client.sortedSetDifference(keys).join()).isEqualTo(scored(jedis.zdiffWithScores(keys)));
            assertThat(client.sortedSetDifferenceStore("{j}mine", keys).join()).isEqualTo(jedis.zdiffStore("{j}theirs", keys));
            assertThat(client.sortedSetIntersectionStore("{j}mine", "{j}a", "{j}b").join())
                    .isEqualTo(jedis.zinterstore("{j}theirs", "{j}a", "{j}b"));
            long common = client.sortedSetIntersectionSize("{j}a", "{j}b").join();
            assertThat(common).as("the seed gives the two an intersection").isPositive()
                    .isEqualTo(jedis.zintercard("{j}a", "{j}b"));
            assertThat(client.sortedSetIntersectionSize(2, "{j}a", "{j}b").join())
                    .isEqualTo(jedis.zintercard(2, "{j}a", "{j}b"));
            for (String key : List.of("{j}a", "{j}set", "{j}mine", "{j}absent")) {
                assertThat(client.type(key).join().map(KeyType::redisName).orElse("none")).isEqualTo(jedis.type(key));
            }
            client.rename("{j}mine", "{j}renamed").join();
            assertThat(jedis.exists("{j}mine")).isFalse();
            assertThat(jedis.zrangeWithScores("{j}renamed", 0, -1)).isEqualTo(jedis.zrangeWithScores("{j}theirs", 0, -1));
        }
    }

    private static List<ScoredMember> scored(List<Tuple> tuples) {
        return tuples.stream().map(tuple -> new ScoredMember(tuple.getElement(), tuple.getScore())).toList();
    }

    private static ScoredMember member(String member, double score) {
        return new ScoredMember(member, score);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, Double> scores(Object... memberScorePairs) {
        Map<String, Double> scores = new LinkedHashMap<>();
        for (int i = 0; i < memberScorePairs.length; i += 2) {
            scores.put((String) memberScorePairs[i], ((Number) memberScorePairs[i + 1]).doubleValue());
        }
        return scores;
    }
}
