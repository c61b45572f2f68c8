package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.model.SortedSetScores;
import io.zaris.protocol.Request;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Sorted sets in the store: Redis's answers, order, types, expiry, memory, and replication member by member. */
@Tag("unit")
class SortedSetStoreTests {

    private final RecordingStore store = new RecordingStore();
    private final NodeStore active = store.active();
    private final List<Change> shipped = store.shipped();

    /** Rank ranges of every kind (negative, past either end, empty, reversed) against a sorted copy of the set. */
    @Test
    void rankRangesAnswerWhatRedisClampsThemTo() {
        java.util.Random random = new java.util.Random(38);
        List<String> ascending = new ArrayList<>(); // "member score" pairs, by (score, member)
        java.util.TreeMap<Double, java.util.TreeSet<String>> byScore = new java.util.TreeMap<>();
        for (int i = 0; i < 150; i++) {
            String member = "m" + i;
            double score = random.nextInt(40);
            z(HashOp.ZADD, "ranks", "", SortedSetScores.format(score), member);
            byScore.computeIfAbsent(score, s -> new java.util.TreeSet<>()).add(member);
        }
        byScore.forEach((score, members) -> members.forEach(m -> {
            ascending.add(m);
            ascending.add(SortedSetScores.format(score));
        }));
        int size = ascending.size() / 2;
        for (int probe = 0; probe < 300; probe++) {
            int start = random.nextInt(2 * size + 40) - size - 20;
            int stop = random.nextInt(2 * size + 40) - size - 20;
            boolean reverse = random.nextBoolean();
            int first = Math.max(start < 0 ? start + size : start, 0);
            int last = Math.min(stop < 0 ? stop + size : stop, size - 1);
            List<String> expected = new ArrayList<>();
            for (int rank = first; rank <= last; rank++) {
                int at = reverse ? size - 1 - rank : rank;
                expected.add(ascending.get(2 * at));
                expected.add(ascending.get(2 * at + 1));
            }
            assertThat(texts(z(HashOp.ZRANGE, "ranks", "RANK", reverse ? "1" : "0", Integer.toString(start),
                    Integer.toString(stop), "0", "-1").items())).as("%d %d %s", start, stop, reverse).isEqualTo(expected);
        }
    }

    @Test
    void membersOrderByScoreThenByTheirBytes() {
        assertThat(z(HashOp.ZADD, "z", "", "2", "b", "1", "c", "2", "a", "-inf", "low", "1.5", "\u00e9").count()).isEqualTo(5);

        assertThat(texts(z(HashOp.ZRANGE, "z", "RANK", "0", "0", "-1", "0", "-1").items()))
                .containsExactly("low", "-inf", "c", "1", "\u00e9", "1.5", "a", "2", "b", "2");
        assertThat(texts(z(HashOp.ZRANGE, "z", "RANK", "1", "0", "1", "0", "-1").items()))
                .as("REV walks from the top").containsExactly("b", "2", "a", "2");
        assertThat(z(HashOp.ZCARD, "z").count()).isEqualTo(5);
        assertThat(z(HashOp.ZRANK, "z", "a", "0").count()).isEqualTo(3);
        assertThat(z(HashOp.ZRANK, "z", "a", "1").count()).isEqualTo(1);
        assertThat(texts(z(HashOp.ZRANK, "z", "a", "0").items())).containsExactly("2");
        assertThat(z(HashOp.ZRANK, "z", "nope", "0").items()).as("an absent member has no rank").isEmpty();
        assertThat(texts(z(HashOp.ZMSCORE, "z", "c", "nope", "low").items())).containsExactly("1", null, "-inf");
        assertThat(type("z")).isEqualTo("zset");
    }

