package io.zaris.spring.template;

import io.zaris.client.KeyChange;
import io.zaris.client.InsertPosition;
import io.zaris.client.KeyType;
import io.zaris.client.LexBound;
import io.zaris.client.ListEnd;
import io.zaris.client.ListPositionOptions;
import io.zaris.client.PoppedMember;
import io.zaris.client.PoppedMembers;
import io.zaris.client.RangeLimit;
import io.zaris.client.ScoreBound;
import io.zaris.client.ScoredMember;
import io.zaris.client.SortedSetAddOptions;
import io.zaris.client.SortedSetCombineOptions;
import io.zaris.client.ZarisClient;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.observation.ZarisOperationObserver;
import io.zaris.spring.serialization.ZarisSerializer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import reactor.core.publisher.Flux;

/**
 * Typed access to Zaris for application code: values go through the configured {@link ZarisSerializer};
 * versions, TTLs, compare-and-set, counters, hash-tag multi-key operations, scans and the operations on hashes,
 * lists, sets and sorted sets come from the client. Hash field values and list elements go through the serializer
 * too; hash fields and set and sorted-set members are text.
 *
 * <p>Every method blocks the calling thread until the answer arrives (use it from request threads, not
 * from the client's network threads); {@link #async()} has the same operations returning
 * {@link CompletableFuture}s. Failures surface unwrapped: {@code ZarisException} subclasses from the
 * client ({@code ZarisWrongTypeException} when the key holds another type than the operation's),
 * {@code ZarisSerializationException} for values, {@link IllegalArgumentException} for bad arguments (e.g.
 * multi-key operations on keys of different segments).
 *
 * <p>What is retried is the client's decision: reads and plain writes may be retried on routing faults;
 * compare-and-set, IfAbsent and increments whose outcome is unknown are not. A compare-and-set conflict
 * is returned as a {@link CasOutcome}, never retried.
 *
 * <p>{@link #watch} and {@link #watchPrefix} are the exception: they return a {@link Flux} of key changes.
 *
 * <p>Thread-safe; holds no state but its client and serializer.
 */
public final class ZarisTemplate {

    private final AsyncZarisTemplate async;
    private final ZarisClient client;

    public ZarisTemplate(ZarisClient client, ZarisSerializer serializer) {
        this(client, serializer, new EntrySizeSample());
    }

    /** @param entrySizes told the size of every entry written (for the memory estimate) */
    public ZarisTemplate(ZarisClient client, ZarisSerializer serializer, EntrySizeSample entrySizes) {
        this(client, serializer, entrySizes, ZarisOperationObserver.none());
    }

    /** @param observer wraps every client call (see {@link ZarisOperationObserver}) */
    public ZarisTemplate(ZarisClient client, ZarisSerializer serializer, EntrySizeSample entrySizes,
            ZarisOperationObserver observer) {
        this.async = new AsyncZarisTemplate(client, serializer, entrySizes, observer);
        this.client = client;
    }

    /** The same operations, non-blocking. */
    public AsyncZarisTemplate async() {
        return async;
    }

    public <T> Optional<T> get(String key, Class<T> type) {
        return await(async.get(key, type));
    }

    public <T> Optional<ZarisValue<T>> getVersioned(String key, Class<T> type) {
        return await(async.getVersioned(key, type));
    }

    /** Returns the key's new version. */
    public long put(String key, Object value) {
        return await(async.put(key, value));
    }

    /** Returns the key's new version; {@code ttl} {@code null} or zero means no expiry. */
    public long put(String key, Object value, Duration ttl) {
        return await(async.put(key, value, ttl));
    }

    /** Returns whether the value was stored (the key did not exist). */
    public boolean putIfAbsent(String key, Object value, Duration ttl) {
        return await(async.putIfAbsent(key, value, ttl));
    }

    /** See {@link AsyncZarisTemplate#compareAndSet}. */
    public CasOutcome compareAndSet(String key, Object value, long expectedVersion, Duration ttl) {
        return await(async.compareAndSet(key, value, expectedVersion, ttl));
    }

