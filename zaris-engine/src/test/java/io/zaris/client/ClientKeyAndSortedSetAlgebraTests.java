package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.DumpPayload;
import io.zaris.model.HashOp;
import io.zaris.model.KeyContent;
import io.zaris.model.KvStatus;
import io.zaris.model.SortedSetScores;
import io.zaris.protocol.Request;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * TYPE, EXISTS, RENAME and the sorted-set algebra (ZUNION/ZINTER/ZDIFF, their STORE forms, ZINTERCARD, ZRANGESTORE) of
 * the native client against a stub node: bad arguments refused with typed exceptions before anything is sent, the
 * requests they send, how their answers read, and which of them the one retry brain repeats after an unacknowledged
 * write.
 */
@Tag("unit")
class ClientKeyAndSortedSetAlgebraTests extends AgainstStubNode {

    @Test
    void algebraArgumentsAreCheckedBeforeSending() {
        String other = StubNodeClient.keyOfAnotherSegmentThan("a");
        assertThatThrownBy(() -> client.sortedSetUnion()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetUnion needs at least one key");
        assertThatThrownBy(() -> client.sortedSetDifferenceStore("{t}d")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetDifferenceStore needs at least one key");
        assertThatThrownBy(() -> client.sortedSetIntersection("a", other)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.sortedSetUnionStore(other, "a")).as("the destination shares the keys' segment")
                .isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.sortedSetIntersectionSize("a", other)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.sortedSetIntersectionSize(-1, "{t}a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit of 0 (none) or more, not -1");
        assertThatThrownBy(() -> client.sortedSetRangeStore(other, "a", 0, -1)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.sortedSetRangeByScoreStore("{t}d", "{t}s", ScoreBound.unbounded(),
                ScoreBound.unbounded(), null)).isInstanceOf(NullPointerException.class).hasMessageContaining("RangeLimit.ALL");
        assertThatThrownBy(() -> client.sortedSetRangeByLexStore("{t}d", "{t}s", null, LexBound.unbounded(),
                RangeLimit.ALL)).isInstanceOf(NullPointerException.class).hasMessageContaining("LexBound.unbounded()");
        assertThatThrownBy(() -> client.sortedSetUnion((SortedSetCombineOptions) null, "{t}a")).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("SortedSetCombineOptions.NONE");
        SortedSetCombineOptions two = SortedSetCombineOptions.builder().weights(2, 3).build();
        assertThatThrownBy(() -> client.sortedSetIntersectionStore("{t}d", two, "{t}a", "{t}b", "{t}c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetIntersectionStore takes one weight per key: 2 weights for 3 keys");
        assertThat(node.received()).isEmpty();
    }

    @Test
    void combineOptionsRefuseWhatRedisRefuses() {
        assertThatThrownBy(() -> SortedSetCombineOptions.builder().weights(1, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThatThrownBy(() -> SortedSetCombineOptions.builder().weights()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not none");
        assertThatThrownBy(() -> SortedSetCombineOptions.builder().aggregate(null))
                .isInstanceOf(IllegalArgumentException.class);
        double[] given = {1, 2};
        SortedSetCombineOptions options = SortedSetCombineOptions.builder().weights(given).build();
        given[0] = 7;
        assertThat(options.weights()).as("a copy is kept").containsExactly(1, 2);
        assertThat(SortedSetCombineOptions.NONE.aggregate()).isEqualTo(ScoreAggregate.SUM);
        assertThat(SortedSetCombineOptions.NONE.weights()).isEmpty();
    }

    @Test
    void renameArgumentsAreChecked() {
        String other = StubNodeClient.keyOfAnotherSegmentThan("a");
        assertThatThrownBy(() -> client.rename("a", other)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.renameIfAbsent(other, "a")).isInstanceOf(CrossSegmentKeysException.class);
        assertThat(node.received()).isEmpty();
    }

    @Test
    void aCombineSendsKindAggregateAndEachKeyWithItsWeightAndReadsScoredMembers() {
        node.fallback(StubNodeClient.answer(0, List.of(text("m"), SortedSetScores.formatBytes(4.5), text("n"),
                SortedSetScores.formatBytes(Double.POSITIVE_INFINITY))));
        SortedSetCombineOptions options = SortedSetCombineOptions.builder().weights(2, Double.POSITIVE_INFINITY)
                .aggregate(ScoreAggregate.MAX).build();

        assertThat(client.sortedSetUnion(options, "{t}a", "{t}b").join())
                .containsExactly(new ScoredMember("m", 4.5), new ScoredMember("n", Double.POSITIVE_INFINITY));
        assertThat(client.sortedSetIntersectionSize(1, "{t}a", "{t}b").join()).as("the limit caps the count").isEqualTo(1);
        assertThat(client.sortedSetIntersectionSize("{t}a", "{t}b").join()).isEqualTo(2);

        Request.Hash union = (Request.Hash) node.received().get(0).request();
        assertThat(union.hashOp()).isEqualTo(HashOp.ZCOMBINE);
        assertThat(texts(union.args())).containsExactly("UNION", "MAX", "{t}a", "2", "{t}b", "inf");
        Request.Hash card = (Request.Hash) node.received().get(1).request();
        assertThat(texts(card.args())).containsExactly("INTER", "SUM", "{t}a", "1", "{t}b", "1");
    }

    @Test
    void typeAndExistsReadTheKeysType() {
        node.script(StubNodeClient.answer(0, List.of(text("zset"))), StubNodeClient.answer(0, List.of(text("none"))), StubNodeClient.answer(0, List.of(text("list"))));

        assertThat(client.type("k").join()).contains(KeyType.SORTED_SET);
        assertThat(client.type("k").join()).isEqualTo(Optional.empty());
        assertThat(client.exists("k").join()).isTrue();
        assertThat(node.received()).extracting(received -> ((Request.Hash) received.request()).hashOp())
                .containsOnly(HashOp.TYPE);
    }

    @Test
    void renameOfAnAbsentKeyFailsAsNoSuchKey() {
        node.script(StubNodeClient.written(-1), StubNodeClient.written(0));

        assertThatThrownBy(() -> client.rename("{t}a", "{t}b").join()).cause()
                .isInstanceOfSatisfying(ZarisNoSuchKeyException.class, e -> assertThat(e.key()).isEqualTo("{t}a"))
                .hasMessageContaining("no such key '{t}a'");
        assertThat(client.renameIfAbsent("{t}a", "{t}b").join()).as("NX found the destination").isFalse();
        Request.Hash nx = (Request.Hash) node.received().get(1).request();
        assertThat(texts(nx.args())).containsExactly("{t}b", "1");
    }

    @Test
    void aRenameIsNotRepeatedAfterAnUnacknowledgedAnswer() {
        node.script(StubNode.status(KvStatus.UNACKNOWLEDGED));
        node.fallback(StubNodeClient.written(1));

        assertThatThrownBy(() -> client.rename("{t}a", "{t}b").join()).cause()
                .isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.UNACKNOWLEDGED));
        assertThat(stub.hashOps()).containsExactly(HashOp.RENAME);
    }

    @Test
    void aStoreIsRepeatedUnlessItsDestinationIsAmongItsKeys() {
        node.script(StubNode.status(KvStatus.UNACKNOWLEDGED));
        node.fallback(StubNodeClient.written(2));
        assertThat(client.sortedSetUnionStore("{t}d", "{t}a", "{t}b").join()).isEqualTo(2);
        assertThat(stub.hashOps()).containsExactly(HashOp.ZCOMBINESTORE, HashOp.ZCOMBINESTORE);

        node.script(StubNode.status(KvStatus.UNACKNOWLEDGED));
        assertThatThrownBy(() -> client.sortedSetIntersectionStore("{t}a", "{t}a", "{t}b").join()).as(
                "a repeat would intersect its own result again").cause().isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.UNACKNOWLEDGED));
        assertThat(stub.hashOps()).hasSize(3);
    }

    @Test
    void aRangeStoreReadsTheRangeThenReplacesTheDestination() throws Exception {
        node.script(StubNodeClient.answer(0, List.of(text("b"), SortedSetScores.formatBytes(2), text("c"), SortedSetScores.formatBytes(3))));
        node.fallback(StubNodeClient.written(1));

        assertThat(client.sortedSetReverseRangeByScoreStore("{t}d", "{t}s", ScoreBound.exclusive(1), ScoreBound.unbounded(),
                RangeLimit.of(0, 2)).join()).isEqualTo(2);

        Request.Hash read = (Request.Hash) node.received().get(0).request();
        assertThat(read.hashOp()).isEqualTo(HashOp.ZRANGE);
        assertThat(texts(read.args())).containsExactly("SCORE", "1", "(1", "+inf", "0", "2");
        Request.Hash store = (Request.Hash) node.received().get(1).request();
        assertThat(store.hashOp()).isEqualTo(HashOp.RESTORE);
        assertThat(new String(store.key(), StandardCharsets.UTF_8)).isEqualTo("{t}d");
        assertThat(texts(store.args().subList(0, 2))).as("REPLACE, no TTL").containsExactly("R", "0");
        KeyContent stored = DumpPayload.decode(store.args().get(2));
        assertThat(stored.type()).isEqualTo(KeyContent.Type.SORTED_SET);
        assertThat(stored.elements()).hasSize(4);
        assertThat(new String(stored.elements().get(0), StandardCharsets.UTF_8)).isEqualTo("b");
        assertThat(SortedSetScores.decode(stored.elements().get(3))).isEqualTo(3.0);
    }

    @Test
    void anEmptyRangeStoreDeletesTheDestination() {
        node.script(StubNodeClient.answer(0, List.of()), StubNode.written(4));

        assertThat(client.sortedSetRangeStore("{t}d", "{t}s", 5, 9).join()).isZero();
        assertThat(node.received().get(1).request()).isInstanceOfSatisfying(Request.Delete.class,
                delete -> assertThat(new String(delete.key(), StandardCharsets.UTF_8)).isEqualTo("{t}d"));
    }

    private static List<String> texts(List<byte[]> args) {
        return args.stream().map(arg -> new String(arg, StandardCharsets.UTF_8)).toList();
    }

    private static byte[] text(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

}
