package io.zaris.spring.cache;

import io.zaris.client.WriteOutcome;
import io.zaris.client.ZarisClient;
import io.zaris.protocol.VersionedValue;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.serialization.ZarisSerializationException;
import io.zaris.spring.serialization.ZarisSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cache.support.AbstractValueAdaptingCache;
import org.springframework.cache.support.NullValue;

/**
 * A Spring {@link org.springframework.cache.Cache} whose entries live in a Zaris cluster.
 *
 * <p><b>Keys.</b> A cache key {@code k} is stored under {@code <key prefix><cache name>::<k>}, so caches
 * never see each other's entries. {@code k} is the key itself when it is a {@code String}, otherwise its
 * {@code toString()}; a key type that does not override {@code toString()} is refused (its identity
 * string would differ in every JVM).
 *
 * <p><b>Values.</b> One marker byte, then the {@link ZarisSerializer}'s bytes: {@code 0} stands for a cached
 * {@code null} ({@link NullValue}, whatever the serializer), {@code 1} for a serialized value. A value
 * that cannot be serialized fails with a {@link ZarisSerializationException} naming cache, key and type.
 *
 * <p><b>Loads ({@code get(key, Callable)}, {@code @Cacheable(sync = true)}).</b> In one JVM the loader
 * runs once per key: the first caller that misses registers a future in {@code loads}, concurrent callers
 * for the same key wait for it. Across JVMs this holds only when {@code clusterWideSync} is on: the loading
 * JVM first takes a loader lease, a {@code putIfAbsent} with the lease TTL on
 * {@code <key prefix><cache name>:lease::<k>}; the lease's version is the fencing token. The holder checks
 * that it still holds the lease right before writing the value, so a loader that stalled past its lease
 * does not overwrite its successor (best-effort: the check and the write are two requests). Other JVMs
 * poll for the value every {@link #LEASE_POLL_INTERVAL} and take the lease over when it expires. Without
 * {@code clusterWideSync}, N application instances may run the loader up to N times per key. A loader
 * that asks the same cache for the same key from inside itself waits for itself: loaders must not recurse.
 *
 * <p><b>Expiry.</b> Every write carries the cache's time to live (stretched by the jitter) or, for a cache
 * with a time to idle, the time to idle. A hit on a time-to-idle cache then slides the entry's expiry with
 * a TTL update sent without waiting for it ({@code touch}); at most {@link #MAX_TOUCHES_IN_FLIGHT} such
 * updates are in flight per cache, and a hit beyond that skips its update. A skipped or failed update only
 * lets the entry expire earlier than an idle clock would say (it is then reloaded), never later.
 *
 * <p><b>clear() and invalidate()</b> scan every node's keys (paged, {@code scanKeys}), keep those under
 * this cache's prefix and delete them with single-key deletes, at most {@link #CLEAR_BATCH} in flight. No
 * node is blocked for longer than one scan page or one delete, but the work grows with the size of the
 * whole keyspace, not just this cache; entries written during the scan may survive it.
 *
 * <p><b>Statistics</b> (hits, misses, puts, evictions) count what this JVM did, for Boot's cache metrics;
 * the entry count is unknown without a scan and is not reported.
 *
 * <p><b>Concurrency.</b> Thread-safe. {@code loads} is the only mutable shared state besides the
 * statistics and the {@code touchesInFlight} semaphore; an entry is added by the loading caller and removed
 * by it when the load ends. A touch's permit is released by its completion callback, which may run on a
 * client network thread and only releases and logs, never blocks. The futures {@code retrieve} returns complete
 * on {@code asyncExecutor}, never on a client network thread: Spring continues the caching aspect on the
 * completing thread, including a blocking {@link #put} after a miss, and a network thread that blocks on a
 * request it must itself read the answer of would deadlock. The {@code retrieve} loader supplier runs on
 * {@code asyncExecutor} too.
 */
public final class ZarisCache extends AbstractValueAdaptingCache {

    private static final Logger log = LoggerFactory.getLogger(ZarisCache.class);

    /** Deletes in flight at once while clearing. */
    static final int CLEAR_BATCH = 1000;
    /** How often a JVM that does not hold the loader lease looks for the value. */
    static final Duration LEASE_POLL_INTERVAL = Duration.ofMillis(50);
    /**
     * How many loader leases a caller waits out before giving up: holders that keep dying (or loads that
     * keep outliving their lease) end in a {@link ValueRetrievalException}, not an endless wait.
     */
    static final int MAX_LEASE_TERMS_WAITED = 3;
    /** Idle-expiry updates in flight at once per cache; hits beyond this do not slide the expiry. */
    static final int MAX_TOUCHES_IN_FLIGHT = 256;