    @Test
    void zaddConditionsFollowRedis() {
        z(HashOp.ZADD, "z", "", "5", "m");
        assertThat(z(HashOp.ZADD, "z", "N", "1", "m", "1", "n").count()).as("NX adds only").isEqualTo(1);
        assertThat(score("m")).isEqualTo("5");
        assertThat(z(HashOp.ZADD, "z", "XC", "6", "m", "1", "x").count()).as("XX updates only; CH counts it").isEqualTo(1);
        assertThat(score("x")).isNull();
        assertThat(z(HashOp.ZADD, "z", "GC", "4", "m").count()).as("GT keeps a higher score").isZero();
        assertThat(z(HashOp.ZADD, "z", "LC", "4", "m", "9", "new").count()).as("LT still adds new members").isEqualTo(2);
        assertThat(z(HashOp.ZADD, "z", "C", "4", "m").count()).as("an equal score is no change").isZero();
        assertThat(texts(z(HashOp.ZADD, "z", "I", "2.5", "m").items())).containsExactly("6.5");
        assertThat(z(HashOp.ZADD, "z", "NI", "1", "m").items()).as("a condition that keeps it answers none")
                .containsExactly((byte[]) null);
        z(HashOp.ZADD, "z", "", "inf", "top");
        assertThat(z(HashOp.ZADD, "z", "I", "-inf", "top").error()).isEqualTo("resulting score is not a number (NaN)");
        assertThat(score("top")).isEqualTo("inf");
        assertThat(z(HashOp.ZADD, "z", "", "nan", "m").error()).isEqualTo("value is not a valid float");
        assertThat(z(HashOp.ZADD, "z", "NX", "1", "m").error()).isEqualTo("XX and NX options at the same time are not compatible");
        assertThat(z(HashOp.ZADD, "z", "I", "1", "a", "2", "b").error()).isEqualTo("INCR option supports a single increment-element pair");
    }

    @Test
    void scoreRangesTakeExclusiveAndInfiniteBoundsAndLimit() {
        z(HashOp.ZADD, "z", "", "1", "a", "2", "b", "2", "c", "3", "d", "4", "e");
        assertThat(z(HashOp.ZCOUNT, "z", "(1", "3").count()).isEqualTo(3);
        assertThat(z(HashOp.ZCOUNT, "z", "-inf", "+inf").count()).isEqualTo(5);
        assertThat(z(HashOp.ZCOUNT, "z", "3", "1").count()).isZero();
        assertThat(z(HashOp.ZCOUNT, "z", "x", "1").error()).isEqualTo("min or max is not a float");
        assertThat(members(z(HashOp.ZRANGE, "z", "SCORE", "0", "(2", "4", "0", "-1"))).containsExactly("d", "e");
        assertThat(members(z(HashOp.ZRANGE, "z", "SCORE", "1", "2", "(4", "0", "-1"))).containsExactly("d", "c", "b");
        assertThat(members(z(HashOp.ZRANGE, "z", "SCORE", "0", "-inf", "inf", "1", "2"))).containsExactly("b", "c");
        assertThat(members(z(HashOp.ZRANGE, "z", "SCORE", "0", "-inf", "inf", "-1", "2"))).isEmpty();
        assertThat(members(z(HashOp.ZRANGE, "z", "RANK", "0", "-2", "100", "0", "-1"))).containsExactly("d", "e");
        assertThat(members(z(HashOp.ZRANGE, "z", "RANK", "0", "3", "1", "0", "-1"))).isEmpty();
    }

    @Test
    void lexRangesWalkMembersOfOneScore() {
        z(HashOp.ZADD, "z", "", "0", "a", "0", "b", "0", "c", "0", "d");
        assertThat(members(z(HashOp.ZRANGE, "z", "LEX", "0", "(a", "[c", "0", "-1"))).containsExactly("b", "c");
        assertThat(members(z(HashOp.ZRANGE, "z", "LEX", "1", "-", "(c", "0", "-1"))).containsExactly("b", "a");
        assertThat(members(z(HashOp.ZRANGE, "z", "LEX", "0", "[b", "+", "1", "1"))).containsExactly("c");
        assertThat(z(HashOp.ZRANGE, "z", "LEX", "0", "a", "+", "0", "-1").error()).isEqualTo("min or max not valid string range item");
    }

