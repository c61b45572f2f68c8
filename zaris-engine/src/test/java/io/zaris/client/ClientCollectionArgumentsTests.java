package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.transport.ZarisException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The collection operations' argument checks: a bad count, a NaN score, a missing end or timeout, no keys, or keys of
 * different segments are refused with a typed exception before anything is sent (the stub node records no request);
 * and a blocking pop's wait ends when the client closes.
 */
@Tag("unit")
class ClientCollectionArgumentsTests extends AgainstStubNode {

    @Test
    void badCountsAreRefused() {
        assertThatThrownBy(() -> client.setPop("s", -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("setPop takes a count of 0 or more, not -1");
        assertThatThrownBy(() -> client.sortedSetPopMin("z", -2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetPopMin");
        assertThatThrownBy(() -> client.sortedSetPopMax("z", -2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetPopMax");
        assertThat(node.received()).isEmpty();
    }

    @Test
    void nanScoresAreRefused() {
        assertThatThrownBy(() -> client.sortedSetCount("z", Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetCount takes no NaN score");
        assertThatThrownBy(() -> client.sortedSetRemoveRangeByScore("z", 0, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThatThrownBy(() -> client.sortedSetReverseRangeByScore("z", Double.NaN, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThat(node.received()).isEmpty();
    }

    @Test
    void missingFieldsEndsElementsAndTimeoutsAreRefused() {
        assertThatThrownBy(() -> client.hashGetMany("h")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hashGetMany needs at least one member");
        assertThatThrownBy(() -> client.listSet("l", 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.listRemove("l", 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.listMove("{q}a", "{q}b", null, ListEnd.HEAD)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> client.listBlockingPop("l", null, Duration.ofSeconds(1))).isInstanceOf(NullPointerException.class);
        for (Duration timeout : new Duration[] {null, Duration.ZERO, Duration.ofMillis(-1)}) {
            assertThatThrownBy(() -> client.listBlockingPop("l", ListEnd.HEAD, timeout))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive timeout");
        }
        assertThatThrownBy(() -> client.setIntersection()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one key");
        assertThatThrownBy(() -> client.setUnionStore("{t}d")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one key");
        assertThat(node.received()).isEmpty();
    }

    @Test
    void keysOfDifferentSegmentsAreRefusedByType() {
        String other = StubNodeClient.keyOfAnotherSegmentThan("a");
        assertThatThrownBy(() -> client.listMove("a", other, ListEnd.HEAD, ListEnd.TAIL))
                .isInstanceOf(CrossSegmentKeysException.class).hasMessageContaining("common {hash tag}");
        assertThatThrownBy(() -> client.setIntersection("a", other)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.setUnion("a", other)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.setDifference("a", other)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.setDifferenceStore(other, "a")).as("the destination shares the segment too")
                .isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.getAll(List.of("a", other))).as("the older multi-key operations say so the same way")
                .isInstanceOf(CrossSegmentKeysException.class);
        assertThat(node.received()).isEmpty();
    }

    @Test
    void sortedSetOptionsBoundsAndLimitsAreRequired() {
        assertThatThrownBy(() -> client.sortedSetAdd("z", Map.of("m", 1.0), null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("SortedSetAddOptions.NONE");
        assertThatThrownBy(() -> client.sortedSetAdd("z", Map.of(), SortedSetAddOptions.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one member");
        assertThatThrownBy(() -> client.sortedSetIncrement("z", "m", Double.NaN, SortedSetAddOptions.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThatThrownBy(() -> client.sortedSetRangeByScore("z", ScoreBound.unbounded(), ScoreBound.unbounded(), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("RangeLimit.ALL");
        assertThatThrownBy(() -> client.sortedSetRangeByLex("z", null, LexBound.unbounded(), RangeLimit.ALL))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("LexBound.unbounded()");
        assertThatThrownBy(() -> client.sortedSetCount("z", ScoreBound.unbounded(), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("ScoreBound.unbounded()");
        assertThatThrownBy(() -> client.sortedSetScores("z")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetScores needs at least one member");
        assertThat(node.received()).isEmpty();
    }

    @Test
    void setArgumentsAreChecked() {
        String other = StubNodeClient.keyOfAnotherSegmentThan("a");
        assertThatThrownBy(() -> client.setMove("a", other, "m")).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.setIntersectionSize("a", other)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.setIntersectionSize(5, "a", other)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.setIntersectionSize(-1, "{t}a", "{t}b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit of 0 (none) or more, not -1");
        assertThatThrownBy(() -> client.setIntersectionSize()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one key");
        assertThatThrownBy(() -> client.setContainsMany("s")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("setContainsMany needs at least one member");
        assertThat(node.received()).isEmpty();
    }

    @Test
    void listArgumentsAreChecked() {
        String other = StubNodeClient.keyOfAnotherSegmentThan("a");
        assertThatThrownBy(() -> client.listPushIfExists("l", ListEnd.HEAD)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listPushIfExists needs at least one element");
        assertThatThrownBy(() -> client.listPushIfExists("l", null, new byte[1])).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> client.listPushIfExists("l", ListEnd.TAIL, new byte[1], null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.listInsert("l", null, new byte[1], new byte[1])).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> client.listInsert("l", InsertPosition.AFTER, null, new byte[1]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.listPositions("l", new byte[1], -1, ListPositionOptions.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count of 0 (every match) or more");
        assertThatThrownBy(() -> client.listPosition("l", new byte[1], null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("ListPositionOptions.DEFAULT");
        assertThatThrownBy(() -> ListPositionOptions.builder().rank(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-zero");
        assertThatThrownBy(() -> ListPositionOptions.builder().rank(Long.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ListPositionOptions.builder().maxLength(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxLength is 0 (the whole list) or more");
        assertThat(ListPositionOptions.builder().rank(-2).maxLength(10).build())
                .satisfies(options -> assertThat(options.rank()).isEqualTo(-2))
                .satisfies(options -> assertThat(options.maxLength()).isEqualTo(10));

        assertThatThrownBy(() -> client.listBlockingPop(List.of("a", other), ListEnd.HEAD, Duration.ofSeconds(1)))
                .isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.listBlockingPop(List.of(), ListEnd.HEAD, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one key");
        assertThatThrownBy(() -> client.listBlockingPop(List.of("{q}a", "{q}b"), ListEnd.HEAD, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listBlockingPop takes a positive timeout");
        assertThatThrownBy(() -> client.listBlockingMove("a", other, ListEnd.HEAD, ListEnd.TAIL, Duration.ofSeconds(1)))
                .isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.listBlockingMove("{q}a", "{q}b", ListEnd.HEAD, null, Duration.ofSeconds(1)))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> client.listBlockingMove("{q}a", "{q}b", ListEnd.HEAD, ListEnd.TAIL, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listBlockingMove takes a positive timeout");
        assertThatThrownBy(() -> client.sortedSetBlockingPopMin(List.of("a", other), Duration.ofSeconds(1)))
                .isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.sortedSetBlockingPopMax(List.of("{q}a"), Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetBlockingPopMax takes a positive timeout");
        assertThat(node.received()).isEmpty();
    }

    /**
     * A blocking pop over several keys that finds every list empty only reads: each look asks every key's length and
     * sends no pop (a pop is a write that is not repeated once sent, so it goes only where there is an element).
     */
    @Test
    void aBlockingPopOverSeveralKeysOnlyReadsLengthsWhileTheyAreEmpty() {
        node.fallback((request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            ResponseCodec.writeHashAnswer(out, 0, List.of());
            return true;
        });
        CompletableFuture<PoppedElement> waiting = client.listBlockingPop(List.of("{q}a", "{q}b"), ListEnd.HEAD,
                Duration.ofHours(1));
        CompletableFuture<byte[]> moving = client.listBlockingMove("{q}c", "{q}d", ListEnd.HEAD, ListEnd.TAIL,
                Duration.ofHours(1));
        await().atMost(Duration.ofSeconds(30)).until(() -> node.received().size() >= 9);
        assertThat(node.received()).allSatisfy(received ->
                assertThat(((Request.Hash) received.request()).hashOp()).isEqualTo(HashOp.LLEN));
        assertThat(waiting).isNotDone();
        assertThat(moving).isNotDone();
        client.close();
        assertThatThrownBy(() -> waiting.get(30, TimeUnit.SECONDS)).cause().hasMessageContaining("client is closed");
        assertThatThrownBy(() -> moving.get(30, TimeUnit.SECONDS)).cause().hasMessageContaining("client is closed");
    }

    @Test
    void hashArgumentsAreChecked() {
        assertThatThrownBy(() -> client.hashSetIfAbsent("h", "f", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.hashSetIfAbsent("h", null, new byte[1])).isInstanceOf(IllegalArgumentException.class);
        for (double delta : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> client.hashIncrementFloat("h", "f", delta)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("hashIncrementFloat takes a finite delta");
        }
        assertThatThrownBy(() -> client.hashValueLength("h", null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(node.received()).isEmpty();
    }

    /**
     * A blocking pop waiting between two looks holds no thread, only a timer task; closing the client ends the wait
     * with "client is closed" instead of leaving its future pending for ever.
     */
    @Test
    void aBlockingPopStillWaitingFailsWhenTheClientCloses() {
        node.fallback((request, out) -> { // every look finds the list empty
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            ResponseCodec.writeHashAnswer(out, 0, List.of());
            return true;
        });
        CompletableFuture<byte[]> waiting = client.listBlockingPop("jobs", ListEnd.HEAD, Duration.ofHours(1));
        await().atMost(Duration.ofSeconds(30)).until(() -> node.received().size() >= 3);
        assertThat(node.received()).allSatisfy(received ->
                assertThat(((Request.Hash) received.request()).hashOp()).isEqualTo(HashOp.LLEN));

        client.close();

        assertThatThrownBy(() -> waiting.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ZarisException.class).hasMessageContaining("client is closed");
    }

}