    private static final byte NULL_MARKER = 0;
    private static final byte VALUE_MARKER = 1;

    private final String name;
    private final ZarisClient client;
    private final ZarisSerializer serializer;
    private final ZarisCacheConfiguration configuration;
    private final String keyPrefix;
    private final String leasePrefix;
    private final String leaseOwner;
    private final DoubleSupplier random;
    private final Executor asyncExecutor;
    private final EntrySizeSample entrySizes;
    private final ConcurrentMap<String, CompletableFuture<Object>> loads = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder puts = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    /** Permits for idle-expiry updates; taken on a hit, given back when the update completes. */
    private final Semaphore touchesInFlight = new Semaphore(MAX_TOUCHES_IN_FLIGHT);

    /**
     * @param keyPrefix  prepended to {@code name + "::"} in every stored key
     * @param leaseOwner written into loader leases, to tell holders apart when debugging
     * @param random        source of the TTL jitter, values in [0, 1)
     * @param asyncExecutor where {@code retrieve} futures complete (see the class comment)
     * @param entrySizes    told the size of every entry this cache writes
     */
    ZarisCache(String name, ZarisClient client, ZarisSerializer serializer, ZarisCacheConfiguration configuration,
               String keyPrefix, String leaseOwner, DoubleSupplier random, Executor asyncExecutor,
               EntrySizeSample entrySizes) {
        super(configuration.cacheNullValues());
        this.name = Objects.requireNonNull(name, "name must not be null");
        this.client = Objects.requireNonNull(client, "client must not be null");
        this.serializer = Objects.requireNonNull(serializer, "serializer must not be null");
        this.configuration = configuration;
        this.keyPrefix = keyPrefix + name + "::";
        this.leasePrefix = keyPrefix + name + ":lease::";
        this.leaseOwner = leaseOwner;
        this.random = random;
        this.asyncExecutor = Objects.requireNonNull(asyncExecutor, "asyncExecutor must not be null");
        this.entrySizes = Objects.requireNonNull(entrySizes, "entrySizes must not be null");
    }

    @Override
    public String getName() {
        return name;
    }

    /** The client: a Zaris cache has no in-process store of its own. */
    @Override
    public ZarisClient getNativeCache() {
        return client;
    }

    public ZarisCacheConfiguration getConfiguration() {
        return configuration;
    }

    /** The key an entry of this cache is stored under. */
    public String storeKey(Object key) {
        return keyPrefix + keyText(key);
    }

