package io.zaris.spring.template;

import io.zaris.client.ZarisClient;
import io.zaris.model.VersionedValue;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.serialization.ZarisSerializationException;
import io.zaris.spring.observation.ZarisOperationObserver;
import io.zaris.spring.serialization.ZarisSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
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
