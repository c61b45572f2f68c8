package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.KvStatus;
import io.zaris.model.VersionedValue;
import io.zaris.protocol.Request;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store's conditional multi-put behind MSETNX: all entries or none, decided in one step per segment. */
class MultiPutIfAbsentTests {

    private long now = 1_000_000;
    private final List<Change> shipped = Collections.synchronizedList(new ArrayList<>());
    private final NodeStore store = new NodeStore(2, () -> now, 256, 1 << 20, (segment, changes) -> {
        shipped.addAll(changes);
        return CompletableFuture.completedFuture(null);
    });

    @Test
    void writesEveryEntryWhenNoKeyExists() {
        MultiWriteResult result = store.multiPutIfAbsent(0, keys("a", "b"), values("1", "2"), Request.NO_TTL, 3);
        assertThat(result.status()).isEqualTo(KvStatus.OK);
        assertThat(result.versions()).containsExactly(1, 2);
        assertThat(text(store.get(0, key("a")))).isEqualTo("1");
        assertThat(text(store.get(0, key("b")))).isEqualTo("2");
    }

    @Test
    void writesNothingAndShipsNothingWhenAnyKeyExists() {
        store.put(0, key("b"), value("old"), Request.NO_TTL, false, Request.ANY_VERSION, 3);
        long revision = store.segmentRevision(0);
        int shippedBefore = shipped.size();
        MultiWriteResult result = store.multiPutIfAbsent(0, keys("a", "b", "c"), values("1", "2", "3"), Request.NO_TTL, 3);
        assertThat(result.status()).isEqualTo(KvStatus.CONFLICT);
        assertThat(result.versions()).isEmpty();
        assertThat(result.replicated()).isDone();
        assertThat(store.get(0, key("a"))).isNull();
        assertThat(store.get(0, key("c"))).isNull();
        assertThat(text(store.get(0, key("b")))).isEqualTo("old");
        assertThat(store.segmentRevision(0)).isEqualTo(revision);
        assertThat(shipped).hasSize(shippedBefore);
    }

    @Test
    void anExpiredKeyCountsAsAbsentAndItsTtlIsApplied() {
        store.put(0, key("a"), value("old"), 100, false, Request.ANY_VERSION, 3);
        now += 100;
        MultiWriteResult result = store.multiPutIfAbsent(0, keys("a", "b"), values("1", "2"), 5_000, 3);
        assertThat(result.status()).isEqualTo(KvStatus.OK);
        assertThat(text(store.get(0, key("a")))).isEqualTo("1");
        assertThat(store.get(0, key("b")).ttlRemainingMillis()).isEqualTo(5_000);
    }

    @Test
    void aReplicaApplyingTheShippedChangesHoldsTheSameEntries() {
        store.multiPutIfAbsent(0, keys("a", "b"), values("1", "2"), Request.NO_TTL, 4);
        store.multiPutIfAbsent(0, keys("b", "c"), values("x", "y"), Request.NO_TTL, 4);
        store.multiPutIfAbsent(0, keys("c", "d"), values("3", "4"), Request.NO_TTL, 4);
        assertThat(shipped).extracting(Change::epoch).containsOnly(4L);
        NodeStore replica = new NodeStore(2, () -> now);
        assertThat(replica.applyReplicated(0, List.copyOf(shipped))).isEqualTo(new ApplyResult(false, 4));
        for (String k : List.of("a", "b", "c", "d")) {
            assertThat(replica.get(0, key(k))).usingRecursiveComparison().isEqualTo(store.get(0, key(k)));
        }
        assertThat(text(replica.get(0, key("b")))).isEqualTo("2");
    }

    /**
     * Six threads, released together, each try one pair of a ring of six fresh keys ({k0,k1}, {k1,k2} …
     * {k5,k0}): neighbours overlap. Whatever the interleaving, the winners' pairs are disjoint, every key a
     * winner wrote holds that winner's value, and keys no winner wrote are absent.
     */
    @Test
    void concurrentCallsOverOverlappingKeysNeverBothSucceed() throws Exception {
        int threads = 6;
        int rounds = 300;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < rounds; round++) {
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<Boolean>> outcomes = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    List<byte[]> pair = keys(ringKey(round, t), ringKey(round, (t + 1) % threads));
                    List<byte[]> values = values("t" + t, "t" + t);
                    outcomes.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return store.multiPutIfAbsent(0, pair, values, Request.NO_TTL, 1).status() == KvStatus.OK;
                    }));
                }
                boolean[] won = new boolean[threads];
                for (int t = 0; t < threads; t++) {
                    won[t] = outcomes.get(t).get(10, TimeUnit.SECONDS);
                }
                assertThat(won).as("round %d: the first call to take the lock finds all keys fresh", round).contains(true);
                for (int t = 0; t < threads; t++) {
                    int next = (t + 1) % threads;
                    assertThat(won[t] && won[next]).as("round %d: overlapping calls %d and %d both succeeded", round, t, next)
                            .isFalse();
                }
                for (int k = 0; k < threads; k++) {
                    int writer = won[k] ? k : won[(k + threads - 1) % threads] ? (k + threads - 1) % threads : -1;
                    VersionedValue held = store.get(0, key(ringKey(round, k)));
                    if (writer < 0) {
                        assertThat(held).as("round %d: key %d written by no winner", round, k).isNull();
                    } else {
                        assertThat(text(held)).as("round %d: key %d", round, k).isEqualTo("t" + writer);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String ringKey(int round, int index) {
        return "{r" + round + "}k" + index;
    }

    private static List<byte[]> keys(String... names) {
        List<byte[]> keys = new ArrayList<>();
        for (String name : names) {
            keys.add(key(name));
        }
        return keys;
    }

    private static List<byte[]> values(String... texts) {
        return keys(texts);
    }

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(String text) {
        return key(text);
    }

    private static String text(VersionedValue value) {
        return new String(value.value(), StandardCharsets.UTF_8);
    }
}