    @Override
    protected Object lookup(Object key) {
        return count(read(key));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(Object key, Callable<T> valueLoader) {
        Object cached = lookup(key);
        if (cached != null) {
            return (T) fromStoreValue(cached);
        }
        String storeKey = storeKey(key);
        CompletableFuture<Object> mine = new CompletableFuture<>();
        CompletableFuture<Object> running = loads.putIfAbsent(storeKey, mine);
        if (running != null) {
            return (T) fromStoreValue(awaitLoad(running, key, valueLoader));
        }
        try {
            Object loaded = configuration.clusterWideSync() ? loadUnderLease(key, valueLoader) : loadHere(key, valueLoader);
            mine.complete(loaded);
            return (T) fromStoreValue(loaded);
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            loads.remove(storeKey, mine);
        }
    }

    @Override
    public CompletableFuture<?> retrieve(Object key) {
        String storeKey = storeKey(key);
        return client.get(storeKey).thenApplyAsync(found -> {
            Object value = count(found.map(stored -> decode(key, stored.value())).orElse(null));
            touchIfIdleExpiring(storeKey, value);
            if (value == null) {
                return null;
            }
            return isAllowNullValues() ? toValueWrapper(value) : fromStoreValue(value);
        }, asyncExecutor);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        String storeKey = storeKey(key);
        return client.get(storeKey).thenComposeAsync(found -> {
            Object cached = count(found.map(stored -> decode(key, stored.value())).orElse(null));
            touchIfIdleExpiring(storeKey, cached);
            if (cached != null) {
                return CompletableFuture.completedFuture((T) fromStoreValue(cached));
            }
            CompletableFuture<Object> mine = new CompletableFuture<>();
            CompletableFuture<Object> running = loads.putIfAbsent(storeKey, mine);
            if (running != null) {
                return running.thenApplyAsync(value -> (T) fromStoreValue(value), asyncExecutor);
            }
            CompletableFuture<T> supplied;
            try {
                supplied = Objects.requireNonNull(valueLoader.get(), "the value loader returned no future");
            } catch (RuntimeException e) {
                supplied = CompletableFuture.failedFuture(e);
            }
            supplied.thenCompose(value -> {
                Object storeValue = toStoreValue(value);
                return client.put(storeKey, encode(key, storeValue), ttl()).thenApply(version -> {
                    puts.increment();
                    return storeValue;
                });
            }).whenComplete((storeValue, error) -> {
                loads.remove(storeKey, mine);
                if (error != null) {
                    mine.completeExceptionally(error);
                } else {
                    mine.complete(storeValue);
                }
            });
            return mine.thenApplyAsync(value -> (T) fromStoreValue(value), asyncExecutor);
        }, asyncExecutor);
    }

    @Override
    public void put(Object key, Object value) {
        write(key, toStoreValue(value));
    }

    /** Atomic on the owning node (a server-side IfAbsent write); returns the existing value, if any. */
    @Override
    public ValueWrapper putIfAbsent(Object key, Object value) {
        Object storeValue = toStoreValue(value);
        WriteOutcome outcome = client.sync().putIfAbsent(storeKey(key), encode(key, storeValue), ttl());
        if (outcome.applied()) {
            puts.increment();
            return null;
        }
        // Lost to an existing entry; read it (it may have expired or been evicted in between: then null).
        Object existing = read(key);
        return existing == null ? null : toValueWrapper(existing);
    }

    @Override
    public void evict(Object key) {
        evictIfPresent(key);
    }

    @Override
    public boolean evictIfPresent(Object key) {
        boolean existed = client.sync().delete(storeKey(key));
        if (existed) {
            evictions.increment();
        }
        return existed;
    }

    /** Removes every entry of this cache (and of no other); waits until done. See the class comment. */
    @Override
    public void clear() {
        await(clearAsync());
    }

    @Override
    public boolean invalidate() {
        return await(clearAsync()) > 0;
    }

    /** Clears without blocking the caller; completes with the number of entries deleted. */
    public CompletableFuture<Integer> clearAsync() {
        return client.scanKeys().thenCompose(keys -> {
            List<String> mine = new ArrayList<>();
            for (String key : keys) {
                if (key.startsWith(keyPrefix)) {
                    mine.add(key);
                }
            }
            return deleteInBatches(mine, 0, 0);
        });
    }

    // ------------------------------------------------------------------ statistics

    long hitCount() {
        return hits.sum();
    }

    long missCount() {
        return misses.sum();
    }

    long putCount() {
        return puts.sum();
    }

    long evictionCount() {
        return evictions.sum();
    }

    // ------------------------------------------------------------------ internals

    private CompletableFuture<Integer> deleteInBatches(List<String> keys, int from, int deleted) {
        if (from >= keys.size()) {
            return CompletableFuture.completedFuture(deleted);
        }
        int to = Math.min(keys.size(), from + CLEAR_BATCH);
        List<CompletableFuture<Boolean>> batch = new ArrayList<>(to - from);
        for (String key : keys.subList(from, to)) {
            batch.add(client.delete(key));
        }
        return CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).thenCompose(ignored -> {
            int removed = 0;
            for (CompletableFuture<Boolean> delete : batch) {
                if (delete.join()) {
                    removed++;
                }
            }
            evictions.add(removed);
            return deleteInBatches(keys, to, deleted + removed);
        });
    }

    /** The stored value (a store value: {@link NullValue} for a cached null), or {@code null} on a miss. */
    private Object read(Object key) {
        String storeKey = storeKey(key);
        Optional<VersionedValue> found = client.sync().get(storeKey);
        Object storeValue = found.map(stored -> decode(key, stored.value())).orElse(null);
        touchIfIdleExpiring(storeKey, storeValue);
        return storeValue;
    }

    /** After a hit on a time-to-idle cache: slide the entry's expiry, without waiting (class comment). */
    private void touchIfIdleExpiring(String storeKey, Object storeValue) {
        if (storeValue == null || !configuration.expiresWhenIdle() || !touchesInFlight.tryAcquire()) {
            return;
        }
        try {
            client.expire(storeKey, configuration.timeToIdle()).whenComplete((existed, error) -> {
                touchesInFlight.release();
                if (error != null) {
                    log.debug("cache '{}': could not extend the idle expiry of '{}': {}", name, storeKey, error.toString());
                }
            });
        } catch (RuntimeException e) {
            touchesInFlight.release();
            log.debug("cache '{}': could not extend the idle expiry of '{}': {}", name, storeKey, e.toString());
        }
    }

    private Object count(Object storeValue) {
        if (storeValue == null) {
            misses.increment();
        } else {
            hits.increment();
        }
        return storeValue;
    }

    private void write(Object key, Object storeValue) {
        client.sync().put(storeKey(key), encode(key, storeValue), ttl());
        puts.increment();
    }

    /** Loads in this JVM; another JVM may have stored the value meanwhile, so look once more first. */
    private Object loadHere(Object key, Callable<?> valueLoader) {
        Object cached = read(key);
        if (cached != null) {
            return cached;
        }
        Object storeValue = toStoreValue(callLoader(key, valueLoader));
        write(key, storeValue);
        return storeValue;
    }