    public CasOutcome deleteIfVersion(String key, long expectedVersion) {
        return await(async.deleteIfVersion(key, expectedVersion));
    }

    public boolean delete(String key) {
        return await(async.delete(key));
    }

    public boolean expire(String key, Duration ttl) {
        return await(async.expire(key, ttl));
    }

    /** Empty when the key is absent. */
    public Optional<KeyType> type(String key) {
        return await(async.type(key));
    }

    public boolean exists(String key) {
        return await(async.exists(key));
    }

    /** See {@link AsyncZarisTemplate#rename}. */
    public void rename(String source, String destination) {
        await(async.rename(source, destination));
    }

    /** Returns whether it renamed (the destination was absent). */
    public boolean renameIfAbsent(String source, String destination) {
        return await(async.renameIfAbsent(source, destination));
    }

    /** See {@link AsyncZarisTemplate#increment}. */
    public long increment(String key, long delta) {
        return await(async.increment(key, delta));
    }

    public OptionalLong counter(String key) {
        return await(async.counter(key));
    }

    public <T> Map<String, T> getAll(Collection<String> keys, Class<T> type) {
        return await(async.getAll(keys, type));
    }

    public Map<String, Long> putAll(Map<String, ?> entries, Duration ttl) {
        return await(async.putAll(entries, ttl));
    }

    public int deleteAll(Collection<String> keys) {
        return await(async.deleteAll(keys));
    }

    /** See {@link AsyncZarisTemplate#scan}. */
    public Set<String> scan(String glob) {
        return await(async.scan(glob));
    }

    public Set<String> scanPrefix(String prefix) {
        return await(async.scanPrefix(prefix));
    }

    // Hashes, lists, sets and sorted sets: see AsyncZarisTemplate for what each does and which are retried.

    public long hashPut(String key, Map<String, ?> fields) {
        return await(async.hashPut(key, fields));
    }

    /** Returns whether the field is new. */
    public boolean hashPut(String key, String field, Object value) {
        return await(async.hashPut(key, field, value));
    }

    public <T> Optional<T> hashGet(String key, String field, Class<T> type) {
        return await(async.hashGet(key, field, type));
    }

    public <T> Map<String, T> hashGetAll(String key, Class<T> type) {
        return await(async.hashGetAll(key, type));
    }

    public long hashDelete(String key, String... fields) {
        return await(async.hashDelete(key, fields));
    }

    public long hashIncrement(String key, String field, long delta) {
        return await(async.hashIncrement(key, field, delta));
    }

    /** The fields present, in the order asked. */
    public <T> Map<String, T> hashGetMany(String key, Class<T> type, String... fields) {
        return await(async.hashGetMany(key, type, fields));
    }

    public boolean hashContains(String key, String field) {
        return await(async.hashContains(key, field));
    }

    public Set<String> hashFields(String key) {
        return await(async.hashFields(key));
    }

    public long hashSize(String key) {
        return await(async.hashSize(key));
    }

    /** Returns whether the field was set (it was absent). */
    public boolean hashPutIfAbsent(String key, String field, Object value) {
        return await(async.hashPutIfAbsent(key, field, value));
    }

    public <T> List<T> hashValues(String key, Class<T> type) {
        return await(async.hashValues(key, type));
    }

    public long hashValueLength(String key, String field) {
        return await(async.hashValueLength(key, field));
    }

    public double hashIncrementFloat(String key, String field, double delta) {
        return await(async.hashIncrementFloat(key, field, delta));
    }

    /** See {@link AsyncZarisTemplate#hashScan}: the matching fields with their values, one read of the whole hash. */
    public <T> Map<String, T> hashScan(String key, String pattern, Class<T> type) {
        return await(async.hashScan(key, pattern, type));
    }

    public List<String> hashRandomFields(String key, int count) {
        return await(async.hashRandomFields(key, count));
    }

    public <T> List<Map.Entry<String, T>> hashRandomEntries(String key, int count, Class<T> type) {
        return await(async.hashRandomEntries(key, count, type));
    }

