package io.zaris.spring.template;

import io.zaris.client.KeyChange;
import io.zaris.client.ZarisClient;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.observation.ZarisOperationObserver;
import io.zaris.spring.serialization.ZarisSerializer;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import reactor.core.publisher.Flux;

/**
 * Typed access to Zaris for application code: values go through the configured {@link ZarisSerializer};
 * versions, TTLs, compare-and-set, counters, hash-tag multi-key operations and scans come from the client.
 *
 * <p>Every method blocks the calling thread until the answer arrives (use it from request threads, not
 * from the client's network threads); {@link #async()} has the same operations returning
 * {@link CompletableFuture}s. Failures surface unwrapped: {@code ZarisException} subclasses from the
 * client, {@code ZarisSerializationException} for values, {@link IllegalArgumentException} for bad
 * arguments (e.g. multi-key operations on keys of different segments).
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