    @Test
    void popsAndRangeRemovalsShipTheRemovalsTheyMade() {
        z(HashOp.ZADD, "z", "", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");
        shipped.clear();

        assertThat(texts(z(HashOp.ZPOP, "z", "0", "2").items())).containsExactly("a", "1", "b", "2");
        assertThat(texts(z(HashOp.ZPOP, "z", "1", "1").items())).containsExactly("e", "5");
        assertThat(z(HashOp.ZREMRANGE, "z", "SCORE", "(3", "inf").count()).isEqualTo(1);
        assertThat(shipped).extracting(Change::kind).containsOnly(Change.Kind.FIELD_REMOVAL);
        assertThat(shipped).extracting(change -> text(change.field())).containsExactly("a", "b", "e", "d");
        assertThat(z(HashOp.ZPOP, "z", "0", "-1").error()).isEqualTo("value is out of range, must be positive");
        assertThat(z(HashOp.ZREM, "z", "c", "nope").count()).isEqualTo(1);
        assertThat(type("z")).as("an emptied sorted set no longer exists").isEqualTo("none");
        assertThat(z(HashOp.ZPOP, "z", "0", "3").items()).isEmpty();
    }

    @Test
    void aNegativeZeroIsStoredAsZeroButAnIncrementAnswersItsSum() {
        assertThat(texts(z(HashOp.ZADD, "z", "I", "-0", "m").items())).containsExactly("-0");
        assertThat(score("m")).isEqualTo("0");
        z(HashOp.ZADD, "z", "", "-0", "n");
        assertThat(score("n")).isEqualTo("0");
    }

    @Test
    void anIncrementShipsTheResultingScoreNotTheIncrement() {
        z(HashOp.ZADD, "z", "", "1.25", "m");
        shipped.clear();

        z(HashOp.ZADD, "z", "I", "2", "m");

        assertThat(shipped).hasSize(1);
        assertThat(shipped.get(0).kind()).isEqualTo(Change.Kind.SCORE_PUT);
        assertThat(SortedSetScores.decode(shipped.get(0).value())).isEqualTo(3.25);
    }

    @Test
    void aCommandOnAnotherTypeIsRefusedBothWays() {
        active.put(0, bytes("str"), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        z(HashOp.HSET, "h", "f", "v");
        z(HashOp.SADD, "s", "m");
        z(HashOp.ZADD, "z", "", "1", "m");

        for (String other : List.of("str", "h", "s")) {
            assertThat(z(HashOp.ZADD, other, "", "1", "m").status()).isEqualTo(KvStatus.WRONG_TYPE);
            assertThat(z(HashOp.ZRANGE, other, "RANK", "0", "0", "-1", "0", "-1").status()).isEqualTo(KvStatus.WRONG_TYPE);
        }
        assertThat(z(HashOp.HGETALL, "z").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(z(HashOp.HSET, "z", "f", "v").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(z(HashOp.SMEMBERS, "z").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(z(HashOp.SADD, "z", "x").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(active.increment(0, bytes("z"), 1, 1).status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(score("m")).isEqualTo("1");
    }

    @Test
    void aSortedSetExpiresWholeAndIsChargedPerMember() {
        long empty = active.segmentBytes(0);
        z(HashOp.ZADD, "z", "", "1", "m1");
        long one = active.segmentBytes(0);
        z(HashOp.ZADD, "z", "", "2", "member2");
        long two = active.segmentBytes(0);
        assertThat(two - one).isEqualTo(HashEntry.FIELD_OVERHEAD_BYTES + SortedSetEntry.ORDER_OVERHEAD_BYTES + 7 + 8);
        z(HashOp.ZADD, "z", "", "3", "member2");
        assertThat(active.segmentBytes(0)).as("a new score costs nothing more").isEqualTo(two);
        assertThat(active.memory().usedBytes()).isEqualTo(two);

        assertThat(active.touch(0, bytes("z"), 5_000, 1).status()).isEqualTo(KvStatus.OK);
        store.advance(5_000);
        assertThat(type("z")).isEqualTo("none");
        shipped.clear();
        z(HashOp.ZADD, "z", "", "7", "fresh");
        assertThat(texts(z(HashOp.ZRANGE, "z", "RANK", "0", "0", "-1", "0", "-1").items())).containsExactly("fresh", "7");
        assertThat(shipped).extracting(Change::kind).containsExactly(Change.Kind.REMOVAL, Change.Kind.SCORE_PUT);
        active.delete(0, bytes("z"), Request.ANY_VERSION, 1);
        assertThat(active.segmentBytes(0)).isEqualTo(empty);
    }

    @Test
    void aReplicaASnapshotAndAFollowerHoldTheSameCopy() {
        writeMixedHistory();

        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();
        assertThat(texts(RecordingStore.run(replica, HashOp.ZRANGE, "z", "RANK", "0", "0", "-1", "0", "-1").items()))
                .as("b (-0, stored as 0) and d (0) tie on score: b, first by its bytes, was popped")
                .containsExactly("d", "0", "c", "3", "a", "11");

        SegmentSnapshot snapshot = store.snapshot();
        assertThat(snapshot.entries()).extracting(Change::kind).contains(Change.Kind.SCORE_PUT);
        store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(snapshot);

        store.assertTailShipsOnThroughAFollower("score");
    }

    @Test
    void aSortedSetAndAHashWithTheSameBytesDigestApart() {
        z(HashOp.ZADD, "k", "", "1", "a");
        NodeStore other = store.newStore();
        other.hash(0, bytes("k"), HashOp.HSET, List.of(bytes("a"), SortedSetScores.encode(1)), 1);

        assertThat(other.segmentDigest(0)).isNotEqualTo(active.segmentDigest(0));
    }

    /** Scores set again and incremented, members popped, a key turning from hash to sorted set, a removed one. */
    private void writeMixedHistory() {
        z(HashOp.ZADD, "z", "", "1", "a", "2", "b", "3", "c");
        z(HashOp.ZADD, "z", "I", "10", "a");
        z(HashOp.ZADD, "z", "", "-0", "b");
        z(HashOp.ZADD, "z", "", "0", "d");
        z(HashOp.ZPOP, "z", "0", "1");
        z(HashOp.ZADD, "z", "", "0.5", "gone");
        z(HashOp.ZREMRANGE, "z", "SCORE", "(0", "(1");
        active.touch(0, bytes("z"), 60_000, 1);
        z(HashOp.HSET, "flip", "x", "1");
        active.delete(0, bytes("flip"), Request.ANY_VERSION, 1);
        z(HashOp.ZADD, "flip", "", "4", "x");
        z(HashOp.ZADD, "dropped", "", "4", "x");
        active.delete(0, bytes("dropped"), Request.ANY_VERSION, 1);
    }

    private String score(String member) {
        return texts(z(HashOp.ZMSCORE, "z", member).items()).get(0);
    }

    private List<String> members(HashReply reply) {
        List<String> out = new ArrayList<>();
        List<String> items = texts(reply.items());
        for (int i = 0; i < items.size(); i += 2) {
            out.add(items.get(i));
        }
        return out;
    }

    private HashReply z(HashOp op, String key, String... args) {
        return store.run(op, key, args);
    }

    private String type(String key) {
        return store.type(key);
    }

    private static List<String> texts(List<byte[]> items) {
        return RecordingStore.texts(items);
    }

    private static String text(byte[] bytes) {
        return RecordingStore.text(bytes);
    }

    private static byte[] bytes(String text) {
        return RecordingStore.bytes(text);
    }
}
