package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.transport.ZarisWrongTypeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The blocking view's hash, list, set and sorted-set operations against a real three-node cluster keeping two copies:
 * each answers what the asynchronous operation answers (a primitive where the answer is never absent, also on a
 * missing key), throws the operation's failure unwrapped, and a blocking pop holds the caller until an element comes.
 */
@Tag("in-process-cluster")
class BlockingCollectionViewIntegrationTests extends AgainstThreeNodeCluster {

    @Test
    void collectionOperationsAnswerOnMissingAndPresentKeys() {
        BlockingZarisClient sync = client.sync();

        // hashes
        assertThat(sync.hashSize("h")).isZero();
        assertThat(sync.hashContains("h", "f")).isFalse();
        assertThat(sync.hashValueLength("h", "f")).isZero();
        assertThat(sync.hashGet("h", "f")).isNull();
        assertThat(sync.hashDelete("h", "f")).isZero();
        assertThat(sync.hashSet("h", Map.of("f", bytes("v1")))).isEqualTo(1);
        assertThat(sync.hashSetIfAbsent("h", "f", bytes("v2"))).isFalse();
        assertThat(text(sync.hashGet("h", "f"))).isEqualTo("v1");
        assertThat(sync.hashIncrement("h", "n", 5)).isEqualTo(5);
        assertThat(sync.hashIncrementFloat("h", "x", 1.5)).isEqualTo(1.5);
        assertThat(sync.hashFields("h")).containsExactlyInAnyOrder("f", "n", "x");
        assertThat(sync.hashValueLength("h", "f")).isEqualTo(2);

        // lists
        assertThat(sync.listLength("l")).isZero();
        assertThat(sync.listPushIfExists("l", ListEnd.TAIL, bytes("a"))).isZero();
        assertThat(sync.listInsert("l", InsertPosition.BEFORE, bytes("a"), bytes("b"))).isZero();
        assertThat(sync.listRemove("l", 0, bytes("a"))).isZero();
        assertThat(sync.listPosition("l", bytes("a"))).isNull();
        assertThat(sync.listPush("l", ListEnd.TAIL, bytes("a"), bytes("b"), bytes("c"))).isEqualTo(3);
        sync.listSet("l", 0, bytes("A"));
        sync.listTrim("l", 0, 1);
        assertThat(sync.listRange("l", 0, -1)).extracting(BlockingCollectionViewIntegrationTests::text)
                .containsExactly("A", "b");
        assertThat(sync.listPosition("l", bytes("b"))).isEqualTo(1L);

        // sets
        assertThat(sync.setSize("s")).isZero();
        assertThat(sync.setContains("s", "m")).isFalse();
        assertThat(sync.setRemove("s", "m")).isZero();
        assertThat(sync.setMove("{t}s", "{t}d", "m")).isFalse();
        assertThat(sync.setIntersectionSize("{t}s", "{t}d")).isZero();
        assertThat(sync.setUnionStore("{t}u", "{t}s", "{t}d")).isZero();
        assertThat(sync.setAdd("{t}s", "m", "n")).isEqualTo(2);
        assertThat(sync.setMove("{t}s", "{t}d", "m")).isTrue();
        assertThat(sync.setMembers("{t}d")).containsExactly("m");

        // sorted sets
        assertThat(sync.sortedSetSize("z")).isZero();
        assertThat(sync.sortedSetScore("z", "a")).isNull();
        assertThat(sync.sortedSetRank("z", "a", false)).isNull();
        assertThat(sync.sortedSetCount("z", 0, 10)).isZero();
        assertThat(sync.sortedSetLexCount("z", LexBound.unbounded(), LexBound.unbounded())).isZero();
        assertThat(sync.sortedSetRemoveRangeByRank("z", 0, -1)).isZero();
        assertThat(sync.sortedSetAdd("z", Map.of("a", 1.0, "b", 2.0))).isEqualTo(2);
        assertThat(sync.sortedSetIncrement("z", "a", 2)).isEqualTo(3.0);
        assertThat(sync.sortedSetIncrement("z", "c", 1, SortedSetAddOptions.builder().onlyExisting().build()))
                .as("XX kept the absent member out").isNull();
        assertThat(sync.sortedSetRange("z", 0, -1)).extracting(ScoredMember::member).containsExactly("b", "a");
        assertThat(sync.sortedSetRank("z", "a", true)).isZero();
    }

    @Test
    void failuresAreThrownUnwrapped() {
        BlockingZarisClient sync = client.sync();
        sync.put("plain", bytes("text"));

        assertThatThrownBy(() -> sync.hashGet("plain", "f")).isInstanceOf(ZarisWrongTypeException.class);
        assertThatThrownBy(() -> sync.listLength("plain")).isInstanceOf(ZarisWrongTypeException.class);
        assertThatThrownBy(() -> sync.setAdd("plain", "m")).isInstanceOf(ZarisWrongTypeException.class);
        assertThatThrownBy(() -> sync.sortedSetSize("plain")).isInstanceOf(ZarisWrongTypeException.class);
        assertThatThrownBy(() -> sync.setMove("{a}s", "{b}d", "m")).isInstanceOf(CrossSegmentKeysException.class);
    }

    @Test
    void blockingPopHoldsTheCallerUntilAnElementComes() throws Exception {
        try (ZarisClient producer = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                .environment(Map.of()).build())) {
            ZarisClient consumer = client;
            assertThat(consumer.sync().listBlockingPop("jobs", ListEnd.HEAD, Duration.ofMillis(200)))
                    .as("nothing came within the timeout").isNull();

            CompletableFuture<byte[]> taken = CompletableFuture.supplyAsync(
                    () -> consumer.sync().listBlockingPop("jobs", ListEnd.HEAD, Duration.ofSeconds(60)));
            producer.sync().listPush("jobs", ListEnd.TAIL, bytes("job-1"));
            assertThat(text(taken.get(60, TimeUnit.SECONDS))).isEqualTo("job-1");

            producer.sync().sortedSetAdd("{t}timers", Map.of("due", 1.0));
            PoppedMember popped = consumer.sync().sortedSetBlockingPopMin(List.of("{t}empty", "{t}timers"),
                    Duration.ofSeconds(60));
            assertThat(popped.key()).isEqualTo("{t}timers");
            assertThat(popped.member().member()).isEqualTo("due");
        }
    }

    private static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