    /** See {@link AsyncZarisTemplate#listPush}; returns the list's length after. */
    public long listPush(String key, ListEnd end, Object... values) {
        return await(async.listPush(key, end, values));
    }

    public <T> Optional<T> listPop(String key, ListEnd end, Class<T> type) {
        return await(async.listPop(key, end, type));
    }

    public <T> List<T> listPop(String key, ListEnd end, int count, Class<T> type) {
        return await(async.listPop(key, end, count, type));
    }

    public <T> List<T> listRange(String key, long start, long stop, Class<T> type) {
        return await(async.listRange(key, start, stop, type));
    }

    public long listLength(String key) {
        return await(async.listLength(key));
    }

    public <T> Optional<T> listIndex(String key, long index, Class<T> type) {
        return await(async.listIndex(key, index, type));
    }

    public void listSet(String key, long index, Object value) {
        await(async.listSet(key, index, value));
    }

    public void listTrim(String key, long start, long stop) {
        await(async.listTrim(key, start, stop));
    }

    public long listRemove(String key, long count, Object value) {
        return await(async.listRemove(key, count, value));
    }

    public <T> Optional<T> listMove(String source, String destination, ListEnd from, ListEnd to, Class<T> type) {
        return await(async.listMove(source, destination, from, to, type));
    }

    /** Blocks the calling thread up to {@code timeout} (and for a look under way then); see {@link AsyncZarisTemplate#listBlockingPop}. */
    public <T> Optional<T> listBlockingPop(String key, ListEnd end, Duration timeout, Class<T> type) {
        return await(async.listBlockingPop(key, end, timeout, type));
    }

    /** Blocks the calling thread up to {@code timeout}; see {@link AsyncZarisTemplate#listBlockingPop(List, ListEnd, Duration, Class)}. */
    public <T> Optional<Map.Entry<String, T>> listBlockingPop(List<String> keys, ListEnd end, Duration timeout, Class<T> type) {
        return await(async.listBlockingPop(keys, end, timeout, type));
    }

    /** See {@link AsyncZarisTemplate#listPop(List, ListEnd, int, Class)}: LMPOP, the key with its values. */
    public <T> Optional<Map.Entry<String, List<T>>> listPop(List<String> keys, ListEnd end, int count, Class<T> type) {
        return await(async.listPop(keys, end, count, type));
    }

    /** Blocks the calling thread up to {@code timeout}; see {@link AsyncZarisTemplate#listBlockingPop(List, ListEnd, int, Duration, Class)}. */
    public <T> Optional<Map.Entry<String, List<T>>> listBlockingPop(List<String> keys, ListEnd end, int count, Duration timeout,
            Class<T> type) {
        return await(async.listBlockingPop(keys, end, count, timeout, type));
    }

    /** Blocks the calling thread up to {@code timeout}; see {@link AsyncZarisTemplate#listBlockingMove}. */
    public <T> Optional<T> listBlockingMove(String source, String destination, ListEnd from, ListEnd to, Duration timeout,
            Class<T> type) {
        return await(async.listBlockingMove(source, destination, from, to, timeout, type));
    }

    public long listPushIfExists(String key, ListEnd end, Object... values) {
        return await(async.listPushIfExists(key, end, values));
    }

    public long listInsert(String key, InsertPosition position, Object pivot, Object value) {
        return await(async.listInsert(key, position, pivot, value));
    }

    public OptionalLong listPosition(String key, Object value, ListPositionOptions options) {
        return await(async.listPosition(key, value, options));
    }

    public List<Long> listPositions(String key, Object value, long count, ListPositionOptions options) {
        return await(async.listPositions(key, value, count, options));
    }

    public long setAdd(String key, String... members) {
        return await(async.setAdd(key, members));
    }

    public long setRemove(String key, String... members) {
        return await(async.setRemove(key, members));
    }

    public Set<String> setMembers(String key) {
        return await(async.setMembers(key));
    }

