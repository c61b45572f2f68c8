package io.zaris.spring.template;

import io.zaris.client.InsertPosition;
import io.zaris.client.KeyType;
import io.zaris.client.LexBound;
import io.zaris.client.ListEnd;
import io.zaris.client.ListPositionOptions;
import io.zaris.client.PoppedElements;
import io.zaris.client.PoppedMember;
import io.zaris.client.PoppedMembers;
import io.zaris.client.RangeLimit;
import io.zaris.client.ScoreBound;
import io.zaris.client.ScoredMember;
import io.zaris.client.SortedSetAddOptions;
import io.zaris.client.SortedSetCombineOptions;
import io.zaris.client.ZarisClient;
import io.zaris.model.VersionedValue;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.serialization.ZarisSerializationException;
import io.zaris.spring.observation.ZarisOperationObserver;
import io.zaris.spring.serialization.ZarisSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The non-blocking face of {@link ZarisTemplate}: every operation returns a {@link CompletableFuture}
 * that completes on one of the client's network threads. Do not block in its continuations.
 *
 * <p>Thread-safe and stateless apart from its client and serializer.
 */
public final class AsyncZarisTemplate {

    private final ZarisClient client;
    private final ZarisSerializer serializer;
    private final EntrySizeSample entrySizes;
    private final ZarisOperationObserver observer;

    AsyncZarisTemplate(ZarisClient client, ZarisSerializer serializer, EntrySizeSample entrySizes,
            ZarisOperationObserver observer) {
        this.observer = Objects.requireNonNull(observer, "observer must not be null");
        this.entrySizes = Objects.requireNonNull(entrySizes, "entrySizes must not be null");
        this.client = Objects.requireNonNull(client, "client must not be null");
        this.serializer = Objects.requireNonNull(serializer, "serializer must not be null");
    }

    /** The value, or empty when the key does not exist. */
    public <T> CompletableFuture<Optional<T>> get(String key, Class<T> type) {
        return getVersioned(key, type).thenApply(found -> found.map(ZarisValue::value));
    }

    /** The value with its version and remaining TTL, or empty. */
    public <T> CompletableFuture<Optional<ZarisValue<T>>> getVersioned(String key, Class<T> type) {
        return observed("get", () -> client.get(key)).thenApply(found -> found.map(stored -> toValue(key, stored, type)));
    }

    /** Stores the value with no TTL; completes with the key's new version. */
    public CompletableFuture<Long> put(String key, Object value) {
        return put(key, value, null);
    }

    /** Stores the value with a TTL ({@code null} or zero: none); completes with the key's new version. */
    public CompletableFuture<Long> put(String key, Object value, Duration ttl) {
        byte[] bytes = serialize(key, value);
        return observed("put", () -> client.put(key, bytes, ttl));
    }

    /** Stores only if the key does not exist (atomically, on the owning node); completes with whether it did. */
    public CompletableFuture<Boolean> putIfAbsent(String key, Object value, Duration ttl) {
        byte[] bytes = serialize(key, value);
        return observed("put_if_absent", () -> client.putIfAbsent(key, bytes, ttl)).thenApply(outcome -> outcome.applied());
    }

    /**
     * Compare-and-set: stores only if the key's version is still {@code expectedVersion} ({@code 0}: only if
     * absent). A conflict completes normally with {@link CasOutcome#isConflict()}; it is never retried.
     */
    public CompletableFuture<CasOutcome> compareAndSet(String key, Object value, long expectedVersion, Duration ttl) {
        byte[] bytes = serialize(key, value);
        return observed("put_if_version", () -> client.putIfVersion(key, bytes, expectedVersion, ttl))
                .thenApply(outcome -> new CasOutcome(outcome.applied(), outcome.version()));
    }

    /** Deletes only if the key's version is still {@code expectedVersion}; a conflict is never retried. */
    public CompletableFuture<CasOutcome> deleteIfVersion(String key, long expectedVersion) {
        return observed("delete_if_version", () -> client.deleteIfVersion(key, expectedVersion))
                .thenApply(outcome -> new CasOutcome(outcome.applied(), outcome.version()));
    }

    /** Deletes the key; completes with whether it existed. */
    public CompletableFuture<Boolean> delete(String key) {
        return observed("delete", () -> client.delete(key));
    }

    /** Sets (or with {@code null}/zero removes) the key's TTL; completes with whether the key exists. */
    public CompletableFuture<Boolean> expire(String key, Duration ttl) {
        return observed("expire", () -> client.expire(key, ttl));
    }

    /** The type of the value at the key (a string, hash, list, set or sorted set); empty when the key is absent. */
    public CompletableFuture<Optional<KeyType>> type(String key) {
        return observed("type", () -> client.type(key));
    }

    /** Whether the key holds a value of any type. */
    public CompletableFuture<Boolean> exists(String key) {
        return observed("exists", () -> client.exists(key));
    }

    /**
     * Moves the value at {@code source}, of any type and with its expiry, to {@code destination} (keys of one segment),
     * replacing what that held; an absent source fails with {@code ZarisNoSuchKeyException}. Not retried once it may
     * have been applied.
     */
    public CompletableFuture<Void> rename(String source, String destination) {
        return observed("rename", () -> client.rename(source, destination));
    }

    /** As {@link #rename}, only when {@code destination} is absent; completes with whether it renamed. */
    public CompletableFuture<Boolean> renameIfAbsent(String source, String destination) {
        return observed("rename_if_absent", () -> client.renameIfAbsent(source, destination));
    }

    /**
     * Adds {@code delta} to the counter at the key (absent counts as 0) atomically on the owning node;
     * completes with the new value. Counters are stored as decimal text, not through the serializer.
     */
    public CompletableFuture<Long> increment(String key, long delta) {
        return observed("increment", () -> client.increment(key, delta));
    }

    /** The counter's value, or empty when the key does not exist. */
    public CompletableFuture<OptionalLong> counter(String key) {
        return observed("get", () -> client.get(key)).thenApply(found -> {
            if (found.isEmpty()) {
                return OptionalLong.empty();
            }
            String text = new String(found.get().value(), StandardCharsets.US_ASCII);
            try {
                return OptionalLong.of(Long.parseLong(text));
            } catch (NumberFormatException e) {
                throw new ZarisSerializationException("key '" + key + "' does not hold a counter");
            }
        });
    }

