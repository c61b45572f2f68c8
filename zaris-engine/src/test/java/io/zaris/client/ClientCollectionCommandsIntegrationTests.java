package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.KvStatus;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisWrongTypeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The native client's conditional adds, lexicographic and bounded ranges, several-member reads and several-key set,
 * list and hash operations against one real three-node cluster keeping two copies (each test on keys of its own):
 * answered as the RESP commands are, refused with typed errors.
 */
@Tag("in-process-cluster")
class ClientCollectionCommandsIntegrationTests extends AgainstThreeNodeCluster {

    @Test
    void sortedSetsAddUnderConditionsAndAnswerLexAndBoundedRanges() {
        String key = "zs:board";
        assertThat(client.sortedSetAdd(key, scores("a", 1, "b", 2, "c", 3), SortedSetAddOptions.NONE).join()).isEqualTo(3);
        SortedSetAddOptions onlyNew = SortedSetAddOptions.builder().onlyNew().build();
        assertThat(client.sortedSetAdd(key, scores("a", 10, "d", 4), onlyNew).join()).as("NX: d only").isEqualTo(1);
        assertThat(client.sortedSetScore(key, "a").join()).isEqualTo(1.0);
        SortedSetAddOptions existingChanged = SortedSetAddOptions.builder().onlyExisting().countChanged().build();
        assertThat(client.sortedSetAdd(key, scores("a", 1, "b", 20, "z", 9), existingChanged).join())
                .as("XX CH: b changed, a unchanged, z not added").isEqualTo(1);
        SortedSetAddOptions higher = SortedSetAddOptions.builder().onlyHigher().countChanged().build();
        assertThat(client.sortedSetAdd(key, scores("b", 5, "c", 30, "e", 5), higher).join())
                .as("GT CH: c raised, e added, b kept").isEqualTo(2);
        assertThat(client.sortedSetScores(key, "a", "nobody", "b", "c", "e").join()).containsExactly(
                Map.entry("a", 1.0), Map.entry("b", 20.0), Map.entry("c", 30.0), Map.entry("e", 5.0));
        assertThat(client.sortedSetScores("zs:absent", "a").join()).isEmpty();
        SortedSetAddOptions lower = SortedSetAddOptions.builder().onlyLower().build();
        assertThat(client.sortedSetIncrement(key, "a", 1, lower).join()).as("LT keeps a raise").isNull();
        assertThat(client.sortedSetIncrement(key, "a", -0.5, lower).join()).isEqualTo(0.5);
        assertThat(client.sortedSetIncrement(key, "new", 7, SortedSetAddOptions.builder().onlyExisting().build()).join())
                .isNull();
        assertThat(client.sortedSetIncrement(key, "f", 7, SortedSetAddOptions.NONE).join()).isEqualTo(7.0);
        // a 0.5, d 4, e 5, f 7, b 20, c 30

        assertThat(client.sortedSetRangeByScore(key, ScoreBound.exclusive(0.5), ScoreBound.exclusive(20), RangeLimit.ALL)
                .join()).extracting(ScoredMember::member).containsExactly("d", "e", "f");
        assertThat(client.sortedSetRangeByScore(key, ScoreBound.unbounded(), ScoreBound.unbounded(), RangeLimit.of(1, 2))
                .join()).containsExactly(new ScoredMember("d", 4.0), new ScoredMember("e", 5.0));
        assertThat(client.sortedSetReverseRangeByScore(key, ScoreBound.inclusive(4), ScoreBound.unbounded(),
                RangeLimit.of(1, RangeLimit.NO_COUNT)).join()).extracting(ScoredMember::member)
                .containsExactly("b", "f", "e", "d");
        assertThat(client.sortedSetCount(key, ScoreBound.exclusive(4), ScoreBound.inclusive(20)).join()).isEqualTo(3);
        assertThat(client.sortedSetRemoveRangeByScore(key, ScoreBound.exclusive(20), ScoreBound.unbounded()).join())
                .isEqualTo(1);
        assertThat(client.sortedSetRemoveRangeByRank(key, 0, 1).join()).as("a and d").isEqualTo(2);
        assertThat(client.sortedSetRange(key, 0, -1).join()).extracting(ScoredMember::member).containsExactly("e", "f", "b");

        String names = "zs:names";
        client.sortedSetAdd(names, scores("alpha", 0, "bravo", 0, "charlie", 0, "delta", 0, "echo", 0)).join();
        assertThat(client.sortedSetRangeByLex(names, LexBound.inclusive("bravo"), LexBound.exclusive("echo"),
                RangeLimit.ALL).join()).containsExactly("bravo", "charlie", "delta");
        assertThat(client.sortedSetRangeByLex(names, LexBound.unbounded(), LexBound.unbounded(), RangeLimit.of(1, 2))
                .join()).containsExactly("bravo", "charlie");
        assertThat(client.sortedSetReverseRangeByLex(names, LexBound.exclusive("alpha"), LexBound.inclusive("delta"),
                RangeLimit.ALL).join()).containsExactly("delta", "charlie", "bravo");
        assertThat(client.sortedSetLexCount(names, LexBound.exclusive("b"), LexBound.unbounded()).join()).isEqualTo(4);
        assertThat(client.sortedSetRemoveRangeByLex(names, LexBound.unbounded(), LexBound.exclusive("c")).join()).isEqualTo(2);
        assertThat(client.sortedSetRangeByLex(names, LexBound.unbounded(), LexBound.unbounded(), RangeLimit.ALL).join())
                .containsExactly("charlie", "delta", "echo");
        assertThat(client.sortedSetRangeByLex("zs:absent", LexBound.unbounded(), LexBound.unbounded(), RangeLimit.ALL)
                .join()).isEmpty();

        client.put("zs:plain", bytes("v")).join();
        List<CompletableFuture<?>> wrongType = List.of(
                client.sortedSetAdd("zs:plain", scores("a", 1), onlyNew),
                client.sortedSetIncrement("zs:plain", "a", 1, lower),
                client.sortedSetScores("zs:plain", "a"),
                client.sortedSetRangeByLex("zs:plain", LexBound.unbounded(), LexBound.unbounded(), RangeLimit.ALL),
                client.sortedSetLexCount("zs:plain", LexBound.unbounded(), LexBound.unbounded()),
                client.sortedSetRemoveRangeByLex("zs:plain", LexBound.unbounded(), LexBound.unbounded()),
                client.sortedSetRemoveRangeByRank("zs:plain", 0, -1),
                client.sortedSetCount("zs:plain", ScoreBound.unbounded(), ScoreBound.unbounded()));
        for (CompletableFuture<?> operation : wrongType) {
            assertThatThrownBy(operation::join).cause().isInstanceOf(ZarisWrongTypeException.class);
        }
        client.sortedSetIncrement(key, "inf", Double.POSITIVE_INFINITY, SortedSetAddOptions.NONE).join();
        assertThatThrownBy(() -> client.sortedSetIncrement(key, "inf", Double.NEGATIVE_INFINITY, SortedSetAddOptions.NONE)
                .join()).as("a sum that is not a number, as ZINCRBY's").cause().isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.BAD_REQUEST));
    }

    @Test
    void setsAnswerSeveralMembersMoveBetweenKeysOfOneTagAndCountAnIntersection() {
        client.setAdd("{s}a", "x", "y", "z").join();
        client.setAdd("{s}b", "y", "z", "w").join();
        client.setAdd("{s}c", "z", "y", "v").join();
        assertThat(client.setContainsMany("{s}a", "x", "w", "z", "x").join()).containsExactly(true, false, true, true);
        assertThat(client.setContainsMany("{s}absent", "x", "y").join()).containsExactly(false, false);

        assertThat(client.setIntersectionSize("{s}a", "{s}b", "{s}c").join()).isEqualTo(2);
        assertThat(client.setIntersectionSize(1, "{s}a", "{s}b", "{s}c").join()).isEqualTo(1);
        assertThat(client.setIntersectionSize(0, "{s}a", "{s}b").join()).as("0: no limit").isEqualTo(2);
        assertThat(client.setIntersectionSize("{s}a", "{s}absent").join()).isZero();

        assertThat(client.setMove("{s}a", "{s}new", "x").join()).isTrue();
        assertThat(client.setMove("{s}a", "{s}new", "x").join()).as("no longer in the source").isFalse();
        assertThat(client.setMove("{s}absent", "{s}new", "x").join()).isFalse();
        assertThat(client.setMembers("{s}new").join()).containsExactly("x");
        assertThat(client.setMembers("{s}a").join()).containsExactlyInAnyOrder("y", "z");
        assertThat(client.setMove("{s}a", "{s}a", "y").join()).as("to itself: whether it is there").isTrue();
        client.setMove("{s}a", "{s}b", "y").join();
        client.setMove("{s}a", "{s}b", "z").join();
        assertThat(client.get("{s}a").join()).as("the source went with its last member").isEmpty();

        client.put("{s}plain", bytes("v")).join();
        List<CompletableFuture<?>> wrongType = List.of(client.setContainsMany("{s}plain", "x"),
                client.setMove("{s}b", "{s}plain", "w"), client.setMove("{s}plain", "{s}b", "w"),
                client.setIntersectionSize("{s}b", "{s}plain"));
        for (CompletableFuture<?> operation : wrongType) {
            assertThatThrownBy(operation::join).cause().isInstanceOf(ZarisWrongTypeException.class);
        }
        assertThat(client.setMembers("{s}b").join()).as("a refused move changed nothing").contains("w");
    }

    @Test
    void listsPushIfPresentInsertFindAndWaitOnSeveralKeys() {
        assertThat(client.listPushIfExists("{l}q", ListEnd.TAIL, bytes("x")).join()).as("absent: nothing pushed").isZero();
        assertThat(client.get("{l}q").join()).isEmpty();
        client.listPush("{l}q", ListEnd.TAIL, bytes("a"), bytes("b"), bytes("a"), bytes("c"), bytes("a")).join();
        assertThat(client.listPushIfExists("{l}q", ListEnd.HEAD, bytes("h1"), bytes("h2")).join()).isEqualTo(7);
        assertThat(client.listPushIfExists("{l}q", ListEnd.TAIL, bytes("t")).join()).isEqualTo(8);
        // h2 h1 a b a c a t
        assertThat(client.listInsert("{l}q", InsertPosition.BEFORE, bytes("b"), bytes("B")).join()).isEqualTo(9);
        assertThat(client.listInsert("{l}q", InsertPosition.AFTER, bytes("c"), bytes("C")).join()).isEqualTo(10);
        assertThat(client.listInsert("{l}q", InsertPosition.AFTER, bytes("nope"), bytes("x")).join()).isEqualTo(-1);
        assertThat(client.listInsert("{l}absent", InsertPosition.AFTER, bytes("a"), bytes("x")).join()).isZero();
        assertThat(texts(client.listRange("{l}q", 0, -1).join()))
                .containsExactly("h2", "h1", "a", "B", "b", "a", "c", "C", "a", "t");

        assertThat(client.listPosition("{l}q", bytes("a")).join()).isEqualTo(2);
        assertThat(client.listPosition("{l}q", bytes("nope")).join()).isNull();
        assertThat(client.listPosition("{l}absent", bytes("a")).join()).isNull();
        assertThat(client.listPosition("{l}q", bytes("a"), ListPositionOptions.builder().rank(-1).build()).join())
                .isEqualTo(8);
        assertThat(client.listPosition("{l}q", bytes("a"), ListPositionOptions.builder().rank(2).build()).join())
                .isEqualTo(5);
        assertThat(client.listPositions("{l}q", bytes("a"), 0, ListPositionOptions.DEFAULT).join()).containsExactly(2L, 5L, 8L);
        assertThat(client.listPositions("{l}q", bytes("a"), 2, ListPositionOptions.builder().rank(-1).build()).join())
                .containsExactly(8L, 5L);
        assertThat(client.listPositions("{l}q", bytes("a"), 0, ListPositionOptions.builder().maxLength(6).build()).join())
                .containsExactly(2L, 5L);

        client.listPush("{l}second", ListEnd.TAIL, bytes("s1"), bytes("s2")).join();
        PoppedElement popped = client.listBlockingPop(List.of("{l}empty", "{l}second", "{l}q"), ListEnd.TAIL,
                Duration.ofSeconds(5)).join();
        assertThat(popped.key()).as("the first key holding a list").isEqualTo("{l}second");
        assertThat(text(popped.element())).isEqualTo("s2");
        assertThat(client.listBlockingPop(List.of("{l}empty", "{l}none"), ListEnd.HEAD, Duration.ofMillis(300)).join())
                .as("the timeout passed with nothing to pop").isNull();
        CompletableFuture<PoppedElement> waiting = client.listBlockingPop(List.of("{l}w1", "{l}w2"), ListEnd.HEAD,
                Duration.ofSeconds(30));
        client.listPush("{l}w2", ListEnd.TAIL, bytes("late")).join();
        assertThat(waiting.join()).satisfies(found -> {
            assertThat(found.key()).isEqualTo("{l}w2");
            assertThat(text(found.element())).isEqualTo("late");
        });

        assertThat(text(client.listBlockingMove("{l}q", "{l}done", ListEnd.TAIL, ListEnd.HEAD, Duration.ofSeconds(5))
                .join())).isEqualTo("t");
        assertThat(client.listBlockingMove("{l}empty", "{l}done", ListEnd.HEAD, ListEnd.HEAD, Duration.ofMillis(300))
                .join()).isNull();
        CompletableFuture<byte[]> moving = client.listBlockingMove("{l}src", "{l}done", ListEnd.HEAD, ListEnd.TAIL,
                Duration.ofSeconds(30));
        client.listPush("{l}src", ListEnd.TAIL, bytes("m")).join();
        assertThat(text(moving.join())).isEqualTo("m");
        assertThat(texts(client.listRange("{l}done", 0, -1).join())).containsExactly("t", "m");

        client.put("{l}plain", bytes("v")).join();
        List<CompletableFuture<?>> wrongType = List.of(client.listPushIfExists("{l}plain", ListEnd.HEAD, bytes("x")),
                client.listInsert("{l}plain", InsertPosition.BEFORE, bytes("a"), bytes("b")),
                client.listPosition("{l}plain", bytes("a")),
                client.listBlockingPop(List.of("{l}empty", "{l}plain"), ListEnd.HEAD, Duration.ofSeconds(1)),
                client.listBlockingMove("{l}plain", "{l}done", ListEnd.HEAD, ListEnd.HEAD, Duration.ofSeconds(1)));
        for (CompletableFuture<?> operation : wrongType) {
            assertThatThrownBy(operation::join).cause().isInstanceOf(ZarisWrongTypeException.class);
        }
    }

    @Test
    void hashesSetIfAbsentListValuesMeasureAValueAndIncrementByAFraction() {
        assertThat(client.hashSetIfAbsent("h:user", "name", bytes("ada")).join()).as("creates the hash").isTrue();
        assertThat(client.hashSetIfAbsent("h:user", "name", bytes("alan")).join()).isFalse();
        assertThat(text(client.hashGet("h:user", "name").join())).isEqualTo("ada");
        client.hashSet("h:user", Map.of("city", bytes("London"))).join();
        assertThat(texts(client.hashValues("h:user").join())).containsExactly("ada", "London");
        assertThat(client.hashValues("h:absent").join()).isEmpty();
        assertThat(client.hashValueLength("h:user", "city").join()).isEqualTo(6);
        assertThat(client.hashValueLength("h:user", "nope").join()).isZero();
        assertThat(client.hashValueLength("h:absent", "city").join()).isZero();

        assertThat(client.hashIncrementFloat("h:user", "balance", 10.5).join()).isEqualTo(10.5);
        assertThat(client.hashIncrementFloat("h:user", "balance", 0.1).join()).isEqualTo(10.6);
        assertThat(text(client.hashGet("h:user", "balance").join())).as("Redis's text of the sum").isEqualTo("10.6");
        assertThat(client.hashIncrementFloat("h:user", "balance", -1e-3).join()).isEqualTo(10.599);
        assertThat(client.hashIncrementFloat("h:user", "big", 5e20).join()).isEqualTo(5e20);
        assertThatThrownBy(() -> client.hashIncrementFloat("h:user", "name", 1).join()).as("not a number")
                .cause().isInstanceOf(ZarisWrongTypeException.class);

        client.put("h:plain", bytes("v")).join();
        List<CompletableFuture<?>> wrongType = List.of(client.hashSetIfAbsent("h:plain", "f", bytes("v")),
                client.hashValues("h:plain"), client.hashValueLength("h:plain", "f"),
                client.hashIncrementFloat("h:plain", "f", 1));
        for (CompletableFuture<?> operation : wrongType) {
            assertThatThrownBy(operation::join).cause().isInstanceOf(ZarisWrongTypeException.class);
        }
    }

    private static List<String> texts(List<byte[]> items) {
        return items.stream().map(ClientCollectionCommandsIntegrationTests::text).toList();
    }

    @Test
    void sortedSetBlockingPopsTakeFromTheFirstKeyHoldingASortedSetOrWait() {
        client.sortedSetAdd("{bz}b", scores("low", 1, "high", 9)).join();
        PoppedMember lowest = client.sortedSetBlockingPopMin(List.of("{bz}a", "{bz}b"), Duration.ofSeconds(5)).join();
        assertThat(lowest).isEqualTo(new PoppedMember("{bz}b", new ScoredMember("low", 1.0)));
        assertThat(client.sortedSetBlockingPopMax(List.of("{bz}b"), Duration.ofSeconds(5)).join())
                .isEqualTo(new PoppedMember("{bz}b", new ScoredMember("high", 9.0)));
        assertThat(client.get("{bz}b").join()).as("the sorted set left with its last member").isEmpty();
        assertThat(client.sortedSetBlockingPopMin(List.of("{bz}a", "{bz}b"), Duration.ofMillis(300)).join()).isNull();

        CompletableFuture<PoppedMember> waiting = client.sortedSetBlockingPopMax(List.of("{bz}a", "{bz}b"),
                Duration.ofSeconds(30));
        client.sortedSetAdd("{bz}b", scores("x", 3, "y", 4)).join();
        assertThat(waiting.join()).isEqualTo(new PoppedMember("{bz}b", new ScoredMember("y", 4.0)));

        client.put("{bz}plain", bytes("v")).join();
        assertThatThrownBy(() -> client.sortedSetBlockingPopMin(List.of("{bz}plain"), Duration.ofSeconds(1)).join())
                .cause().isInstanceOf(ZarisWrongTypeException.class);
    }

    private static Map<String, Double> scores(Object... memberScorePairs) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < memberScorePairs.length; i += 2) {
            out.put((String) memberScorePairs[i], ((Number) memberScorePairs[i + 1]).doubleValue());
        }
        return out;
    }

    static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