    public boolean setContains(String key, String member) {
        return await(async.setContains(key, member));
    }

    public long setSize(String key) {
        return await(async.setSize(key));
    }

    public Set<String> setPop(String key, int count) {
        return await(async.setPop(key, count));
    }

    public List<String> setRandomMembers(String key, int count) {
        return await(async.setRandomMembers(key, count));
    }

    public Set<String> setIntersection(String... keys) {
        return await(async.setIntersection(keys));
    }

    public Set<String> setUnion(String... keys) {
        return await(async.setUnion(keys));
    }

    public Set<String> setDifference(String... keys) {
        return await(async.setDifference(keys));
    }

    public long setIntersectionStore(String destination, String... keys) {
        return await(async.setIntersectionStore(destination, keys));
    }

    public long setUnionStore(String destination, String... keys) {
        return await(async.setUnionStore(destination, keys));
    }

    public long setDifferenceStore(String destination, String... keys) {
        return await(async.setDifferenceStore(destination, keys));
    }

    public List<Boolean> setContainsMany(String key, String... members) {
        return await(async.setContainsMany(key, members));
    }

    public boolean setMove(String source, String destination, String member) {
        return await(async.setMove(source, destination, member));
    }

    public long setIntersectionSize(String... keys) {
        return await(async.setIntersectionSize(keys));
    }

    public long setIntersectionSize(long limit, String... keys) {
        return await(async.setIntersectionSize(limit, keys));
    }

    /** See {@link AsyncZarisTemplate#setScan}: the matching members, one read of the whole set. */
    public Set<String> setScan(String key, String pattern) {
        return await(async.setScan(key, pattern));
    }

    public long sortedSetAdd(String key, Map<String, Double> scores) {
        return await(async.sortedSetAdd(key, scores));
    }

    /** Returns whether the member is new. */
    public boolean sortedSetAdd(String key, String member, double score) {
        return await(async.sortedSetAdd(key, member, score));
    }

    public double sortedSetIncrement(String key, String member, double delta) {
        return await(async.sortedSetIncrement(key, member, delta));
    }

    public Optional<Double> sortedSetScore(String key, String member) {
        return await(async.sortedSetScore(key, member));
    }

    public OptionalLong sortedSetRank(String key, String member, boolean reverse) {
        return await(async.sortedSetRank(key, member, reverse));
    }

    public List<ScoredMember> sortedSetRange(String key, long start, long stop) {
        return await(async.sortedSetRange(key, start, stop));
    }

    public List<ScoredMember> sortedSetRangeByScore(String key, double min, double max) {
        return await(async.sortedSetRangeByScore(key, min, max));
    }

    public long sortedSetRemove(String key, String... members) {
        return await(async.sortedSetRemove(key, members));
    }

    public long sortedSetSize(String key) {
        return await(async.sortedSetSize(key));
    }

    public List<ScoredMember> sortedSetReverseRange(String key, long start, long stop) {
        return await(async.sortedSetReverseRange(key, start, stop));
    }

    public List<ScoredMember> sortedSetReverseRangeByScore(String key, double min, double max) {
        return await(async.sortedSetReverseRangeByScore(key, min, max));
    }

    public long sortedSetCount(String key, double min, double max) {
        return await(async.sortedSetCount(key, min, max));
    }

    public long sortedSetRemoveRangeByScore(String key, double min, double max) {
        return await(async.sortedSetRemoveRangeByScore(key, min, max));
    }

    public List<ScoredMember> sortedSetPopMin(String key, int count) {
        return await(async.sortedSetPopMin(key, count));
    }

    public List<ScoredMember> sortedSetPopMax(String key, int count) {
        return await(async.sortedSetPopMax(key, count));
    }

    public long sortedSetAdd(String key, Map<String, Double> scores, SortedSetAddOptions options) {
        return await(async.sortedSetAdd(key, scores, options));
    }

    /** Empty when a condition kept the member as it was. */
    public Optional<Double> sortedSetIncrement(String key, String member, double delta, SortedSetAddOptions options) {
        return await(async.sortedSetIncrement(key, member, delta, options));
    }