    /**
     * Reads keys that share one segment (give them a common {@code {hash tag}}) in one round trip; absent
     * keys are left out.
     */
    public <T> CompletableFuture<Map<String, T>> getAll(Collection<String> keys, Class<T> type) {
        return observed("get_all", () -> client.getAll(keys)).thenApply(found -> {
            Map<String, T> values = new LinkedHashMap<>();
            found.forEach((key, stored) -> values.put(key, toValue(key, stored, type).value()));
            return values;
        });
    }

    /** Writes keys that share one segment atomically; completes with each key's new version. */
    public CompletableFuture<Map<String, Long>> putAll(Map<String, ?> entries, Duration ttl) {
        Map<String, byte[]> bytes = new LinkedHashMap<>();
        entries.forEach((key, value) -> bytes.put(key, serialize(key, value)));
        return observed("put_all", () -> client.putAll(bytes, ttl));
    }

    /** Deletes keys that share one segment; completes with how many existed. */
    public CompletableFuture<Integer> deleteAll(Collection<String> keys) {
        return observed("delete_all", () -> client.deleteAll(keys));
    }

    /**
     * Keys matching a glob ({@code *} any run of characters, {@code ?} one character). Filters
     * {@code scanKeys()} on this side: the cost is a scan of the whole keyspace, whatever the pattern.
     */
    public CompletableFuture<Set<String>> scan(String glob) {
        Pattern pattern = globToRegex(glob);
        return observed("scan", client::scanKeys).thenApply(keys -> filter(keys, key -> pattern.matcher(key).matches()));
    }

    /** Keys starting with {@code prefix}; a full keyspace scan filtered here, like {@link #scan}. */
    public CompletableFuture<Set<String>> scanPrefix(String prefix) {
        Objects.requireNonNull(prefix, "prefix must not be null");
        return observed("scan", client::scanKeys).thenApply(keys -> filter(keys, key -> key.startsWith(prefix)));
    }

    // ------------------------------------------------------------------ hashes, lists, sets, sorted sets
    //
    // Hash field values and list elements are values: they go through the serializer. Hash fields, set members and
    // sorted-set members are names that the node compares and orders, so they stay text. Every call is one client
    // operation, routed and retried by the client as its javadoc says. A key of another type fails with
    // ZarisWrongTypeException.

    /** Sets fields of the hash at the key (creating it; it keeps its TTL); completes with how many fields were new. */
    public CompletableFuture<Long> hashPut(String key, Map<String, ?> fields) {
        Objects.requireNonNull(fields, "fields must not be null");
        Map<String, byte[]> bytes = new LinkedHashMap<>();
        fields.forEach((field, value) -> bytes.put(field, serializeElement(key, "field '" + field + "'", value)));
        return observed("hash_put", () -> client.hashSet(key, bytes));
    }

    /**
     * Sets one field of the hash at the key; completes with whether the field is new (as the last attempt saw it: after
     * an unanswered attempt the client's retry may find the field already set).
     */
    public CompletableFuture<Boolean> hashPut(String key, String field, Object value) {
        byte[] bytes = serializeElement(key, "field '" + field + "'", value);
        return observed("hash_put", () -> client.hashSet(key, Map.of(field, bytes))).thenApply(added -> added == 1);
    }

    /** The value of a field of the hash at the key; empty when the field or the key is absent. */
    public <T> CompletableFuture<Optional<T>> hashGet(String key, String field, Class<T> type) {
        return observed("hash_get", () -> client.hashGet(key, field))
                .thenApply(bytes -> Optional.ofNullable(bytes).map(found -> deserialize(key, "field '" + field + "'", found, type)));
    }

    /**
     * Every field of the hash at the key with its value, in the order the fields were first set (past 128 fields, the
     * server's table order); empty when absent.
     */
    public <T> CompletableFuture<Map<String, T>> hashGetAll(String key, Class<T> type) {
        return observed("hash_get_all", () -> client.hashGetAll(key)).thenApply(found -> {
            Map<String, T> values = new LinkedHashMap<>();
            found.forEach((field, bytes) -> values.put(field, deserialize(key, "field '" + field + "'", bytes, type)));
            return values;
        });
    }

    /** Removes fields of the hash at the key (the hash goes with its last field); completes with how many were there. */
    public CompletableFuture<Long> hashDelete(String key, String... fields) {
        return observed("hash_delete", () -> client.hashDelete(key, fields));
    }

    /**
     * Adds {@code delta} to the integer counter in a field of the hash at the key (absent counts as 0), atomically on
     * the owning node; completes with the new value. Like {@link #increment}, the field holds decimal text, not a
     * serialized value, and an increment whose outcome is unknown is not retried.
     */
    public CompletableFuture<Long> hashIncrement(String key, String field, long delta) {
        return observed("hash_increment", () -> client.hashIncrement(key, field, delta));
    }

    /**
     * The values of several fields of the hash at the key in one request (HMGET): the fields present, in the order
     * asked; empty when the key is absent.
     */
    public <T> CompletableFuture<Map<String, T>> hashGetMany(String key, Class<T> type, String... fields) {
        return observed("hash_get_many", () -> client.hashGetMany(key, fields)).thenApply(found -> {
            Map<String, T> values = new LinkedHashMap<>();
            found.forEach((field, bytes) -> values.put(field, deserialize(key, "field '" + field + "'", bytes, type)));
            return values;
        });
    }

    /** Whether the hash at the key has the field ({@code false} when the key is absent). */
    public CompletableFuture<Boolean> hashContains(String key, String field) {
        return observed("hash_contains", () -> client.hashContains(key, field));
    }

    /**
     * The fields of the hash at the key, in the order they were first set (past 128 fields, the server's table order);
     * empty when the key is absent.
     */
    public CompletableFuture<Set<String>> hashFields(String key) {
        return observed("hash_fields", () -> client.hashFields(key));
    }

    /** How many fields the hash at the key holds (0 when the key is absent). */
    public CompletableFuture<Long> hashSize(String key) {
        return observed("hash_size", () -> client.hashSize(key));
    }

    /**
     * Sets a field of the hash at the key only when it is absent (HSETNX); completes with whether it did. Not retried
     * once it may have been applied.
     */
    public CompletableFuture<Boolean> hashPutIfAbsent(String key, String field, Object value) {
        byte[] bytes = serializeElement(key, "field '" + field + "'", value);
        return observed("hash_put_if_absent", () -> client.hashSetIfAbsent(key, field, bytes));
    }

