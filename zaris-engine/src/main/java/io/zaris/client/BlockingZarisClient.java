package io.zaris.client;

import io.zaris.model.AckMode;
import io.zaris.model.VersionedValue;
import io.zaris.transport.ZarisException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Blocking face of a {@link ZarisClient}: each call waits for the asynchronous operation and rethrows
 * its failure unwrapped ({@link ZarisException} subclasses, {@link IllegalArgumentException}). A GET, an
 * unconditional PUT and a DELETE first try the calling thread's own socket to the key's owner
 * ({@link DirectRequests}): they do not wait for this client's asynchronous requests still in flight, so await
 * those first when their order matters.
 *
 * <p>The hash, list, set and sorted-set operations are those of {@link ZarisClient} of the same name, with its
 * arguments, routing, retry rules and errors; each answers what its future completes with, a {@code long},
 * {@code boolean} or {@code double} where that is never absent. The blocking pops hold the calling thread until an
 * element comes or the timeout passes (their waits on the client's timer go on as they do for the asynchronous call).
 */
public final class BlockingZarisClient {

    private final ZarisClient client;

    BlockingZarisClient(ZarisClient client) {
        this.client = client;
    }

    public Optional<VersionedValue> get(String key) {
        if (client.nearCacheEnabled()) {
            return await(client.get(key)); // answered locally when it can, and its answer fills the near cache
        }
        Optional<VersionedValue> direct = client.tryDirectGet(key);
        return direct != null ? direct : await(client.get(key));
    }

    /** See {@link ZarisClient#read}. */
    public ReadResult read(String key, NearCacheRead how) {
        if (!client.nearCacheEnabled() && how != null) {
            Optional<VersionedValue> direct = client.tryDirectGet(key);
            if (direct != null) {
                return new ReadResult(direct, false);
            }
        }
        return await(client.read(key, how));
    }

    public long put(String key, byte[] value) {
        return put(key, value, null);
    }

    public long put(String key, byte[] value, Duration ttl) {
        return put(key, value, ttl, client.options().ackMode());
    }

    /** Stores the value, acknowledged as {@code ack} asks ({@code null}: the cluster's configured mode). */
    public long put(String key, byte[] value, Duration ttl, AckMode ack) {
        Long direct = client.tryDirectPut(key, value, ttl, ack);
        return direct != null ? direct : await(client.put(key, value, ttl, ack));
    }

    public WriteOutcome putIfAbsent(String key, byte[] value, Duration ttl) {
        return await(client.putIfAbsent(key, value, ttl));
    }

    public WriteOutcome putIfVersion(String key, byte[] value, long expectedVersion, Duration ttl) {
        return await(client.putIfVersion(key, value, expectedVersion, ttl));
    }

    public boolean delete(String key) {
        return delete(key, client.options().ackMode());
    }

    /** Deletes the key, acknowledged as {@code ack} asks ({@code null}: the cluster's configured mode). */
    public boolean delete(String key, AckMode ack) {
        Boolean direct = client.tryDirectDelete(key, ack);
        return direct != null ? direct : await(client.delete(key, ack));
    }

    public WriteOutcome deleteIfVersion(String key, long expectedVersion) {
        return await(client.deleteIfVersion(key, expectedVersion));
    }

    public long increment(String key, long delta) {
        return await(client.increment(key, delta));
    }

    public CounterValue incrementVersioned(String key, long delta) {
        return await(client.incrementVersioned(key, delta));
    }

    public boolean expire(String key, Duration ttl) {
        return await(client.expire(key, ttl));
    }

    public Optional<KeyType> type(String key) {
        return await(client.type(key));
    }

    public boolean exists(String key) {
        return await(client.exists(key));
    }

    public void rename(String source, String destination) {
        await(client.rename(source, destination));
    }

    public boolean renameIfAbsent(String source, String destination) {
        return await(client.renameIfAbsent(source, destination));
    }

    public Map<String, VersionedValue> getAll(Collection<String> keys) {
        return await(client.getAll(keys));
    }

    public Map<String, Long> putAll(Map<String, byte[]> entries, Duration ttl) {
        return await(client.putAll(entries, ttl));
    }

    /** Writes the entries only if none of the keys exists; whether they were written. */
    public boolean putAllIfAbsent(Map<String, byte[]> entries, Duration ttl) {
        return await(client.putAllIfAbsent(entries, ttl));
    }

    public int deleteAll(Collection<String> keys) {
        return await(client.deleteAll(keys));
    }

    public Set<String> scanKeys() {
        return await(client.scanKeys());
    }

    // ------------------------------------------------------------------ hashes

    public long hashSet(String key, Map<String, byte[]> fields) {
        return await(client.hashSet(key, fields));
    }

    public byte[] hashGet(String key, String field) {
        return await(client.hashGet(key, field));
    }

    public Map<String, byte[]> hashGetAll(String key) {
        return await(client.hashGetAll(key));
    }

    public long hashDelete(String key, String... fields) {
        return await(client.hashDelete(key, fields));
    }

    public long hashIncrement(String key, String field, long delta) {
        return await(client.hashIncrement(key, field, delta));
    }

    public CounterValue hashIncrementVersioned(String key, String field, long delta) {
        return await(client.hashIncrementVersioned(key, field, delta));
    }

    public Map<String, byte[]> hashGetMany(String key, String... fields) {
        return await(client.hashGetMany(key, fields));
    }

    public boolean hashContains(String key, String field) {
        return await(client.hashContains(key, field));
    }

    public Set<String> hashFields(String key) {
        return await(client.hashFields(key));
    }

    public long hashSize(String key) {
        return await(client.hashSize(key));
    }

    public boolean hashSetIfAbsent(String key, String field, byte[] value) {
        return await(client.hashSetIfAbsent(key, field, value));
    }

    public List<byte[]> hashValues(String key) {
        return await(client.hashValues(key));
    }

    public long hashValueLength(String key, String field) {
        return await(client.hashValueLength(key, field));
    }

    public double hashIncrementFloat(String key, String field, double delta) {
        return await(client.hashIncrementFloat(key, field, delta));
    }

    public Map<String, byte[]> hashScan(String key, String pattern) {
        return await(client.hashScan(key, pattern));
    }

    public List<String> hashRandomFields(String key, int count) {
        return await(client.hashRandomFields(key, count));
    }

    public List<Map.Entry<String, byte[]>> hashRandomEntries(String key, int count) {
        return await(client.hashRandomEntries(key, count));
    }

    // ------------------------------------------------------------------ sets

    public long setAdd(String key, String... members) {
        return await(client.setAdd(key, members));
    }

    public long setRemove(String key, String... members) {
        return await(client.setRemove(key, members));
    }

    public Set<String> setMembers(String key) {
        return await(client.setMembers(key));
    }

    public boolean setContains(String key, String member) {
        return await(client.setContains(key, member));
    }

    public long setSize(String key) {
        return await(client.setSize(key));
    }

    public Set<String> setPop(String key, int count) {
        return await(client.setPop(key, count));
    }

    public List<String> setRandomMembers(String key, int count) {
        return await(client.setRandomMembers(key, count));
    }

    public Set<String> setIntersection(String... keys) {
        return await(client.setIntersection(keys));
    }

    public Set<String> setUnion(String... keys) {
        return await(client.setUnion(keys));
    }

    public Set<String> setDifference(String... keys) {
        return await(client.setDifference(keys));
    }

    public long setIntersectionStore(String destination, String... keys) {
        return await(client.setIntersectionStore(destination, keys));
    }

    public long setUnionStore(String destination, String... keys) {
        return await(client.setUnionStore(destination, keys));
    }

    public long setDifferenceStore(String destination, String... keys) {
        return await(client.setDifferenceStore(destination, keys));
    }

    public List<Boolean> setContainsMany(String key, String... members) {
        return await(client.setContainsMany(key, members));
    }

    public boolean setMove(String source, String destination, String member) {
        return await(client.setMove(source, destination, member));
    }

    public long setIntersectionSize(String... keys) {
        return await(client.setIntersectionSize(keys));
    }

    public long setIntersectionSize(long limit, String... keys) {
        return await(client.setIntersectionSize(limit, keys));
    }

    public Set<String> setScan(String key, String pattern) {
        return await(client.setScan(key, pattern));
    }

    // ------------------------------------------------------------------ lists

    public long listPush(String key, ListEnd end, byte[]... elements) {
        return await(client.listPush(key, end, elements));
    }

    public List<byte[]> listPop(String key, ListEnd end, int count) {
        return await(client.listPop(key, end, count));
    }

    public List<byte[]> listRange(String key, long start, long stop) {
        return await(client.listRange(key, start, stop));
    }

    public long listLength(String key) {
        return await(client.listLength(key));
    }

    public byte[] listIndex(String key, long index) {
        return await(client.listIndex(key, index));
    }

    public void listSet(String key, long index, byte[] element) {
        await(client.listSet(key, index, element));
    }

    public void listTrim(String key, long start, long stop) {
        await(client.listTrim(key, start, stop));
    }

    public long listRemove(String key, long count, byte[] element) {
        return await(client.listRemove(key, count, element));
    }

    public byte[] listMove(String source, String destination, ListEnd from, ListEnd to) {
        return await(client.listMove(source, destination, from, to));
    }

    public byte[] listBlockingPop(String key, ListEnd end, Duration timeout) {
        return await(client.listBlockingPop(key, end, timeout));
    }

    public PoppedElement listBlockingPop(List<String> keys, ListEnd end, Duration timeout) {
        return await(client.listBlockingPop(keys, end, timeout));
    }

    public PoppedElements listPop(List<String> keys, ListEnd end, int count) {
        return await(client.listPop(keys, end, count));
    }

    public PoppedElements listBlockingPop(List<String> keys, ListEnd end, int count, Duration timeout) {
        return await(client.listBlockingPop(keys, end, count, timeout));
    }

    public byte[] listBlockingMove(String source, String destination, ListEnd from, ListEnd to, Duration timeout) {
        return await(client.listBlockingMove(source, destination, from, to, timeout));
    }

    public long listPushIfExists(String key, ListEnd end, byte[]... elements) {
        return await(client.listPushIfExists(key, end, elements));
    }

    public long listInsert(String key, InsertPosition position, byte[] pivot, byte[] element) {
        return await(client.listInsert(key, position, pivot, element));
    }

    public Long listPosition(String key, byte[] element) {
        return await(client.listPosition(key, element));
    }

    public Long listPosition(String key, byte[] element, ListPositionOptions options) {
        return await(client.listPosition(key, element, options));
    }

    public List<Long> listPositions(String key, byte[] element, long count, ListPositionOptions options) {
        return await(client.listPositions(key, element, count, options));
    }

    // ------------------------------------------------------------------ sorted sets

    public long sortedSetAdd(String key, Map<String, Double> scores) {
        return await(client.sortedSetAdd(key, scores));
    }

    public double sortedSetIncrement(String key, String member, double delta) {
        return await(client.sortedSetIncrement(key, member, delta));
    }

    public Double sortedSetScore(String key, String member) {
        return await(client.sortedSetScore(key, member));
    }

    public Long sortedSetRank(String key, String member, boolean reverse) {
        return await(client.sortedSetRank(key, member, reverse));
    }

    public List<ScoredMember> sortedSetRange(String key, long start, long stop) {
        return await(client.sortedSetRange(key, start, stop));
    }

    public List<ScoredMember> sortedSetRangeByScore(String key, double min, double max) {
        return await(client.sortedSetRangeByScore(key, min, max));
    }

    public long sortedSetRemove(String key, String... members) {
        return await(client.sortedSetRemove(key, members));
    }

    public long sortedSetSize(String key) {
        return await(client.sortedSetSize(key));
    }

    public List<ScoredMember> sortedSetReverseRange(String key, long start, long stop) {
        return await(client.sortedSetReverseRange(key, start, stop));
    }

    public List<ScoredMember> sortedSetReverseRangeByScore(String key, double min, double max) {
        return await(client.sortedSetReverseRangeByScore(key, min, max));
    }

    public long sortedSetCount(String key, double min, double max) {
        return await(client.sortedSetCount(key, min, max));
    }

    public long sortedSetRemoveRangeByScore(String key, double min, double max) {
        return await(client.sortedSetRemoveRangeByScore(key, min, max));
    }

    public List<ScoredMember> sortedSetPopMin(String key, int count) {
        return await(client.sortedSetPopMin(key, count));
    }

    public List<ScoredMember> sortedSetPopMax(String key, int count) {
        return await(client.sortedSetPopMax(key, count));
    }

    public long sortedSetAdd(String key, Map<String, Double> scores, SortedSetAddOptions options) {
        return await(client.sortedSetAdd(key, scores, options));
    }

    public Double sortedSetIncrement(String key, String member, double delta, SortedSetAddOptions options) {
        return await(client.sortedSetIncrement(key, member, delta, options));
    }

    public Map<String, Double> sortedSetScores(String key, String... members) {
        return await(client.sortedSetScores(key, members));
    }

    public List<ScoredMember> sortedSetRangeByScore(String key, ScoreBound min, ScoreBound max, RangeLimit limit) {
        return await(client.sortedSetRangeByScore(key, min, max, limit));
    }

    public List<ScoredMember> sortedSetReverseRangeByScore(String key, ScoreBound min, ScoreBound max, RangeLimit limit) {
        return await(client.sortedSetReverseRangeByScore(key, min, max, limit));
    }

    public long sortedSetCount(String key, ScoreBound min, ScoreBound max) {
        return await(client.sortedSetCount(key, min, max));
    }

    public long sortedSetRemoveRangeByScore(String key, ScoreBound min, ScoreBound max) {
        return await(client.sortedSetRemoveRangeByScore(key, min, max));
    }

    public List<String> sortedSetRangeByLex(String key, LexBound min, LexBound max, RangeLimit limit) {
        return await(client.sortedSetRangeByLex(key, min, max, limit));
    }

    public List<String> sortedSetReverseRangeByLex(String key, LexBound min, LexBound max, RangeLimit limit) {
        return await(client.sortedSetReverseRangeByLex(key, min, max, limit));
    }

    public long sortedSetLexCount(String key, LexBound min, LexBound max) {
        return await(client.sortedSetLexCount(key, min, max));
    }

    public long sortedSetRemoveRangeByLex(String key, LexBound min, LexBound max) {
        return await(client.sortedSetRemoveRangeByLex(key, min, max));
    }

    public long sortedSetRemoveRangeByRank(String key, long start, long stop) {
        return await(client.sortedSetRemoveRangeByRank(key, start, stop));
    }

    public List<ScoredMember> sortedSetUnion(String... keys) {
        return await(client.sortedSetUnion(keys));
    }

    public List<ScoredMember> sortedSetUnion(SortedSetCombineOptions options, String... keys) {
        return await(client.sortedSetUnion(options, keys));
    }

    public List<ScoredMember> sortedSetIntersection(String... keys) {
        return await(client.sortedSetIntersection(keys));
    }

    public List<ScoredMember> sortedSetIntersection(SortedSetCombineOptions options, String... keys) {
        return await(client.sortedSetIntersection(options, keys));
    }

    public List<ScoredMember> sortedSetDifference(String... keys) {
        return await(client.sortedSetDifference(keys));
    }

    public long sortedSetUnionStore(String destination, String... keys) {
        return await(client.sortedSetUnionStore(destination, keys));
    }

    public long sortedSetUnionStore(String destination, SortedSetCombineOptions options, String... keys) {
        return await(client.sortedSetUnionStore(destination, options, keys));
    }

    public long sortedSetIntersectionStore(String destination, String... keys) {
        return await(client.sortedSetIntersectionStore(destination, keys));
    }

    public long sortedSetIntersectionStore(String destination, SortedSetCombineOptions options, String... keys) {
        return await(client.sortedSetIntersectionStore(destination, options, keys));
    }

    public long sortedSetDifferenceStore(String destination, String... keys) {
        return await(client.sortedSetDifferenceStore(destination, keys));
    }

    public long sortedSetIntersectionSize(String... keys) {
        return await(client.sortedSetIntersectionSize(keys));
    }

    public long sortedSetIntersectionSize(long limit, String... keys) {
        return await(client.sortedSetIntersectionSize(limit, keys));
    }

    public long sortedSetRangeStore(String destination, String source, long start, long stop) {
        return await(client.sortedSetRangeStore(destination, source, start, stop));
    }

    public long sortedSetReverseRangeStore(String destination, String source, long start, long stop) {
        return await(client.sortedSetReverseRangeStore(destination, source, start, stop));
    }

    public long sortedSetRangeByScoreStore(String destination, String source, ScoreBound min, ScoreBound max,
                                           RangeLimit limit) {
        return await(client.sortedSetRangeByScoreStore(destination, source, min, max, limit));
    }

    public long sortedSetReverseRangeByScoreStore(String destination, String source, ScoreBound min, ScoreBound max,
                                                  RangeLimit limit) {
        return await(client.sortedSetReverseRangeByScoreStore(destination, source, min, max, limit));
    }

    public long sortedSetRangeByLexStore(String destination, String source, LexBound min, LexBound max, RangeLimit limit) {
        return await(client.sortedSetRangeByLexStore(destination, source, min, max, limit));
    }

    public long sortedSetReverseRangeByLexStore(String destination, String source, LexBound min, LexBound max,
                                                RangeLimit limit) {
        return await(client.sortedSetReverseRangeByLexStore(destination, source, min, max, limit));
    }

    public PoppedMember sortedSetBlockingPopMin(List<String> keys, Duration timeout) {
        return await(client.sortedSetBlockingPopMin(keys, timeout));
    }

    public PoppedMember sortedSetBlockingPopMax(List<String> keys, Duration timeout) {
        return await(client.sortedSetBlockingPopMax(keys, timeout));
    }

    public PoppedMembers sortedSetPopMin(List<String> keys, int count) {
        return await(client.sortedSetPopMin(keys, count));
    }

    public PoppedMembers sortedSetPopMax(List<String> keys, int count) {
        return await(client.sortedSetPopMax(keys, count));
    }

    public PoppedMembers sortedSetBlockingPopMin(List<String> keys, int count, Duration timeout) {
        return await(client.sortedSetBlockingPopMin(keys, count, timeout));
    }

    public PoppedMembers sortedSetBlockingPopMax(List<String> keys, int count, Duration timeout) {
        return await(client.sortedSetBlockingPopMax(keys, count, timeout));
    }

    public List<ScoredMember> sortedSetScan(String key, String pattern) {
        return await(client.sortedSetScan(key, pattern));
    }

    public List<String> sortedSetRandomMembers(String key, int count) {
        return await(client.sortedSetRandomMembers(key, count));
    }

    public List<ScoredMember> sortedSetRandomMembersWithScores(String key, int count) {
        return await(client.sortedSetRandomMembersWithScores(key, count));
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                cause.addSuppressed(new ZarisException("awaited here"));
                throw cause;
            }
            throw e;
        }
    }
}
