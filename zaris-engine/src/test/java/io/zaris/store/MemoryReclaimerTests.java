package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.protocol.Request;
import io.zaris.time.FakeTime;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Eviction and active expiry on a fake clock with a seeded random source: every run is the same run. */
@Tag("unit")
class MemoryReclaimerTests {

    private static final int SEGMENTS = 8;
    private static final int VALUE_BYTES = 100;
    private static final long ENTRY = EntrySize.of(5, VALUE_BYTES);
    private static final long EPOCH = 3;

    private long now = 1_000_000;
    private final List<List<Change>> shippedBySegment = new ArrayList<>();
    private final NodeStore store;
    private final SplittableRandom random = new SplittableRandom(42);
    private final ActiveSegments allActive;

    MemoryReclaimerTests() {
        for (int s = 0; s < SEGMENTS; s++) {
            shippedBySegment.add(new ArrayList<>());
        }
        store = new NodeStore(SEGMENTS, FakeTime.followingMillis(() -> now), 100_000, 1L << 30, (segment, changes) -> {
            shippedBySegment.get(segment).addAll(changes);
            return CompletableFuture.completedFuture(null);
        });
        int[] segments = new int[SEGMENTS];
        long[] epochs = new long[SEGMENTS];
        for (int s = 0; s < SEGMENTS; s++) {
            segments[s] = s;
            epochs[s] = EPOCH;
        }
        allActive = new ActiveSegments(segments, epochs);
    }