    /**
     * The values of the hash at the key, in the order their fields were first set (past 128 fields, the server's table
     * order); empty when the key is absent (HVALS).
     */
    public <T> CompletableFuture<List<T>> hashValues(String key, Class<T> type) {
        return observed("hash_values", () -> client.hashValues(key)).thenApply(found -> {
            List<T> values = new ArrayList<>(found.size());
            for (byte[] bytes : found) {
                values.add(deserialize(key, "value", bytes, type));
            }
            return values;
        });
    }

    /** The length in bytes of a field's stored (serialized) value, 0 when the field or the key is absent (HSTRLEN). */
    public CompletableFuture<Long> hashValueLength(String key, String field) {
        return observed("hash_value_length", () -> client.hashValueLength(key, field));
    }

    /**
     * Adds {@code delta} to the decimal number in a field of the hash at the key (HINCRBYFLOAT); completes with the new
     * value. Like {@link #hashIncrement}, the field holds decimal text, not a serialized value, and an increment whose
     * outcome is unknown is not retried.
     */
    public CompletableFuture<Double> hashIncrementFloat(String key, String field, double delta) {
        return observed("hash_increment", () -> client.hashIncrementFloat(key, field, delta));
    }

    /**
     * The fields of the hash at the key whose names match the glob {@code pattern} ({@code null}: every field), with
     * their values (HSCAN … MATCH); empty when the key is absent. One read of the whole hash, filtered in the client
     * ({@link ZarisClient#hashScan}).
     */
    public <T> CompletableFuture<Map<String, T>> hashScan(String key, String pattern, Class<T> type) {
        return observed("hash_scan", () -> client.hashScan(key, pattern)).thenApply(found -> {
            Map<String, T> values = new LinkedHashMap<>();
            found.forEach((field, bytes) -> values.put(field, deserialize(key, "field '" + field + "'", bytes, type)));
            return values;
        });
    }

    /**
     * Fields of the hash at the key picked at random (HRANDFIELD key count): up to {@code count} distinct ones, or, for
     * a negative count, exactly {@code -count} that may repeat; empty when the key is absent.
     */
    public CompletableFuture<List<String>> hashRandomFields(String key, int count) {
        return observed("hash_random_fields", () -> client.hashRandomFields(key, count));
    }

    /** As {@link #hashRandomFields}, each field with its value (HRANDFIELD … WITHVALUES). */
    public <T> CompletableFuture<List<Map.Entry<String, T>>> hashRandomEntries(String key, int count, Class<T> type) {
        return observed("hash_random_fields", () -> client.hashRandomEntries(key, count)).thenApply(found -> {
            List<Map.Entry<String, T>> entries = new ArrayList<>(found.size());
            for (Map.Entry<String, byte[]> entry : found) {
                entries.add(Map.entry(entry.getKey(),
                        deserialize(key, "field '" + entry.getKey() + "'", entry.getValue(), type)));
            }
            return entries;
        });
    }