    public Map<String, Double> sortedSetScores(String key, String... members) {
        return await(async.sortedSetScores(key, members));
    }

    public List<ScoredMember> sortedSetRangeByScore(String key, ScoreBound min, ScoreBound max, RangeLimit limit) {
        return await(async.sortedSetRangeByScore(key, min, max, limit));
    }

    public List<ScoredMember> sortedSetReverseRangeByScore(String key, ScoreBound min, ScoreBound max, RangeLimit limit) {
        return await(async.sortedSetReverseRangeByScore(key, min, max, limit));
    }

    public long sortedSetCount(String key, ScoreBound min, ScoreBound max) {
        return await(async.sortedSetCount(key, min, max));
    }

    public long sortedSetRemoveRangeByScore(String key, ScoreBound min, ScoreBound max) {
        return await(async.sortedSetRemoveRangeByScore(key, min, max));
    }

    public List<String> sortedSetRangeByLex(String key, LexBound min, LexBound max, RangeLimit limit) {
        return await(async.sortedSetRangeByLex(key, min, max, limit));
    }

    public List<String> sortedSetReverseRangeByLex(String key, LexBound min, LexBound max, RangeLimit limit) {
        return await(async.sortedSetReverseRangeByLex(key, min, max, limit));
    }

    public long sortedSetLexCount(String key, LexBound min, LexBound max) {
        return await(async.sortedSetLexCount(key, min, max));
    }

    public long sortedSetRemoveRangeByLex(String key, LexBound min, LexBound max) {
        return await(async.sortedSetRemoveRangeByLex(key, min, max));
    }

    public long sortedSetRemoveRangeByRank(String key, long start, long stop) {
        return await(async.sortedSetRemoveRangeByRank(key, start, stop));
    }

    public List<ScoredMember> sortedSetUnion(String... keys) {
        return await(async.sortedSetUnion(keys));
    }

    public List<ScoredMember> sortedSetUnion(SortedSetCombineOptions options, String... keys) {
        return await(async.sortedSetUnion(options, keys));
    }

    public List<ScoredMember> sortedSetIntersection(String... keys) {
        return await(async.sortedSetIntersection(keys));
    }

    public List<ScoredMember> sortedSetIntersection(SortedSetCombineOptions options, String... keys) {
        return await(async.sortedSetIntersection(options, keys));
    }

    public List<ScoredMember> sortedSetDifference(String... keys) {
        return await(async.sortedSetDifference(keys));
    }

    public long sortedSetUnionStore(String destination, String... keys) {
        return await(async.sortedSetUnionStore(destination, keys));
    }

    public long sortedSetUnionStore(String destination, SortedSetCombineOptions options, String... keys) {
        return await(async.sortedSetUnionStore(destination, options, keys));
    }

    public long sortedSetIntersectionStore(String destination, String... keys) {
        return await(async.sortedSetIntersectionStore(destination, keys));
    }

    public long sortedSetIntersectionStore(String destination, SortedSetCombineOptions options, String... keys) {
        return await(async.sortedSetIntersectionStore(destination, options, keys));
    }

    public long sortedSetDifferenceStore(String destination, String... keys) {
        return await(async.sortedSetDifferenceStore(destination, keys));
    }

    public long sortedSetIntersectionSize(String... keys) {
        return await(async.sortedSetIntersectionSize(keys));
    }

    public long sortedSetIntersectionSize(long limit, String... keys) {
        return await(async.sortedSetIntersectionSize(limit, keys));
    }

    public long sortedSetRangeStore(String destination, String source, long start, long stop) {
        return await(async.sortedSetRangeStore(destination, source, start, stop));
    }

    public long sortedSetReverseRangeStore(String destination, String source, long start, long stop) {
        return await(async.sortedSetReverseRangeStore(destination, source, start, stop));
    }