    @Test
    void evictionBringsTheNodeBackWithinBudgetAndCountsEveryEviction() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.ALLKEYS_LRU, 100 * ENTRY);
        for (int i = 0; i < 300; i++) {
            put(i, Request.NO_TTL);
        }
        int evicted = reclaimer.evict(allActive, Integer.MAX_VALUE, random);
        assertThat(store.memory().usedBytes()).isLessThanOrEqualTo(100 * ENTRY);
        assertThat(evicted).isEqualTo(200);
        assertThat(store.memory().evictions()).isEqualTo(200);
        assertThat(store.size()).isEqualTo(100);
    }

    @Test
    void evictionStopsAtTheVictimBound() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.ALLKEYS_LRU, 100 * ENTRY);
        for (int i = 0; i < 300; i++) {
            put(i, Request.NO_TTL);
        }
        assertThat(reclaimer.evict(allActive, 16, random)).isEqualTo(16);
        assertThat(store.size()).isEqualTo(284);
    }

    @Test
    void recentlyReadKeysSurviveApproximatedLru() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.ALLKEYS_LRU, 1000 * ENTRY);
        for (int i = 0; i < 1000; i++) {
            now++;
            put(i, Request.NO_TTL);
        }
        now += 1000;
        for (int hot = 0; hot < 100; hot++) {
            store.get(segmentOf(hot), key(hot));
        }
        for (int i = 1000; i < 1500; i++) {
            now++;
            put(i, Request.NO_TTL);
            reclaimer.evict(allActive, Integer.MAX_VALUE, random);
        }
        int hotSurvivors = 0;
        for (int hot = 0; hot < 100; hot++) {
            hotSurvivors += store.get(segmentOf(hot), key(hot)) != null ? 1 : 0;
        }
        // 500 of 900 cold keys had to go; with 5 samples a hot key is only picked when all 5 samples are hot.
        assertThat(hotSurvivors).isGreaterThanOrEqualTo(95);
    }

    @Test
    void volatilePoliciesEvictOnlyKeysWithATtl() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.VOLATILE_LRU, 100 * ENTRY);
        for (int i = 0; i < 150; i++) {
            put(i, i < 90 ? Request.NO_TTL : 600_000);
        }
        reclaimer.evict(allActive, Integer.MAX_VALUE, random);
        for (int i = 0; i < 90; i++) {
            assertThat(store.get(segmentOf(i), key(i))).as("persistent key %d", i).isNotNull();
        }
        assertThat(store.size()).isEqualTo(100);
    }

    @Test
    void volatilePoliciesGiveUpWhenNoKeyHasATtl() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.VOLATILE_TTL, 10 * ENTRY);
        for (int i = 0; i < 20; i++) {
            put(i, Request.NO_TTL);
        }
        assertThat(reclaimer.evict(allActive, Integer.MAX_VALUE, random)).isZero();
        assertThat(reclaimer.overBudget()).isTrue();
        assertThat(store.size()).isEqualTo(20);
    }

    @Test
    void volatileTtlEvictsTheKeysClosestToExpiryFirst() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.VOLATILE_TTL, 50 * ENTRY);
        for (int i = 0; i < 100; i++) {
            put(i, 1_000_000 + i * 1000L);
        }
        reclaimer.evict(allActive, Integer.MAX_VALUE, random);
        long survivorsAmongLongestLived = java.util.stream.IntStream.range(50, 100)
                .filter(i -> store.get(segmentOf(i), key(i)) != null).count();
        assertThat(survivorsAmongLongestLived).isGreaterThan(35);
    }

    @Test
    void noevictionNeverRemovesAnything() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.NOEVICTION, 10 * ENTRY);
        for (int i = 0; i < 20; i++) {
            put(i, Request.NO_TTL);
        }
        assertThat(reclaimer.evict(allActive, Integer.MAX_VALUE, random)).isZero();
        assertThat(store.size()).isEqualTo(20);
    }

    @Test
    void onlyActiveSegmentsAreTouched() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.ALLKEYS_LRU, ENTRY);
        for (int i = 0; i < 200; i++) {
            put(i, Request.NO_TTL);
        }
        long inSegmentZero = store.segmentSize(0);
        reclaimer.evict(new ActiveSegments(new int[] {1, 2}, new long[] {EPOCH, EPOCH}), Integer.MAX_VALUE, random);
        assertThat(store.segmentSize(0)).isEqualTo(inSegmentZero);
        assertThat(store.segmentSize(1) + store.segmentSize(2)).isZero();
        assertThat(reclaimer.evict(ActiveSegments.NONE, Integer.MAX_VALUE, random)).isZero();
    }

    @Test
    void activeExpiryRemovesExpiredKeysAsReplicatedRemovalsUnderTheActiveEpoch() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.ALLKEYS_LRU, Long.MAX_VALUE);
        for (int i = 0; i < 400; i++) {
            put(i, i % 2 == 0 ? 1000 : Request.NO_TTL);
        }
        shippedBySegment.forEach(List::clear);
        now += 1000;
        int expired = 0;
        for (int run = 0; run < 50 && store.memory().expirations() < 200; run++) {
            expired += reclaimer.expire(allActive, 100, random);
        }
        assertThat(expired).isEqualTo(200);
        assertThat(store.memory().expirations()).isEqualTo(200);
        assertThat(store.size()).isEqualTo(200);
        List<Change> removals = shippedBySegment.stream().flatMap(List::stream).toList();
        assertThat(removals).hasSize(200).allSatisfy(change -> {
            assertThat(change.isRemoval()).isTrue();
            assertThat(change.epoch()).isEqualTo(EPOCH);
        });
    }

    @Test
    void activeExpiryExaminesNoMoreKeysPerRunThanItsBound() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.ALLKEYS_LRU, Long.MAX_VALUE);
        for (int i = 0; i < 1000; i++) {
            put(i, 10);
        }
        now += 10;
        // Every examined key is expired, so removals equal examinations: the bound is visible in the count.
        assertThat(reclaimer.expire(allActive, 30, random)).isEqualTo(30);
        assertThat(store.size()).isEqualTo(970);
    }

    @Test
    void liveKeysWithATtlAreLeftAlone() {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.ALLKEYS_LRU, Long.MAX_VALUE);
        for (int i = 0; i < 100; i++) {
            put(i, 60_000);
        }
        assertThat(reclaimer.expire(allActive, 10_000, random)).isZero();
        assertThat(store.size()).isEqualTo(100);
    }

    @Test
    void aReplicaThatAppliesTheShippedChangesHoldsExactlyTheSameKeys() {
        NodeStore replica = new NodeStore(SEGMENTS, FakeTime.followingMillis(() -> now));
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.ALLKEYS_LRU, 120 * ENTRY);
        for (int i = 0; i < 500; i++) {
            put(i, i % 3 == 0 ? 50 : Request.NO_TTL);
            if (i % 50 == 0) {
                now += 60;
                reclaimer.expire(allActive, 200, random);
            }
            reclaimer.evict(allActive, Integer.MAX_VALUE, random);
        }
        for (int s = 0; s < SEGMENTS; s++) {
            assertThat(replica.applyReplicated(s, shippedBySegment.get(s)).gap()).isFalse();
            List<byte[]> activeKeys = new ArrayList<>();
            List<byte[]> replicaKeys = new ArrayList<>();
            store.collectKeys(s, activeKeys);
            replica.collectKeys(s, replicaKeys);
            assertThat(texts(replicaKeys)).containsExactlyInAnyOrderElementsOf(texts(activeKeys));
            assertThat(replica.segmentBytes(s)).isEqualTo(store.segmentBytes(s));
        }
        assertThat(store.memory().evictions()).isPositive();
    }

    @Test
    void hashesAreChargedPerFieldEvictedWholeAndExpiredWhole() {
        assertEvictedWholeAndExpiredWhole(i -> putHash(i, 10), hashBytes(10), "one removal per evicted hash, not one per field");
    }

    @Test
    void setsAreChargedPerMemberEvictedWholeAndExpiredWhole() {
        assertEvictedWholeAndExpiredWhole(i -> putSet(i, 200), setBytes(200), "one removal per evicted set, not one per member");
    }

    @Test
    void sortedSetsAreChargedPerMemberEvictedWholeAndExpiredWhole() {
        assertEvictedWholeAndExpiredWhole(i -> putSortedSet(i, 200), sortedSetBytes(200), "one removal per evicted sorted set, not one per member");
    }

    /**
     * 100 collections put by {@code put}, each charged {@code bytesEach}, on a budget of 50 of them: eviction brings
     * the node within it by removing 50 whole, one logged removal each ({@code removals} says which), and a TTL on
     * the survivors expires each of them whole, freeing every byte.
     */
    private void assertEvictedWholeAndExpiredWhole(IntConsumer put, long bytesEach, String removals) {
        MemoryReclaimer reclaimer = reclaimer(EvictionPolicy.ALLKEYS_LRU, 50 * bytesEach);
        for (int i = 0; i < 100; i++) {
            put.accept(i);
        }
        assertThat(store.memory().usedBytes()).isEqualTo(100 * bytesEach);

        reclaimer.evict(allActive, Integer.MAX_VALUE, random);

        assertThat(store.memory().usedBytes()).isLessThanOrEqualTo(50 * bytesEach);
        assertThat(store.size()).isEqualTo(50);
        assertThat(store.memory().evictions()).isEqualTo(50);
        long removed = shippedBySegment.stream().flatMap(List::stream).filter(Change::isRemoval).count();
        assertThat(removed).as(removals).isEqualTo(50);

        for (int i = 0; i < 100; i++) {
            store.touch(segmentOf(i), key(i), 1_000, EPOCH); // the survivors get a TTL; evicted ones are not found
        }
        now += 1_000;
        int expired = 0;
        for (int round = 0; round < 20 && store.size() > 0; round++) {
            expired += reclaimer.expire(allActive, 100, random);
        }
        assertThat(expired).isEqualTo(50);
        assertThat(store.size()).isZero();
        assertThat(store.memory().usedBytes()).isZero();
    }

    /** What a sorted set of {@code members} members named {@code member-0}… is charged under a 5-byte key. */
    private static long sortedSetBytes(int members) {
        long bytes = EntrySize.OVERHEAD_BYTES + 5;
        for (int m = 0; m < members; m++) {
            bytes += HashEntry.FIELD_OVERHEAD_BYTES + SortedSetEntry.ORDER_OVERHEAD_BYTES + ("member-" + m).length()
                    + Double.BYTES;
        }
        return bytes;
    }

    private void putSortedSet(int i, int members) {
        List<byte[]> args = new ArrayList<>();
        args.add(new byte[0]);
        for (int m = 0; m < members; m++) {
            args.add(Integer.toString(m).getBytes(StandardCharsets.US_ASCII));
            args.add(("member-" + m).getBytes(StandardCharsets.US_ASCII));
        }
        store.hash(segmentOf(i), key(i), HashOp.ZADD, args, EPOCH);
    }

    @Test
    void listsAreChargedPerElementEvictedWholeAndExpiredWhole() {
        assertEvictedWholeAndExpiredWhole(i -> putList(i, 200), listBytes(200), "one removal per evicted list, not one per element");
    }

    /** What a list of {@code elements} elements {@code element-0}… is charged under a 5-byte key. */
    private static long listBytes(int elements) {
        long bytes = EntrySize.OVERHEAD_BYTES + 5;
        for (int e = 0; e < elements; e++) {
            bytes += ListEntry.ELEMENT_OVERHEAD_BYTES + ("element-" + e).length();
        }
        return bytes;
    }

    private void putList(int i, int elements) {
        List<byte[]> args = new ArrayList<>();
        for (int e = 0; e < elements; e++) {
            args.add(("element-" + e).getBytes(StandardCharsets.US_ASCII));
        }
        store.hash(segmentOf(i), key(i), HashOp.RPUSH, args, EPOCH);
    }

    /** What a set of {@code members} members named {@code member-0}… is charged under a 5-byte key. */
    private static long setBytes(int members) {
        long bytes = EntrySize.OVERHEAD_BYTES + 5;
        for (int m = 0; m < members; m++) {
            bytes += SetEntry.MEMBER_OVERHEAD_BYTES + ("member-" + m).length();
        }
        return bytes;
    }

    private void putSet(int i, int members) {
        List<byte[]> args = new ArrayList<>();
        for (int m = 0; m < members; m++) {
            args.add(("member-" + m).getBytes(StandardCharsets.US_ASCII));
        }
        store.hash(segmentOf(i), key(i), HashOp.SADD, args, EPOCH);
    }

    /** What a hash of {@code fields} fields named {@code f0}… with 100-byte values is charged under a 5-byte key. */
    private static long hashBytes(int fields) {
        long bytes = EntrySize.OVERHEAD_BYTES + 5;
        for (int f = 0; f < fields; f++) {
            bytes += HashEntry.FIELD_OVERHEAD_BYTES + ("f" + f).length() + VALUE_BYTES;
        }
        return bytes;
    }

    private void putHash(int i, int fields) {
        List<byte[]> args = new ArrayList<>();
        for (int f = 0; f < fields; f++) {
            args.add(("f" + f).getBytes(StandardCharsets.US_ASCII));
            args.add(new byte[VALUE_BYTES]);
        }
        store.hash(segmentOf(i), key(i), HashOp.HSET, args, EPOCH);
    }

    private MemoryReclaimer reclaimer(EvictionPolicy policy, long maxBytes) {
        return new MemoryReclaimer(store, MemoryOptions.builder().policy(policy).maxBytes(maxBytes).build());
    }

    private void put(int i, long ttlMillis) {
        store.put(segmentOf(i), key(i), new byte[VALUE_BYTES], ttlMillis, false, Request.ANY_VERSION, EPOCH);
    }

    private static int segmentOf(int i) {
        return i % SEGMENTS;
    }

    private static byte[] key(int i) {
        return String.format("k%04d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static List<String> texts(List<byte[]> keys) {
        return keys.stream().map(k -> new String(k, StandardCharsets.US_ASCII)).toList();
    }
}