    /** Loads under the cluster-wide loader lease (see the class comment). */
    private Object loadUnderLease(Object key, Callable<?> valueLoader) {
        String leaseKey = leasePrefix + keyText(key);
        byte[] owner = leaseOwner.getBytes(StandardCharsets.UTF_8);
        long pollsPerLease = Math.max(1, configuration.loaderLeaseTime().toMillis() / LEASE_POLL_INTERVAL.toMillis());
        long pollsLeft = MAX_LEASE_TERMS_WAITED * pollsPerLease;
        while (true) {
            Object cached = read(key);
            if (cached != null) {
                return cached;
            }
            WriteOutcome lease = client.sync().putIfAbsent(leaseKey, owner, configuration.loaderLeaseTime());
            if (lease.applied()) {
                long fencingToken = lease.version();
                try {
                    Object storeValue = toStoreValue(callLoader(key, valueLoader));
                    Optional<VersionedValue> holder = client.sync().get(leaseKey);
                    if (holder.isPresent() && holder.get().version() == fencingToken) {
                        write(key, storeValue);
                    } else {
                        log.warn("cache '{}', key '{}': loader lease expired during the load; not storing the value"
                                + " (another instance may be loading it)", name, keyText(key));
                    }
                    return storeValue;
                } finally {
                    client.sync().deleteIfVersion(leaseKey, fencingToken);
                }
            }
            if (pollsLeft-- <= 0) {
                throw new ValueRetrievalException(key, valueLoader, new IllegalStateException("cache '" + name
                        + "', key '" + keyText(key) + "': no value after waiting " + MAX_LEASE_TERMS_WAITED
                        + " loader lease terms of " + configuration.loaderLeaseTime() + " for other instances' loaders"));
            }
            try {
                TimeUnit.MILLISECONDS.sleep(LEASE_POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ValueRetrievalException(key, valueLoader, e);
            }
        }
    }

    private Object callLoader(Object key, Callable<?> valueLoader) {
        try {
            return valueLoader.call();
        } catch (Exception e) {
            throw new ValueRetrievalException(key, valueLoader, e);
        }
    }

    private Object awaitLoad(CompletableFuture<Object> running, Object key, Callable<?> valueLoader) {
        try {
            return running.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new ValueRetrievalException(key, valueLoader, e.getCause());
        }
    }

    private Duration ttl() {
        return configuration.ttlFor(random.getAsDouble());
    }

    private byte[] encode(Object key, Object storeValue) {
        int keyBytes = storeKey(key).getBytes(StandardCharsets.UTF_8).length;
        if (storeValue == NullValue.INSTANCE) {
            entrySizes.record(keyBytes, 1);
            return new byte[] {NULL_MARKER};
        }
        byte[] payload;
        try {
            payload = serializer.serialize(storeValue);
        } catch (ZarisSerializationException e) {
            throw new ZarisSerializationException("cache '" + name + "', key '" + keyText(key) + "': cannot store a"
                    + " value of type " + storeValue.getClass().getName() + ": " + e.getMessage(), e);
        }
        byte[] bytes = new byte[payload.length + 1];
        bytes[0] = VALUE_MARKER;
        System.arraycopy(payload, 0, bytes, 1, payload.length);
        entrySizes.record(keyBytes, bytes.length);
        return bytes;
    }

    private Object decode(Object key, byte[] bytes) {
        if (bytes.length == 1 && bytes[0] == NULL_MARKER) {
            return NullValue.INSTANCE;
        }
        if (bytes.length == 0 || bytes[0] != VALUE_MARKER) {
            throw new ZarisSerializationException("cache '" + name + "', key '" + keyText(key)
                    + "': the stored entry was not written by a Zaris cache");
        }
        byte[] payload = new byte[bytes.length - 1];
        System.arraycopy(bytes, 1, payload, 0, payload.length);
        try {
            return serializer.deserialize(payload);
        } catch (ZarisSerializationException e) {
            throw new ZarisSerializationException("cache '" + name + "', key '" + keyText(key) + "': "
                    + e.getMessage(), e);
        }
    }

    private String keyText(Object key) {
        if (key instanceof String text) {
            return text;
        }
        Objects.requireNonNull(key, "cache key must not be null");
        try {
            if (key.getClass().getMethod("toString").getDeclaringClass() == Object.class) {
                throw new IllegalArgumentException("cache '" + name + "': key type " + key.getClass().getName()
                        + " does not override toString(), so it has no stable text form; use a String key,"
                        + " a record, or a key generator");
            }
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        return key.toString();
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }
}
