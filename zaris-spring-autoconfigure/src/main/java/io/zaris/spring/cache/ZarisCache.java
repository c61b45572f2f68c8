package io.zaris.spring.cache;

import io.zaris.client.NearCacheRead;
import io.zaris.client.ReadResult;
import io.zaris.client.WriteOutcome;
import io.zaris.client.ZarisClient;
import io.zaris.model.VersionedValue;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.serialization.ZarisSerializationException;
import io.zaris.spring.observation.ZarisOperationObserver;
import io.zaris.spring.serialization.ZarisSerializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
import java.util.concurrent.atomic.AtomicInteger;
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
 * for the same key wait for it. Across JVMs this holds only when {@code clusterWideSync} is on, through a
 * loader lease kept in the entry's own key: the loading JVM first writes a lease marker ({@link #LEASE_MARKER}
 * and its owner name) with an IfAbsent write and the lease TTL; the version that write returns is the
 * fencing token. It then stores the loaded value with a compare-and-set on that version, so the store
 * itself refuses the write when the lease is no longer the one this loader took: it expired and a
 * successor took the key over, or the entry was evicted, cleared or written meanwhile. Other JVMs read the
 * marker as a miss, poll for the value every {@link #LEASE_POLL_INTERVAL} and take the lease over when it
 * expires. A loader that fails deletes its lease (again only if the version still matches). Without
 * {@code clusterWideSync}, N application instances may run the loader up to N times per key. The async
 * {@code retrieve(key, Supplier)} follows the same rules without blocking (its polls are scheduled on
 * {@code asyncExecutor}). A loader that asks the same cache for the same key from inside itself waits for
 * itself: loaders must not recurse.
 *
 * <p><b>Failures.</b> Operations throw what the client throws; Spring's cache error handling decides
 * (see {@link ZarisCacheErrorHandler}). One case is decided here, because Spring cannot: when the store
 * after a successful {@code sync = true} load fails, the manager's {@link ZarisCacheErrorHandler} is asked
 * first. If it lets the failure fall through, the loaded value is returned to the caller and to the
 * callers waiting on that load, as if stored; thrown instead, Spring's handling would run the method a
 * second time for the caller and once more for every waiting caller. A failed lookup before a load is
 * thrown as usual: with fall-through, Spring then runs the method for that caller without the cache, so
 * while reads fail, concurrent misses of one key each run it.
 *
 * <p><b>Expiry.</b> Every write carries the entry's lifetime (the cache's time to live, or its TTL function's
 * answer for the key and value, stretched by the jitter) or, for a cache with a time to idle, the shorter of the
 * time to idle and the lifetime. A hit on a time-to-idle cache then slides the entry's expiry with a TTL update
 * sent without waiting for it ({@code touch}); at most {@link #MAX_TOUCHES_IN_FLIGHT} such updates are in
 * flight per cache, and a hit beyond that skips its update. A skipped or failed update only lets the entry
 * expire earlier than an idle clock would say (it is then reloaded), never later. The node keeps one expiry
 * per entry, so when a time-to-idle cache also has a lifetime, the lifetime's end travels in the entry
 * ({@link #LIFETIME_MARKER}): a touch slides the expiry no further than that end, and a read after it is a
 * miss even if the node still holds the entry. That end is the writer's wall clock; JVMs whose clocks differ
 * by some seconds see the lifetime end that much earlier or later.
 *
 * <p><b>clear() and invalidate()</b> walk every node's keys a page at a time
 * ({@link ZarisClient#scanKeyPages}), keep those under this cache's prefix and delete them with single-key
 * deletes, at most {@link #CLEAR_BATCH} in flight per node; a node's next page is fetched when its previous
 * page's deletes are done. Memory stays at one page per node, no node is blocked for longer than one scan
 * page or one delete, but the work grows with the size of the whole keyspace, not just this cache; entries
 * written during the clear may survive it.
 *
 * <p><b>Statistics</b> (hits, misses, puts, evictions) count what this JVM did, for Boot's cache metrics;
 * the entry count is unknown without a scan and is not reported. Of the hits, those the client's near cache
 * answered without a round trip are counted apart as well.
 *
 * <p><b>Near cache.</b> Every read of this cache uses the client's near cache as the configuration's
 * {@link NearCacheSettings} say: as it is, with a time to live of this cache's own, or not at all.
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

    /** Deletes in flight at once per node while clearing. */
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
    /** First byte of a loader lease held in the entry's key; the owner's name follows. Reads see a miss. */
    static final byte LEASE_MARKER = 2;
    /**
     * First byte of an entry of a time-to-idle cache that also has a lifetime: the lifetime's end (epoch millis
     * of the writer's clock, 8 bytes) follows, then the entry as above. A read past that end is a miss.
     */
    static final byte LIFETIME_MARKER = 3;
    private static final int LIFETIME_HEADER_BYTES = 1 + Long.BYTES;
    private static final long NO_LIFETIME_END = Long.MIN_VALUE;

    private final String name;
    private final ZarisClient client;
    private final ZarisSerializer serializer;
    /** Immutable values decoded from near-cache hits, by the near entry's bytes. */
    private final NearDecodedValues nearDecoded = new NearDecodedValues();
    private final ZarisCacheConfiguration configuration;
    private final String keyPrefix;
    private final byte[] leaseMarker;
    private final DoubleSupplier random;
    private final Executor asyncExecutor;
    private final EntrySizeSample entrySizes;
    private final Supplier<ZarisCacheErrorHandler> errorHandler;
    private final Clock clock;
    private final ZarisOperationObserver observer;
    private final ConcurrentMap<String, CompletableFuture<Object>> loads = new ConcurrentHashMap<>();
    /** How every read of this cache uses the client's near cache (from {@code configuration}). */
    private final NearCacheRead nearRead;
    private final LongAdder hits = new LongAdder();
    /** The hits the client's near cache answered, without a round trip; a part of {@code hits}. */
    private final LongAdder nearHits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder puts = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    /** Permits for idle-expiry updates; taken on a hit, given back when the update completes. */
    private final Semaphore touchesInFlight = new Semaphore(MAX_TOUCHES_IN_FLIGHT);

    /**
     * @param keyPrefix  prepended to {@code name + "::"} in every stored key
     * @param leaseOwner written into loader lease markers, to tell holders apart when debugging
     * @param random        source of the TTL jitter, values in [0, 1)
     * @param asyncExecutor where {@code retrieve} futures complete (see the class comment)
     * @param entrySizes    told the size of every entry this cache writes
     * @param errorHandler  decides on a failed store after a load (see the class comment); read at each failure
     * @param clock         the wall clock that lifetime ends are written and checked with
     * @param observer      wraps every client call this cache makes
     */
    ZarisCache(String name, ZarisClient client, ZarisSerializer serializer, ZarisCacheConfiguration configuration,
               String keyPrefix, String leaseOwner, DoubleSupplier random, Executor asyncExecutor,
               EntrySizeSample entrySizes, Supplier<ZarisCacheErrorHandler> errorHandler, Clock clock,
               ZarisOperationObserver observer) {
        super(configuration.cacheNullValues());
        this.observer = Objects.requireNonNull(observer, "observer must not be null");
        this.name = Objects.requireNonNull(name, "name must not be null");
        this.client = Objects.requireNonNull(client, "client must not be null");
        this.serializer = Objects.requireNonNull(serializer, "serializer must not be null");
        this.configuration = configuration;
        this.nearRead = configuration.nearCache().read();
        this.keyPrefix = keyPrefix + name + "::";
        this.leaseMarker = leaseMarker(leaseOwner);
        this.random = random;
        this.asyncExecutor = Objects.requireNonNull(asyncExecutor, "asyncExecutor must not be null");
        this.entrySizes = Objects.requireNonNull(entrySizes, "entrySizes must not be null");
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler must not be null");
        this.clock = Objects.requireNonNull(clock, "clock must not be null");
    }

    private <T> CompletableFuture<T> observed(String operation, Supplier<CompletableFuture<T>> call) {
        return observer.observe(operation, call);
    }

    private <T> T blocking(String operation, Supplier<T> call) {
        return observer.observeBlocking(operation, call);
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
        String storeKey = storeKey(key);
        ReadResult result = blocking("get", () -> client.sync().read(storeKey, nearRead));
        Object storeValue = decodeRead(key, result);
        touchIfIdleExpiring(storeKey, storeValue, result.value());
        return count(storeValue, result);
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
        return observed("get", () -> client.read(storeKey, nearRead)).thenApplyAsync(result -> {
            Optional<VersionedValue> found = result.value();
            Object value = count(decodeRead(key, result), result);
            touchIfIdleExpiring(storeKey, value, found);
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
        return observed("get", () -> client.read(storeKey, nearRead)).thenComposeAsync(result -> {
            Optional<VersionedValue> found = result.value();
            Object cached = count(decodeRead(key, result), result);
            touchIfIdleExpiring(storeKey, cached, found);
            if (cached != null) {
                return CompletableFuture.completedFuture((T) fromStoreValue(cached));
            }
            CompletableFuture<Object> mine = new CompletableFuture<>();
            CompletableFuture<Object> running = loads.putIfAbsent(storeKey, mine);
            if (running != null) {
                return running.thenApplyAsync(value -> (T) fromStoreValue(value), asyncExecutor);
            }
            CompletableFuture<Object> load = configuration.clusterWideSync()
                    ? loadUnderLeaseAsync(key, valueLoader, maxLeasePolls()) : loadHereAsync(key, valueLoader);
            load.whenComplete((storeValue, error) -> {
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

    /**
     * Atomic on the owning node (a server-side IfAbsent write); returns the existing value, if any. A key
     * that holds only a loader lease, or an entry past its lifetime, has no value: it is replaced (by a
     * compare-and-set on its version), which for a lease makes the running load's own write fail.
     */
    @Override
    public ValueWrapper putIfAbsent(Object key, Object value) {
        String storeKey = storeKey(key);
        Object storeValue = toStoreValue(value);
        Encoded entry = encode(key, storeValue);
        WriteOutcome outcome = blocking("put_if_absent", () -> client.sync().putIfAbsent(storeKey, entry.bytes(), entry.ttl()));
        if (!outcome.applied()) {
            Optional<VersionedValue> current = blocking("get", () -> client.sync().read(storeKey, nearRead)).value();
            // A lease holds no value, and neither does an entry past its lifetime that the node still keeps.
            if (current.isPresent() && (isLease(current.get().value()) || isPastLifetime(current.get().value()))) {
                outcome = blocking("put_if_version",
                        () -> client.sync().putIfVersion(storeKey, entry.bytes(), current.get().version(), entry.ttl()));
            }
        }
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
        boolean existed = blocking("delete", () -> client.sync().delete(storeKey(key)));
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
        // Added to by the page callbacks of every node, which run concurrently.
        AtomicInteger deleted = new AtomicInteger();
        return observed("scan", () -> client.scanKeyPages(page -> {
            List<String> mine = new ArrayList<>();
            for (String key : page) {
                if (key.startsWith(keyPrefix)) {
                    mine.add(key);
                }
            }
            return deleteInBatches(mine, 0, 0).thenAccept(deleted::addAndGet);
        })).thenApply(ignored -> deleted.get());
    }

    // ------------------------------------------------------------------ statistics

    long hitCount() {
        return hits.sum();
    }

    /** Hits the client's near cache answered without a round trip (a part of {@link #hitCount()}). */
    long nearHitCount() {
        return nearHits.sum();
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
            batch.add(observed("delete", () -> client.delete(key)));
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
        Optional<VersionedValue> found = blocking("get", () -> client.sync().read(storeKey, nearRead)).value();
        Object storeValue = found.map(stored -> decode(key, stored.value())).orElse(null);
        touchIfIdleExpiring(storeKey, storeValue, found);
        return storeValue;
    }

    /** After a hit on a time-to-idle cache: slide the entry's expiry, without waiting (class comment). */
    private void touchIfIdleExpiring(String storeKey, Object storeValue, Optional<VersionedValue> found) {
        if (storeValue == null || !configuration.expiresWhenIdle()) {
            return;
        }
        // An entry with a lifetime slides no further than the lifetime's end.
        Duration idleTtl = configuration.timeToIdle();
        long lifetimeEnd = lifetimeEnd(found.get().value());
        if (lifetimeEnd != NO_LIFETIME_END) {
            long leftMillis = lifetimeEnd - clock.millis();
            if (leftMillis <= 0) {
                return;
            }
            idleTtl = idleTtl.toMillis() <= leftMillis ? idleTtl : Duration.ofMillis(leftMillis);
        }
        if (!touchesInFlight.tryAcquire()) {
            return;
        }
        Duration slidTo = idleTtl;
        try {
            observed("expire", () -> client.expire(storeKey, slidTo)).whenComplete((existed, error) -> {
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

    /** Counts a lookup's outcome: a hit, of the near cache when it answered, or a miss. */
    private Object count(Object storeValue, ReadResult result) {
        if (storeValue == null) {
            misses.increment();
        } else {
            hits.increment();
            if (result.local()) {
                nearHits.increment();
            }
        }
        return storeValue;
    }

    /** A read of this cache that is not a lookup (not counted), using the near cache as the cache's settings say. */
    private CompletableFuture<Optional<VersionedValue>> get(String storeKey) {
        return client.read(storeKey, nearRead).thenApply(ReadResult::value);
    }

    private void write(Object key, Object storeValue) {
        Encoded entry = encode(key, storeValue);
        blocking("put", () -> client.sync().put(storeKey(key), entry.bytes(), entry.ttl()));
        puts.increment();
    }

    /** Loads in this JVM; another JVM may have stored the value meanwhile, so look once more first. */
    private Object loadHere(Object key, Callable<?> valueLoader) {
        Object cached = read(key);
        if (cached != null) {
            return cached;
        }
        Object storeValue = toStoreValue(callLoader(key, valueLoader));
        try {
            write(key, storeValue);
        } catch (RuntimeException e) {
            return loadedButNotStored(key, storeValue, e);
        }
        return storeValue;
    }

    /** Loads under the cluster-wide loader lease (see the class comment). */
    private Object loadUnderLease(Object key, Callable<?> valueLoader) {
        String storeKey = storeKey(key);
        long pollsLeft = maxLeasePolls();
        while (true) {
            Object cached = read(key);
            if (cached != null) {
                return cached;
            }
            WriteOutcome lease = blocking("put_if_absent",
                    () -> client.sync().putIfAbsent(storeKey, leaseMarker, configuration.loaderLeaseTime()));
            if (lease.applied()) {
                return loadFenced(key, valueLoader, lease.version());
            }
            if (pollsLeft-- <= 0) {
                throw new ValueRetrievalException(key, valueLoader, noValueAfterWaiting(key));
            }
            try {
                TimeUnit.MILLISECONDS.sleep(LEASE_POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ValueRetrievalException(key, valueLoader, e);
            }
        }
    }

    /** Runs the loader while holding the lease whose version is {@code fencingToken}, then stores fenced. */
    private Object loadFenced(Object key, Callable<?> valueLoader, long fencingToken) {
        String storeKey = storeKey(key);
        Object storeValue;
        Encoded entry;
        try {
            storeValue = toStoreValue(callLoader(key, valueLoader));
            entry = encode(key, storeValue);
        } catch (RuntimeException | Error e) {
            releaseLease(storeKey, fencingToken, e);
            throw e;
        }
        WriteOutcome outcome;
        try {
            outcome = blocking("put_if_version",
                    () -> client.sync().putIfVersion(storeKey, entry.bytes(), fencingToken, entry.ttl()));
        } catch (RuntimeException e) {
            return loadedButNotStored(key, storeValue, e);
        }
        storedUnderLease(key, outcome);
        return storeValue;
    }

    /** The async counterpart of {@link #loadUnderLease}: polls are scheduled, never slept. */
    private <T> CompletableFuture<Object> loadUnderLeaseAsync(Object key, Supplier<CompletableFuture<T>> valueLoader,
                                                              long pollsLeft) {
        String storeKey = storeKey(key);
        return observed("get", () -> get(storeKey)).thenComposeAsync(found -> {
            Object cached = found.map(stored -> decode(key, stored.value())).orElse(null);
            if (cached != null) {
                return CompletableFuture.completedFuture(cached);
            }
            return observed("put_if_absent",
                    () -> client.putIfAbsent(storeKey, leaseMarker, configuration.loaderLeaseTime())).thenComposeAsync(lease -> {
                if (lease.applied()) {
                    return loadFencedAsync(key, valueLoader, lease.version());
                }
                if (pollsLeft <= 0) {
                    return CompletableFuture.failedFuture(new ValueRetrievalException(key, null, noValueAfterWaiting(key)));
                }
                Executor afterPollInterval = CompletableFuture.delayedExecutor(LEASE_POLL_INTERVAL.toMillis(),
                        TimeUnit.MILLISECONDS, asyncExecutor);
                return CompletableFuture.supplyAsync(() -> pollsLeft - 1, afterPollInterval)
                        .thenCompose(polls -> loadUnderLeaseAsync(key, valueLoader, polls));
            }, asyncExecutor);
        }, asyncExecutor);
    }

    private <T> CompletableFuture<Object> loadFencedAsync(Object key, Supplier<CompletableFuture<T>> valueLoader,
                                                          long fencingToken) {
        String storeKey = storeKey(key);
        return supply(valueLoader).thenCompose(value -> {
            Object storeValue = toStoreValue(value);
            Encoded entry = encode(key, storeValue);
            return sent(() -> observed("put_if_version",
                    () -> client.putIfVersion(storeKey, entry.bytes(), fencingToken, entry.ttl()))).thenApply(outcome -> {
                storedUnderLease(key, outcome);
                return storeValue;
            }).exceptionally(error -> loadedButNotStored(key, storeValue, error));
        }).whenComplete((storeValue, error) -> {
            if (error != null) {
                releaseLease(storeKey, fencingToken, error);
            }
        });
    }

    /**
     * Loads in this JVM without a lease and stores the value, without blocking. Like {@link #loadHere} it
     * looks once more first: the miss that led here may predate a load that finished and left {@code loads}
     * since, and another JVM may have stored the value meanwhile.
     */
    private <T> CompletableFuture<Object> loadHereAsync(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        String storeKey = storeKey(key);
        return observed("get", () -> get(storeKey)).thenComposeAsync(found -> {
            Object cached = found.map(stored -> decode(key, stored.value())).orElse(null);
            if (cached != null) {
                return CompletableFuture.completedFuture(cached);
            }
            return supply(valueLoader).thenCompose(value -> {
                Object storeValue = toStoreValue(value);
                Encoded entry = encode(key, storeValue);
                return sent(() -> observed("put", () -> client.put(storeKey, entry.bytes(), entry.ttl()))).thenApply(version -> {
                    puts.increment();
                    return storeValue;
                }).exceptionally(error -> loadedButNotStored(key, storeValue, error));
            });
        }, asyncExecutor);
    }

    /**
     * After a load whose value could not be stored: the value, if the error handler lets the failure fall
     * through (it logged and counted it); otherwise the failure, rethrown.
     */
    private Object loadedButNotStored(Object key, Object storeValue, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof RuntimeException runtime) {
            if (errorHandler.get().tryFallThrough(ZarisCacheErrorHandler.Operation.PUT, runtime, this, key)) {
                return storeValue;
            }
            throw runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        throw new CompletionException(cause);
    }

    /** Counts a fenced write the store applied; logs one it refused (the lease was no longer this loader's). */
    private void storedUnderLease(Object key, WriteOutcome outcome) {
        if (outcome.applied()) {
            puts.increment();
        } else {
            log.warn("cache '{}', key '{}': the loader lease expired or the entry was evicted or written during the"
                    + " load; the store refused the loaded value (another instance may have loaded it)", name, keyText(key));
        }
    }

    /** After a failed load: frees the lease for the next loader unless it already changed hands. */
    private void releaseLease(String storeKey, long fencingToken, Throwable loadFailure) {
        try {
            observed("delete_if_version", () -> client.deleteIfVersion(storeKey, fencingToken)).whenComplete((outcome, error) -> {
                if (error != null) {
                    log.debug("cache '{}': could not release the loader lease on '{}' (it expires on its own): {}",
                            name, storeKey, error.toString());
                }
            });
        } catch (RuntimeException e) {
            loadFailure.addSuppressed(e);
        }
    }

    private IllegalStateException noValueAfterWaiting(Object key) {
        return new IllegalStateException("cache '" + name + "', key '" + keyText(key) + "': no value after waiting "
                + MAX_LEASE_TERMS_WAITED + " loader lease terms of " + configuration.loaderLeaseTime()
                + " for other instances' loaders");
    }

    /** Polls a caller makes while other instances hold the lease: {@link #MAX_LEASE_TERMS_WAITED} terms' worth. */
    private long maxLeasePolls() {
        long pollsPerLease = Math.max(1, configuration.loaderLeaseTime().toMillis() / LEASE_POLL_INTERVAL.toMillis());
        return MAX_LEASE_TERMS_WAITED * pollsPerLease;
    }

    /** The request's future; a request the client refused before sending (it throws then) as a failed one. */
    private static <T> CompletableFuture<T> sent(Supplier<CompletableFuture<T>> request) {
        try {
            return request.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static <T> CompletableFuture<T> supply(Supplier<CompletableFuture<T>> valueLoader) {
        try {
            return Objects.requireNonNull(valueLoader.get(), "the value loader returned no future");
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The stored form of a loader lease held by {@code owner}. */
    static byte[] leaseMarker(String owner) {
        byte[] name = owner.getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[name.length + 1];
        bytes[0] = LEASE_MARKER;
        System.arraycopy(name, 0, bytes, 1, name.length);
        return bytes;
    }

    private static boolean isLease(byte[] stored) {
        return stored.length > 0 && stored[0] == LEASE_MARKER;
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

    /**
     * The bytes and TTL of one write: the entry's lifetime (fixed, or the TTL function's answer, with jitter)
     * and, on a time-to-idle cache, the shorter of it and the idle time, with the lifetime's end in front.
     */
    private Encoded encode(Object key, Object storeValue) {
        Duration lifetime;
        try {
            lifetime = configuration.lifetimeFor(key, storeValue == NullValue.INSTANCE ? null : storeValue,
                    random.getAsDouble());
        } catch (IllegalStateException e) {
            throw new IllegalStateException("cache '" + name + "', key '" + keyText(key) + "': " + e.getMessage(), e);
        }
        byte[] value = encodeValue(key, storeValue);
        if (configuration.expiresWhenIdle() && lifetime != null) {
            value = ByteBuffer.allocate(LIFETIME_HEADER_BYTES + value.length).put(LIFETIME_MARKER)
                    .putLong(clock.millis() + lifetime.toMillis()).put(value).array();
        }
        entrySizes.record(storeKey(key).getBytes(StandardCharsets.UTF_8).length, value.length);
        return new Encoded(value, configuration.storedTtl(lifetime));
    }

    /** What one write sends: the entry's bytes and its TTL ({@code null} = none). */
    private record Encoded(byte[] bytes, Duration ttl) {
    }

    private boolean isPastLifetime(byte[] stored) {
        long end = lifetimeEnd(stored);
        return end != NO_LIFETIME_END && clock.millis() >= end;
    }

    /** The end of an entry's lifetime in epoch millis, as its writer recorded it, or {@link #NO_LIFETIME_END}. */
    private static long lifetimeEnd(byte[] stored) {
        if (stored.length < LIFETIME_HEADER_BYTES || stored[0] != LIFETIME_MARKER) {
            return NO_LIFETIME_END;
        }
        return ByteBuffer.wrap(stored, 1, Long.BYTES).getLong();
    }

    private byte[] encodeValue(Object key, Object storeValue) {
        if (storeValue == NullValue.INSTANCE) {
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
        return bytes;
    }

    /** The store value, or {@code null} for a loader lease (no value yet). */
    /**
     * Decodes what a read found ({@code null}: nothing). A near-cache hit reuses the value decoded from the same near
     * entry when it is immutable ({@link NearDecodedValues}), once its lifetime is checked as {@link #decode} does.
     */
    private Object decodeRead(Object key, ReadResult result) {
        if (result.value().isEmpty()) {
            return null;
        }
        byte[] stored = result.value().get().value();
        if (!result.local()) {
            return decode(key, stored);
        }
        long lifetimeEnd = lifetimeEnd(stored);
        if (lifetimeEnd != NO_LIFETIME_END && clock.millis() >= lifetimeEnd) {
            return null;
        }
        Object kept = nearDecoded.get(stored);
        if (kept != null) {
            return kept;
        }
        Object decoded = decode(key, stored);
        nearDecoded.put(stored, decoded);
        return decoded;
    }

    private Object decode(Object key, byte[] bytes) {
        long lifetimeEnd = lifetimeEnd(bytes);
        if (lifetimeEnd != NO_LIFETIME_END) {
            if (clock.millis() >= lifetimeEnd) {
                return null;
            }
            bytes = Arrays.copyOfRange(bytes, LIFETIME_HEADER_BYTES, bytes.length);
        }
        if (bytes.length == 1 && bytes[0] == NULL_MARKER) {
            return NullValue.INSTANCE;
        }
        if (isLease(bytes)) {
            return null;
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