    /**
     * Pushes values at one end of the list at the key (creating it; it keeps its TTL), one after the other, so that
     * pushing {@code a, b} at the head leaves {@code b} first; completes with the list's length after. Not repeated
     * once it may have been applied (a repeat would push twice). A collection passed as one argument is one value.
     */
    public CompletableFuture<Long> listPush(String key, ListEnd end, Object... values) {
        Objects.requireNonNull(end, "end must not be null");
        byte[][] elements = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            elements[i] = serializeElement(key, "element", values[i]);
        }
        return observed("list_push", () -> client.listPush(key, end, elements));
    }

    /** Removes and returns the value at one end of the list at the key; empty when the key is absent. */
    public <T> CompletableFuture<Optional<T>> listPop(String key, ListEnd end, Class<T> type) {
        return listPop(key, end, 1, type).thenApply(popped -> popped.stream().findFirst());
    }

    /**
     * Removes and returns up to {@code count} values from one end of the list at the key, nearest the end first (the
     * list goes with its last element). Not repeated once it may have been applied. {@link #listBlockingPop} waits
     * for a value.
     */
    public <T> CompletableFuture<List<T>> listPop(String key, ListEnd end, int count, Class<T> type) {
        Objects.requireNonNull(end, "end must not be null");
        return observed("list_pop", () -> client.listPop(key, end, count)).thenApply(popped -> elements(key, popped, type));
    }

    /** The values from index {@code start} to {@code stop}, inclusive; negative indexes count from the end (LRANGE's). */
    public <T> CompletableFuture<List<T>> listRange(String key, long start, long stop, Class<T> type) {
        return observed("list_range", () -> client.listRange(key, start, stop)).thenApply(found -> elements(key, found, type));
    }

    /** How many values the list at the key holds (0 when the key is absent). */
    public CompletableFuture<Long> listLength(String key) {
        return observed("list_length", () -> client.listLength(key));
    }

    /** The value at {@code index} (negative counts from the end); empty when out of range or the key is absent. */
    public <T> CompletableFuture<Optional<T>> listIndex(String key, long index, Class<T> type) {
        return observed("list_index", () -> client.listIndex(key, index))
                .thenApply(found -> Optional.ofNullable(found).map(bytes -> deserialize(key, "element", bytes, type)));
    }

    /**
     * Replaces the value at {@code index} (negative counts from the end). An absent key or an index out of range fails
     * with {@code ZarisStatusException} ({@code BAD_REQUEST}).
     */
    public CompletableFuture<Void> listSet(String key, long index, Object value) {
        byte[] bytes = serializeElement(key, "element", value);
        return observed("list_set", () -> client.listSet(key, index, bytes));
    }

    /**
     * Keeps only the values from {@code start} to {@code stop}, inclusive (negative indexes count from the end); not
     * repeated once it may have been applied.
     */
    public CompletableFuture<Void> listTrim(String key, long start, long stop) {
        return observed("list_trim", () -> client.listTrim(key, start, stop));
    }

    /**
     * Removes values equal to {@code value} (compared serialized): the first {@code count} from the head, the last
     * {@code -count} from the tail, or all for 0; completes with how many went.
     */
    public CompletableFuture<Long> listRemove(String key, long count, Object value) {
        byte[] bytes = serializeElement(key, "element", value);
        return observed("list_remove", () -> client.listRemove(key, count, bytes));
    }

    /**
     * Moves the value at {@code from}'s end of the list at {@code source} to {@code to}'s end of the list at
     * {@code destination} in one step; both keys share one segment (a common {@code {hash tag}}). Empty when the source
     * is absent; not repeated once it may have been applied.
     */
    public <T> CompletableFuture<Optional<T>> listMove(String source, String destination, ListEnd from, ListEnd to,
            Class<T> type) {
        return observed("list_move", () -> client.listMove(source, destination, from, to))
                .thenApply(found -> Optional.ofNullable(found).map(bytes -> deserialize(source, "element", bytes, type)));
    }

    /**
     * Pops the value at one end of the list at the key, waiting up to {@code timeout} for one to arrive (BLPOP or BRPOP
     * on one key); empty when the timeout passed first. The client looks at the list at least every 100 ms and keeps
     * waiting across a failover of the key's owner ({@link ZarisClient#listBlockingPop}).
     */
    public <T> CompletableFuture<Optional<T>> listBlockingPop(String key, ListEnd end, Duration timeout, Class<T> type) {
        return observed("list_blocking_pop", () -> client.listBlockingPop(key, end, timeout))
                .thenApply(found -> Optional.ofNullable(found).map(bytes -> deserialize(key, "element", bytes, type)));
    }

    /**
     * Pops the value at one end of the first of {@code keys} (of one segment) that holds a list, waiting up to
     * {@code timeout} for one (BLPOP or BRPOP on several keys); completes with the key and its value, empty when the
     * timeout passed first. Waits as {@link #listBlockingPop(String, ListEnd, Duration, Class)} does.
     */
    public <T> CompletableFuture<Optional<Map.Entry<String, T>>> listBlockingPop(List<String> keys, ListEnd end,
            Duration timeout, Class<T> type) {
        return observed("list_blocking_pop", () -> client.listBlockingPop(keys, end, timeout)).thenApply(found ->
                Optional.ofNullable(found).map(popped ->
                        Map.entry(popped.key(), deserialize(popped.key(), "element", popped.element(), type))));
    }

    /**
     * Pops up to {@code count} values from one end of the first of {@code keys} (of one segment) that holds a list, in
     * one step (LMPOP); completes with the key and its values, nearest the end first, empty when no key holds a list.
     * Not repeated once it may have been applied.
     */
    public <T> CompletableFuture<Optional<Map.Entry<String, List<T>>>> listPop(List<String> keys, ListEnd end, int count,
            Class<T> type) {
        return observed("list_pop", () -> client.listPop(keys, end, count))
                .thenApply(found -> Optional.ofNullable(found).map(popped -> poppedValues(popped, type)));
    }

    /**
     * {@link #listPop(List, ListEnd, int, Class)}, waiting up to {@code timeout} for one of the keys to hold a list
     * (BLMPOP); empty when the timeout passed first. Waits as {@link #listBlockingPop(String, ListEnd, Duration, Class)}
     * does.
     */
    public <T> CompletableFuture<Optional<Map.Entry<String, List<T>>>> listBlockingPop(List<String> keys, ListEnd end,
            int count, Duration timeout, Class<T> type) {
        return observed("list_blocking_pop", () -> client.listBlockingPop(keys, end, count, timeout))
                .thenApply(found -> Optional.ofNullable(found).map(popped -> poppedValues(popped, type)));
    }

    private <T> Map.Entry<String, List<T>> poppedValues(PoppedElements popped, Class<T> type) {
        return Map.entry(popped.key(), elements(popped.key(), popped.elements(), type));
    }

    /**
     * {@link #listMove}, waiting up to {@code timeout} for the source to hold a value (BLMOVE); empty when the timeout
     * passed first. Waits as {@link #listBlockingPop(String, ListEnd, Duration, Class)} does.
     */
    public <T> CompletableFuture<Optional<T>> listBlockingMove(String source, String destination, ListEnd from, ListEnd to,
            Duration timeout, Class<T> type) {
        return observed("list_blocking_move", () -> client.listBlockingMove(source, destination, from, to, timeout))
                .thenApply(found -> Optional.ofNullable(found).map(bytes -> deserialize(source, "element", bytes, type)));
    }

    /**
     * Pushes values at one end of the list at the key only when it holds a list (LPUSHX, RPUSHX); completes with the
     * length after, 0 when the key is absent. Not repeated once it may have been applied.
     */
    public CompletableFuture<Long> listPushIfExists(String key, ListEnd end, Object... values) {
        Objects.requireNonNull(end, "end must not be null");
        byte[][] elements = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            elements[i] = serializeElement(key, "element", values[i]);
        }
        return observed("list_push_if_exists", () -> client.listPushIfExists(key, end, elements));
    }

    /**
     * Inserts {@code value} before or after the first value equal to {@code pivot} (both compared serialized; LINSERT);
     * completes with the length after, −1 without the pivot, 0 without the key. Not repeated once it may have been
     * applied.
     */
    public CompletableFuture<Long> listInsert(String key, InsertPosition position, Object pivot, Object value) {
        byte[] pivotBytes = serializeElement(key, "pivot", pivot);
        byte[] bytes = serializeElement(key, "element", value);
        return observed("list_insert", () -> client.listInsert(key, position, pivotBytes, bytes));
    }

    /** The index of the first value equal to {@code value} (compared serialized; LPOS); empty when none is. */
    public CompletableFuture<OptionalLong> listPosition(String key, Object value, ListPositionOptions options) {
        byte[] bytes = serializeElement(key, "element", value);
        return observed("list_position", () -> client.listPosition(key, bytes, options))
                .thenApply(index -> index == null ? OptionalLong.empty() : OptionalLong.of(index));
    }

    /** The indexes of up to {@code count} values equal to {@code value} (0: every one; LPOS … COUNT). */
    public CompletableFuture<List<Long>> listPositions(String key, Object value, long count, ListPositionOptions options) {
        byte[] bytes = serializeElement(key, "element", value);
        return observed("list_position", () -> client.listPositions(key, bytes, count, options));
    }

    /** Adds members to the set at the key (creating it; it keeps its TTL); completes with how many were new. */
    public CompletableFuture<Long> setAdd(String key, String... members) {
        return observed("set_add", () -> client.setAdd(key, members));
    }

    /** Removes members of the set at the key (the set goes with its last member); completes with how many were there. */
    public CompletableFuture<Long> setRemove(String key, String... members) {
        return observed("set_remove", () -> client.setRemove(key, members));
    }

    /**
     * Every member of the set at the key, in the order they were first added (past 128 members, the server's table
     * order); empty when the key is absent.
     */
    public CompletableFuture<Set<String>> setMembers(String key) {
        return observed("set_members", () -> client.setMembers(key));
    }

    /** Whether the set at the key holds the member ({@code false} when the key is absent). */
    public CompletableFuture<Boolean> setContains(String key, String member) {
        return observed("set_contains", () -> client.setContains(key, member));
    }

    /** How many members the set at the key holds (0 when the key is absent). */
    public CompletableFuture<Long> setSize(String key) {
        return observed("set_size", () -> client.setSize(key));
    }

    /**
     * Removes up to {@code count} members of the set at the key chosen at random and completes with them; not repeated
     * once it may have been applied.
     */
    public CompletableFuture<Set<String>> setPop(String key, int count) {
        return observed("set_pop", () -> client.setPop(key, count));
    }

    /**
     * Members chosen at random, the set left as it is: up to {@code count} distinct ones, or for a negative count
     * exactly {@code -count} that may repeat.
     */
    public CompletableFuture<List<String>> setRandomMembers(String key, int count) {
        return observed("set_random_members", () -> client.setRandomMembers(key, count));
    }

    /** The members every set at the keys holds (an absent key is an empty set); keys of one segment. */
    public CompletableFuture<Set<String>> setIntersection(String... keys) {
        return observed("set_intersection", () -> client.setIntersection(keys));
    }

    /** The members any set at the keys holds; keys of one segment. */
    public CompletableFuture<Set<String>> setUnion(String... keys) {
        return observed("set_union", () -> client.setUnion(keys));
    }

    /** The members of the first key's set that none of the others holds; keys of one segment. */
    public CompletableFuture<Set<String>> setDifference(String... keys) {
        return observed("set_difference", () -> client.setDifference(keys));
    }

    /**
     * Stores {@link #setIntersection} of the keys at {@code destination} (of their segment), replacing what it held;
     * completes with the result's size (0 leaves the destination absent).
     */
    public CompletableFuture<Long> setIntersectionStore(String destination, String... keys) {
        return observed("set_intersection_store", () -> client.setIntersectionStore(destination, keys));
    }

    /** As {@link #setIntersectionStore}, storing {@link #setUnion}. */
    public CompletableFuture<Long> setUnionStore(String destination, String... keys) {
        return observed("set_union_store", () -> client.setUnionStore(destination, keys));
    }

    /** As {@link #setIntersectionStore}, storing {@link #setDifference}. */
    public CompletableFuture<Long> setDifferenceStore(String destination, String... keys) {
        return observed("set_difference_store", () -> client.setDifferenceStore(destination, keys));
    }

    /** Whether the set at the key holds each member, in the order asked (SMISMEMBER, one request). */
    public CompletableFuture<List<Boolean>> setContainsMany(String key, String... members) {
        return observed("set_contains_many", () -> client.setContainsMany(key, members));
    }

    /**
     * Moves a member from the set at {@code source} to the set at {@code destination} (keys of one segment) in one step;
     * completes with whether the member was in the source. Not retried once it may have been applied.
     */
    public CompletableFuture<Boolean> setMove(String source, String destination, String member) {
        return observed("set_move", () -> client.setMove(source, destination, member));
    }

    /** How many members every set at the keys holds (SINTERCARD); keys of one segment. */
    public CompletableFuture<Long> setIntersectionSize(String... keys) {
        return observed("set_intersection_size", () -> client.setIntersectionSize(keys));
    }

    /** As {@link #setIntersectionSize(String...)}, counting at most {@code limit} (0: no limit). */
    public CompletableFuture<Long> setIntersectionSize(long limit, String... keys) {
        return observed("set_intersection_size", () -> client.setIntersectionSize(limit, keys));
    }

    /**
     * The members of the set at the key that match the glob {@code pattern} ({@code null}: every member; SSCAN …
     * MATCH); empty when the key is absent. One read of the whole set, filtered in the client.
     */
    public CompletableFuture<Set<String>> setScan(String key, String pattern) {
        return observed("set_scan", () -> client.setScan(key, pattern));
    }

    /** Gives each member its score in the sorted set at the key (creating it); completes with how many were new. */
    public CompletableFuture<Long> sortedSetAdd(String key, Map<String, Double> scores) {
        return observed("sorted_set_add", () -> client.sortedSetAdd(key, scores));
    }

    /** Gives one member its score; completes with whether the member is new (as the last attempt saw it). */
    public CompletableFuture<Boolean> sortedSetAdd(String key, String member, double score) {
        return observed("sorted_set_add", () -> client.sortedSetAdd(key, Map.of(member, score))).thenApply(added -> added == 1);
    }

    /**
     * Adds {@code delta} to the member's score (0 when absent), as ZINCRBY; completes with the new score. Not retried
     * once it may have been applied.
     */
    public CompletableFuture<Double> sortedSetIncrement(String key, String member, double delta) {
        return observed("sorted_set_increment", () -> client.sortedSetIncrement(key, member, delta));
    }

    /** The member's score; empty when the member or the key is absent. */
    public CompletableFuture<Optional<Double>> sortedSetScore(String key, String member) {
        return observed("sorted_set_score", () -> client.sortedSetScore(key, member)).thenApply(Optional::ofNullable);
    }

    /** The member's rank, 0 for the lowest score (for the highest when {@code reverse}); empty when absent. */
    public CompletableFuture<OptionalLong> sortedSetRank(String key, String member, boolean reverse) {
        return observed("sorted_set_rank", () -> client.sortedSetRank(key, member, reverse))
                .thenApply(rank -> rank == null ? OptionalLong.empty() : OptionalLong.of(rank));
    }

    /**
     * The members ranked {@code start} to {@code stop} (inclusive; negative ranks count from the highest) with their
     * scores, lowest first.
     */
    public CompletableFuture<List<ScoredMember>> sortedSetRange(String key, long start, long stop) {
        return observed("sorted_set_range", () -> client.sortedSetRange(key, start, stop));
    }

    /** The members whose scores lie within {@code min} and {@code max} (inclusive, may be infinite), lowest first. */
    public CompletableFuture<List<ScoredMember>> sortedSetRangeByScore(String key, double min, double max) {
        return observed("sorted_set_range", () -> client.sortedSetRangeByScore(key, min, max));
    }

    /** Removes members of the sorted set at the key (it goes with its last member); completes with how many were there. */
    public CompletableFuture<Long> sortedSetRemove(String key, String... members) {
        return observed("sorted_set_remove", () -> client.sortedSetRemove(key, members));
    }

    /** How many members the sorted set at the key holds (0 when the key is absent). */
    public CompletableFuture<Long> sortedSetSize(String key) {
        return observed("sorted_set_size", () -> client.sortedSetSize(key));
    }

    /** As {@link #sortedSetRange}, rank 0 being the highest score, listed first. */
    public CompletableFuture<List<ScoredMember>> sortedSetReverseRange(String key, long start, long stop) {
        return observed("sorted_set_range", () -> client.sortedSetReverseRange(key, start, stop));
    }

    /** As {@link #sortedSetRangeByScore}, highest score first (the bounds still given lowest first). */
    public CompletableFuture<List<ScoredMember>> sortedSetReverseRangeByScore(String key, double min, double max) {
        return observed("sorted_set_range", () -> client.sortedSetReverseRangeByScore(key, min, max));
    }

    /** How many members have a score within {@code min} and {@code max}, inclusive. */
    public CompletableFuture<Long> sortedSetCount(String key, double min, double max) {
        return observed("sorted_set_count", () -> client.sortedSetCount(key, min, max));
    }

    /** Removes the members whose scores lie within {@code min} and {@code max}, inclusive; completes with how many went. */
    public CompletableFuture<Long> sortedSetRemoveRangeByScore(String key, double min, double max) {
        return observed("sorted_set_remove_range", () -> client.sortedSetRemoveRangeByScore(key, min, max));
    }

    /** Removes and returns up to {@code count} members of the lowest scores, lowest first; not repeated once it may have been applied. */
    public CompletableFuture<List<ScoredMember>> sortedSetPopMin(String key, int count) {
        return observed("sorted_set_pop", () -> client.sortedSetPopMin(key, count));
    }

    /** Removes and returns up to {@code count} members of the highest scores, highest first. */
    public CompletableFuture<List<ScoredMember>> sortedSetPopMax(String key, int count) {
        return observed("sorted_set_pop", () -> client.sortedSetPopMax(key, count));
    }

    /**
     * Gives members their scores as {@code options} allow (Redis's ZADD NX, XX, GT, LT, CH); completes with how many were
     * added (and changed, with {@link SortedSetAddOptions#countChanged}).
     */
    public CompletableFuture<Long> sortedSetAdd(String key, Map<String, Double> scores, SortedSetAddOptions options) {
        return observed("sorted_set_add", () -> client.sortedSetAdd(key, scores, options));
    }

    /**
     * Adds {@code delta} to the member's score as {@code options} allow (ZADD INCR); completes with the new score, empty
     * when a condition kept the member as it was. Not retried once it may have been applied.
     */
    public CompletableFuture<Optional<Double>> sortedSetIncrement(String key, String member, double delta,
            SortedSetAddOptions options) {
        return observed("sorted_set_increment", () -> client.sortedSetIncrement(key, member, delta, options))
                .thenApply(Optional::ofNullable);
    }

    /** The scores of several members in one request (ZMSCORE): the members present, in the order asked. */
    public CompletableFuture<Map<String, Double>> sortedSetScores(String key, String... members) {
        return observed("sorted_set_scores", () -> client.sortedSetScores(key, members));
    }

    /** The members with a score between {@code min} and {@code max} (each inclusive, exclusive or open), the part {@code limit} names, lowest first. */
    public CompletableFuture<List<ScoredMember>> sortedSetRangeByScore(String key, ScoreBound min, ScoreBound max,
            RangeLimit limit) {
        return observed("sorted_set_range", () -> client.sortedSetRangeByScore(key, min, max, limit));
    }

    /** As {@link #sortedSetRangeByScore(String, ScoreBound, ScoreBound, RangeLimit)}, highest first. */
    public CompletableFuture<List<ScoredMember>> sortedSetReverseRangeByScore(String key, ScoreBound min, ScoreBound max,
            RangeLimit limit) {
        return observed("sorted_set_range", () -> client.sortedSetReverseRangeByScore(key, min, max, limit));
    }

    /** How many members have a score between {@code min} and {@code max}. */
    public CompletableFuture<Long> sortedSetCount(String key, ScoreBound min, ScoreBound max) {
        return observed("sorted_set_count", () -> client.sortedSetCount(key, min, max));
    }

    /** Removes the members with a score between {@code min} and {@code max}; completes with how many went. */
    public CompletableFuture<Long> sortedSetRemoveRangeByScore(String key, ScoreBound min, ScoreBound max) {
        return observed("sorted_set_remove_range", () -> client.sortedSetRemoveRangeByScore(key, min, max));
    }

    /** The members between {@code min} and {@code max} in member order (ZRANGEBYLEX), the part {@code limit} names. */
    public CompletableFuture<List<String>> sortedSetRangeByLex(String key, LexBound min, LexBound max, RangeLimit limit) {
        return observed("sorted_set_range", () -> client.sortedSetRangeByLex(key, min, max, limit));
    }

    /** As {@link #sortedSetRangeByLex}, from the last member back (the bounds still given lowest first). */
    public CompletableFuture<List<String>> sortedSetReverseRangeByLex(String key, LexBound min, LexBound max,
            RangeLimit limit) {
        return observed("sorted_set_range", () -> client.sortedSetReverseRangeByLex(key, min, max, limit));
    }

    /** How many members lie between {@code min} and {@code max} in member order (ZLEXCOUNT). */
    public CompletableFuture<Long> sortedSetLexCount(String key, LexBound min, LexBound max) {
        return observed("sorted_set_count", () -> client.sortedSetLexCount(key, min, max));
    }

    /** Removes the members between {@code min} and {@code max} in member order; completes with how many went. */
    public CompletableFuture<Long> sortedSetRemoveRangeByLex(String key, LexBound min, LexBound max) {
        return observed("sorted_set_remove_range", () -> client.sortedSetRemoveRangeByLex(key, min, max));
    }

    /**
     * Removes the members ranked {@code start} to {@code stop} (lowest score first; negative ranks count from the
     * highest); completes with how many went. Not retried once it may have been applied.
     */
    public CompletableFuture<Long> sortedSetRemoveRangeByRank(String key, long start, long stop) {
        return observed("sorted_set_remove_range", () -> client.sortedSetRemoveRangeByRank(key, start, stop));
    }

    /** The members any sorted set (or set) at the keys holds, scores summed, lowest first (ZUNION); keys of one segment. */
    public CompletableFuture<List<ScoredMember>> sortedSetUnion(String... keys) {
        return observed("sorted_set_union", () -> client.sortedSetUnion(keys));
    }

    /** As {@link #sortedSetUnion(String...)}, the scores weighted and combined as {@code options} say. */
    public CompletableFuture<List<ScoredMember>> sortedSetUnion(SortedSetCombineOptions options, String... keys) {
        return observed("sorted_set_union", () -> client.sortedSetUnion(options, keys));
    }

    /** The members every sorted set at the keys holds, scores summed, lowest first (ZINTER); keys of one segment. */
    public CompletableFuture<List<ScoredMember>> sortedSetIntersection(String... keys) {
        return observed("sorted_set_intersection", () -> client.sortedSetIntersection(keys));
    }

    /** As {@link #sortedSetIntersection(String...)}, the scores weighted and combined as {@code options} say. */
    public CompletableFuture<List<ScoredMember>> sortedSetIntersection(SortedSetCombineOptions options, String... keys) {
        return observed("sorted_set_intersection", () -> client.sortedSetIntersection(options, keys));
    }

    /** The members of the first key's sorted set that none of the others holds (ZDIFF); keys of one segment. */
    public CompletableFuture<List<ScoredMember>> sortedSetDifference(String... keys) {
        return observed("sorted_set_difference", () -> client.sortedSetDifference(keys));
    }

    /**
     * Stores {@link #sortedSetUnion(String...)} at {@code destination} (of the keys' segment), replacing what it held;
     * completes with the result's size (0 leaves the destination absent). Retried as an idempotent write unless the
     * destination is among the keys.
     */
    public CompletableFuture<Long> sortedSetUnionStore(String destination, String... keys) {
        return observed("sorted_set_union_store", () -> client.sortedSetUnionStore(destination, keys));
    }

    /** As {@link #sortedSetUnionStore(String, String...)}, the scores weighted and combined as {@code options} say. */
    public CompletableFuture<Long> sortedSetUnionStore(String destination, SortedSetCombineOptions options, String... keys) {
        return observed("sorted_set_union_store", () -> client.sortedSetUnionStore(destination, options, keys));
    }

    /** As {@link #sortedSetUnionStore(String, String...)}, storing the intersection (ZINTERSTORE). */
    public CompletableFuture<Long> sortedSetIntersectionStore(String destination, String... keys) {
        return observed("sorted_set_intersection_store", () -> client.sortedSetIntersectionStore(destination, keys));
    }

    /** As {@link #sortedSetIntersectionStore(String, String...)}, the scores weighted and combined as {@code options} say. */
    public CompletableFuture<Long> sortedSetIntersectionStore(String destination, SortedSetCombineOptions options,
            String... keys) {
        return observed("sorted_set_intersection_store",
                () -> client.sortedSetIntersectionStore(destination, options, keys));
    }

    /** As {@link #sortedSetUnionStore(String, String...)}, storing the difference (ZDIFFSTORE). */
    public CompletableFuture<Long> sortedSetDifferenceStore(String destination, String... keys) {
        return observed("sorted_set_difference_store", () -> client.sortedSetDifferenceStore(destination, keys));
    }

    /** How many members every sorted set at the keys holds (ZINTERCARD); keys of one segment. */
    public CompletableFuture<Long> sortedSetIntersectionSize(String... keys) {
        return observed("sorted_set_intersection_size", () -> client.sortedSetIntersectionSize(keys));
    }

    /** As {@link #sortedSetIntersectionSize(String...)}, counting at most {@code limit} (0: no limit). */
    public CompletableFuture<Long> sortedSetIntersectionSize(long limit, String... keys) {
        return observed("sorted_set_intersection_size", () -> client.sortedSetIntersectionSize(limit, keys));
    }

    /**
     * Stores the members of {@code source} ranked {@code start} to {@code stop}, with their scores, at {@code destination}
     * (ZRANGESTORE; keys of one segment), replacing what it held; completes with how many members it stored (0 leaves
     * the destination absent). See {@link ZarisClient#sortedSetRangeStore} for its two steps.
     */
    public CompletableFuture<Long> sortedSetRangeStore(String destination, String source, long start, long stop) {
        return observed("sorted_set_range_store", () -> client.sortedSetRangeStore(destination, source, start, stop));
    }

    /** As {@link #sortedSetRangeStore}, ranks counted from the highest score (REV). */
    public CompletableFuture<Long> sortedSetReverseRangeStore(String destination, String source, long start, long stop) {
        return observed("sorted_set_range_store",
                () -> client.sortedSetReverseRangeStore(destination, source, start, stop));
    }

    /** As {@link #sortedSetRangeStore}, the members with a score between {@code min} and {@code max} (BYSCORE, LIMIT). */
    public CompletableFuture<Long> sortedSetRangeByScoreStore(String destination, String source, ScoreBound min,
            ScoreBound max, RangeLimit limit) {
        return observed("sorted_set_range_store",
                () -> client.sortedSetRangeByScoreStore(destination, source, min, max, limit));
    }

    /** As {@link #sortedSetRangeByScoreStore}, taken from the highest score down (BYSCORE REV). */
    public CompletableFuture<Long> sortedSetReverseRangeByScoreStore(String destination, String source, ScoreBound min,
            ScoreBound max, RangeLimit limit) {
        return observed("sorted_set_range_store",
                () -> client.sortedSetReverseRangeByScoreStore(destination, source, min, max, limit));
    }

    /** As {@link #sortedSetRangeStore}, the members between {@code min} and {@code max} in member order (BYLEX, LIMIT). */
    public CompletableFuture<Long> sortedSetRangeByLexStore(String destination, String source, LexBound min, LexBound max,
            RangeLimit limit) {
        return observed("sorted_set_range_store",
                () -> client.sortedSetRangeByLexStore(destination, source, min, max, limit));
    }

    /** As {@link #sortedSetRangeByLexStore}, taken from the last member back (BYLEX REV). */
    public CompletableFuture<Long> sortedSetReverseRangeByLexStore(String destination, String source, LexBound min,
            LexBound max, RangeLimit limit) {
        return observed("sorted_set_range_store",
                () -> client.sortedSetReverseRangeByLexStore(destination, source, min, max, limit));
    }

    /**
     * Pops the lowest-scored member of the first of {@code keys} (of one segment) that holds a sorted set, waiting up
     * to {@code timeout} for one (BZPOPMIN); empty when the timeout passed first. Waits as {@link #listBlockingPop} does.
     */
    public CompletableFuture<Optional<PoppedMember>> sortedSetBlockingPopMin(List<String> keys, Duration timeout) {
        return observed("sorted_set_blocking_pop", () -> client.sortedSetBlockingPopMin(keys, timeout))
                .thenApply(Optional::ofNullable);
    }

    /** As {@link #sortedSetBlockingPopMin}, the highest-scored member (BZPOPMAX). */
    public CompletableFuture<Optional<PoppedMember>> sortedSetBlockingPopMax(List<String> keys, Duration timeout) {
        return observed("sorted_set_blocking_pop", () -> client.sortedSetBlockingPopMax(keys, timeout))
                .thenApply(Optional::ofNullable);
    }

    /**
     * Pops up to {@code count} lowest-scored members of the first of {@code keys} (of one segment) that holds a sorted
     * set, in one step (ZMPOP … MIN); empty when no key holds one. Not repeated once it may have been applied.
     */
    public CompletableFuture<Optional<PoppedMembers>> sortedSetPopMin(List<String> keys, int count) {
        return observed("sorted_set_pop", () -> client.sortedSetPopMin(keys, count)).thenApply(Optional::ofNullable);
    }

    /** As {@link #sortedSetPopMin(List, int)}, the highest-scored members, highest first (ZMPOP … MAX). */
    public CompletableFuture<Optional<PoppedMembers>> sortedSetPopMax(List<String> keys, int count) {
        return observed("sorted_set_pop", () -> client.sortedSetPopMax(keys, count)).thenApply(Optional::ofNullable);
    }

    /**
     * {@link #sortedSetPopMin(List, int)}, waiting up to {@code timeout} for one of the keys to hold a sorted set (BZMPOP
     * … MIN); empty when the timeout passed first. Waits as {@link #listBlockingPop} does.
     */
    public CompletableFuture<Optional<PoppedMembers>> sortedSetBlockingPopMin(List<String> keys, int count, Duration timeout) {
        return observed("sorted_set_blocking_pop", () -> client.sortedSetBlockingPopMin(keys, count, timeout))
                .thenApply(Optional::ofNullable);
    }

    /** As {@link #sortedSetBlockingPopMin(List, int, Duration)}, the highest scores first (BZMPOP … MAX). */
    public CompletableFuture<Optional<PoppedMembers>> sortedSetBlockingPopMax(List<String> keys, int count, Duration timeout) {
        return observed("sorted_set_blocking_pop", () -> client.sortedSetBlockingPopMax(keys, count, timeout))
                .thenApply(Optional::ofNullable);
    }

    /**
     * The members of the sorted set at the key that match the glob {@code pattern} ({@code null}: every member), with
     * their scores, lowest first (ZSCAN … MATCH); one read of the whole sorted set, filtered in the client.
     */
    public CompletableFuture<List<ScoredMember>> sortedSetScan(String key, String pattern) {
        return observed("sorted_set_scan", () -> client.sortedSetScan(key, pattern));
    }

    /** Members of the sorted set at the key picked at random (ZRANDMEMBER key count), by {@link #hashRandomFields}'s rule. */
    public CompletableFuture<List<String>> sortedSetRandomMembers(String key, int count) {
        return observed("sorted_set_random_members", () -> client.sortedSetRandomMembers(key, count));
    }

    /** As {@link #sortedSetRandomMembers}, each member with its score (ZRANDMEMBER … WITHSCORES). */
    public CompletableFuture<List<ScoredMember>> sortedSetRandomMembersWithScores(String key, int count) {
        return observed("sorted_set_random_members", () -> client.sortedSetRandomMembersWithScores(key, count));
    }

    private <T> CompletableFuture<T> observed(String operation, Supplier<CompletableFuture<T>> call) {
        return observer.observe(operation, call);
    }

    static Pattern globToRegex(String glob) {
        Objects.requireNonNull(glob, "pattern must not be null");
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    private static Set<String> filter(Set<String> keys, java.util.function.Predicate<String> keep) {
        Set<String> matching = new java.util.LinkedHashSet<>();
        for (String key : keys) {
            if (keep.test(key)) {
                matching.add(key);
            }
        }
        return matching;
    }

    private byte[] serialize(String key, Object value) {
        Objects.requireNonNull(value, "value must not be null");
        try {
            byte[] bytes = serializer.serialize(value);
            entrySizes.record(key.getBytes(StandardCharsets.UTF_8).length, bytes.length);
            return bytes;
        } catch (ZarisSerializationException e) {
            throw new ZarisSerializationException("key '" + key + "': cannot store a value of type "
                    + value.getClass().getName() + ": " + e.getMessage(), e);
        }
    }

    /** A hash field's value or a list element: serialized, not sampled as an entry (the key is the entry). */
    private byte[] serializeElement(String key, String what, Object value) {
        Objects.requireNonNull(value, "value must not be null");
        try {
            return serializer.serialize(value);
        } catch (ZarisSerializationException e) {
            throw new ZarisSerializationException("key '" + key + "' " + what + ": cannot store a value of type "
                    + value.getClass().getName() + ": " + e.getMessage(), e);
        }
    }

    private <T> List<T> elements(String key, List<byte[]> found, Class<T> type) {
        List<T> values = new ArrayList<>(found.size());
        for (byte[] bytes : found) {
            values.add(deserialize(key, "element", bytes, type));
        }
        return values;
    }

    private <T> T deserialize(String key, String what, byte[] bytes, Class<T> type) {
        Object value;
        try {
            value = serializer.deserialize(bytes);
        } catch (ZarisSerializationException e) {
            throw new ZarisSerializationException("key '" + key + "' " + what + ": " + e.getMessage(), e);
        }
        if (!type.isInstance(value)) {
            throw new ZarisSerializationException("key '" + key + "' " + what + " holds a " + value.getClass().getName()
                    + ", not a " + type.getName());
        }
        return type.cast(value);
    }

    private <T> ZarisValue<T> toValue(String key, VersionedValue stored, Class<T> type) {
        Object value;
        try {
            value = serializer.deserialize(stored.value());
        } catch (ZarisSerializationException e) {
            throw new ZarisSerializationException("key '" + key + "': " + e.getMessage(), e);
        }
        if (!type.isInstance(value)) {
            throw new ZarisSerializationException("key '" + key + "' holds a " + value.getClass().getName()
                    + ", not a " + type.getName());
        }
        Duration ttl = stored.ttlRemainingMillis() > 0 ? Duration.ofMillis(stored.ttlRemainingMillis()) : null;
        return new ZarisValue<>(type.cast(value), stored.version(), ttl);
    }
}