    public long sortedSetRangeByScoreStore(String destination, String source, ScoreBound min, ScoreBound max,
            RangeLimit limit) {
        return await(async.sortedSetRangeByScoreStore(destination, source, min, max, limit));
    }

    public long sortedSetReverseRangeByScoreStore(String destination, String source, ScoreBound min, ScoreBound max,
            RangeLimit limit) {
        return await(async.sortedSetReverseRangeByScoreStore(destination, source, min, max, limit));
    }

    public long sortedSetRangeByLexStore(String destination, String source, LexBound min, LexBound max, RangeLimit limit) {
        return await(async.sortedSetRangeByLexStore(destination, source, min, max, limit));
    }

    public long sortedSetReverseRangeByLexStore(String destination, String source, LexBound min, LexBound max,
            RangeLimit limit) {
        return await(async.sortedSetReverseRangeByLexStore(destination, source, min, max, limit));
    }

    /** Blocks the calling thread up to {@code timeout}; see {@link AsyncZarisTemplate#sortedSetBlockingPopMin}. */
    public Optional<PoppedMember> sortedSetBlockingPopMin(List<String> keys, Duration timeout) {
        return await(async.sortedSetBlockingPopMin(keys, timeout));
    }

    /** Blocks the calling thread up to {@code timeout}; see {@link AsyncZarisTemplate#sortedSetBlockingPopMax}. */
    public Optional<PoppedMember> sortedSetBlockingPopMax(List<String> keys, Duration timeout) {
        return await(async.sortedSetBlockingPopMax(keys, timeout));
    }

    /** See {@link AsyncZarisTemplate#sortedSetPopMin(List, int)}: ZMPOP … MIN. */
    public Optional<PoppedMembers> sortedSetPopMin(List<String> keys, int count) {
        return await(async.sortedSetPopMin(keys, count));
    }

    /** See {@link AsyncZarisTemplate#sortedSetPopMax(List, int)}: ZMPOP … MAX. */
    public Optional<PoppedMembers> sortedSetPopMax(List<String> keys, int count) {
        return await(async.sortedSetPopMax(keys, count));
    }

    /** Blocks the calling thread up to {@code timeout}; see {@link AsyncZarisTemplate#sortedSetBlockingPopMin(List, int, Duration)}. */
    public Optional<PoppedMembers> sortedSetBlockingPopMin(List<String> keys, int count, Duration timeout) {
        return await(async.sortedSetBlockingPopMin(keys, count, timeout));
    }

    /** Blocks the calling thread up to {@code timeout}; see {@link AsyncZarisTemplate#sortedSetBlockingPopMax(List, int, Duration)}. */
    public Optional<PoppedMembers> sortedSetBlockingPopMax(List<String> keys, int count, Duration timeout) {
        return await(async.sortedSetBlockingPopMax(keys, count, timeout));
    }

    /** See {@link AsyncZarisTemplate#sortedSetScan}: the matching members with their scores, lowest first. */
    public List<ScoredMember> sortedSetScan(String key, String pattern) {
        return await(async.sortedSetScan(key, pattern));
    }

    public List<String> sortedSetRandomMembers(String key, int count) {
        return await(async.sortedSetRandomMembers(key, count));
    }

    public List<ScoredMember> sortedSetRandomMembersWithScores(String key, int count) {
        return await(async.sortedSetRandomMembersWithScores(key, count));
    }

    /**
     * Every change of {@code key} (key, new version, deleted or not), in order, from when the watch is live; one
     * client watch per subscription ({@link ZarisClient#watch}). Ends with {@link ZarisWatchGapException} when
     * changes were missed, never skipping them silently.
     */
    public Flux<KeyChange> watch(String key) {
        return KeyChangeFlux.of(client, key, false);
    }

    /** Like {@link #watch}, for every key that starts with {@code prefix}. */
    public Flux<KeyChange> watchPrefix(String prefix) {
        return KeyChangeFlux.of(client, prefix, true);
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                cause.addSuppressed(new RuntimeException("awaited here"));
                throw cause;
            }
            throw e;
        }
    }
}
