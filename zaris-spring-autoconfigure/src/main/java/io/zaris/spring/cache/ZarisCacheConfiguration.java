package io.zaris.spring.cache;

import io.zaris.spring.serialization.ZarisSerializer;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one {@link ZarisCache}. Immutable; {@link #defaults()} plus the {@code with*} methods build
 * one in code, {@code zaris.cache.*} builds them from properties.
 *
 * <p><b>Expiry.</b> An entry's <em>lifetime</em> comes from the time to live, fixed ({@code timeToLive}) or
 * computed per entry ({@code ttlFunction}; the two are one setting in two forms, so setting one clears the
 * other), stretched by the jitter. The time to idle is how long an entry lives after it was last written or
 * read. With both, an entry ends at whichever comes first: the store keeps one expiry per entry, so a write
 * stores the shorter of the two and the end of the lifetime travels in the entry (see {@link ZarisCache}),
 * which each hit uses to slide the expiry no further than that end.
 *
 * @param timeToLive      fixed lifetime of an entry after it is written; {@link Duration#ZERO} = none
 * @param ttlJitter       fraction (0..1) of the lifetime added at random per write, against expiry stampedes
 * @param cacheNullValues whether a {@code null} result is stored (as a marker) instead of recomputed
 * @param clusterWideSync whether {@code @Cacheable(sync = true)} runs one loader per key across all JVMs
 * @param loaderLeaseTime TTL of a cluster-wide loader lease: how long until a dead loader is replaced
 * @param timeToIdle      how long an entry lives after it was last written or read; {@link Duration#ZERO} =
 *                        no idle expiry
 * @param ttlFunction     lifetime computed from key and value per write, or {@code null} for the fixed one
 * @param serializer      this cache's serializer, or {@code null} for the cache manager's
 * @param nearCache       how this cache's reads use the client's near cache (see {@link NearCacheSettings})
 */
public record ZarisCacheConfiguration(Duration timeToLive, double ttlJitter, boolean cacheNullValues,
                                      boolean clusterWideSync, Duration loaderLeaseTime, Duration timeToIdle,
                                      ZarisCacheTtlFunction ttlFunction, ZarisSerializer serializer,
                                      NearCacheSettings nearCache) {

    /** Loader lease TTL when not configured. */
    public static final Duration DEFAULT_LOADER_LEASE_TIME = Duration.ofSeconds(30);

    public ZarisCacheConfiguration {
        Objects.requireNonNull(timeToLive, "timeToLive must not be null");
        if (timeToLive.isNegative()) {
            throw new IllegalArgumentException("timeToLive must be >= 0 but was " + timeToLive);
        }
        if (ttlFunction != null && !timeToLive.isZero()) {
            throw new IllegalArgumentException("a ttlFunction and a timeToLive of " + timeToLive
                    + " both set the time to live; set one of them");
        }
        if (!(ttlJitter >= 0 && ttlJitter <= 1)) {
            throw new IllegalArgumentException("ttlJitter must be between 0 and 1 but was " + ttlJitter);
        }
        if (ttlJitter > 0 && timeToLive.isZero() && ttlFunction == null) {
            throw new IllegalArgumentException("ttlJitter " + ttlJitter + " needs a timeToLive (or a ttlFunction);"
                    + " entries without one never expire");
        }
        Objects.requireNonNull(loaderLeaseTime, "loaderLeaseTime must not be null");
        if (loaderLeaseTime.isNegative() || loaderLeaseTime.isZero()) {
            throw new IllegalArgumentException("loaderLeaseTime must be positive but was " + loaderLeaseTime);
        }
        Objects.requireNonNull(timeToIdle, "timeToIdle must not be null");
        if (timeToIdle.isNegative()) {
            throw new IllegalArgumentException("timeToIdle must be >= 0 but was " + timeToIdle);
        }
        Objects.requireNonNull(nearCache, "nearCache must not be null; use NearCacheSettings.DEFAULT");
    }

    /** Settings that use the client's near cache as it is ({@link NearCacheSettings#DEFAULT}). */
    public ZarisCacheConfiguration(Duration timeToLive, double ttlJitter, boolean cacheNullValues,
                                   boolean clusterWideSync, Duration loaderLeaseTime, Duration timeToIdle,
                                   ZarisCacheTtlFunction ttlFunction, ZarisSerializer serializer) {
        this(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, timeToIdle, ttlFunction,
                serializer, NearCacheSettings.DEFAULT);
    }

    /** Settings without idle expiry, TTL function or own serializer. */
    public ZarisCacheConfiguration(Duration timeToLive, double ttlJitter, boolean cacheNullValues,
                                   boolean clusterWideSync, Duration loaderLeaseTime) {
        this(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, Duration.ZERO);
    }

    /** Settings without TTL function or own serializer. */
    public ZarisCacheConfiguration(Duration timeToLive, double ttlJitter, boolean cacheNullValues,
                                   boolean clusterWideSync, Duration loaderLeaseTime, Duration timeToIdle) {
        this(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, timeToIdle, null, null);
    }

    /**
     * No expiry, no jitter, nulls cached, per-JVM sync, no idle expiry, the manager's serializer, the client's near
     * cache used as it is.
     */
    public static ZarisCacheConfiguration defaults() {
        return new ZarisCacheConfiguration(Duration.ZERO, 0, true, false, DEFAULT_LOADER_LEASE_TIME, Duration.ZERO,
                null, null, NearCacheSettings.DEFAULT);
    }

    /** A fixed time to live; replaces a TTL function. */
    public ZarisCacheConfiguration withTimeToLive(Duration timeToLive) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime,
                timeToIdle, null, serializer, nearCache);
    }

    /** A time to live computed per entry; replaces the fixed one. */
    public ZarisCacheConfiguration withTtlFunction(ZarisCacheTtlFunction ttlFunction) {
        Objects.requireNonNull(ttlFunction, "ttlFunction must not be null");
        return new ZarisCacheConfiguration(Duration.ZERO, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime,
                timeToIdle, ttlFunction, serializer, nearCache);
    }

    public ZarisCacheConfiguration withTtlJitter(double ttlJitter) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime,
                timeToIdle, ttlFunction, serializer, nearCache);
    }

    public ZarisCacheConfiguration withCacheNullValues(boolean cacheNullValues) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime,
                timeToIdle, ttlFunction, serializer, nearCache);
    }

    public ZarisCacheConfiguration withClusterWideSync(boolean clusterWideSync) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime,
                timeToIdle, ttlFunction, serializer, nearCache);
    }

    public ZarisCacheConfiguration withLoaderLeaseTime(Duration loaderLeaseTime) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime,
                timeToIdle, ttlFunction, serializer, nearCache);
    }

    public ZarisCacheConfiguration withTimeToIdle(Duration timeToIdle) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime,
                timeToIdle, ttlFunction, serializer, nearCache);
    }

    /** This cache's own serializer; {@code null} gives it the cache manager's again. */
    public ZarisCacheConfiguration withSerializer(ZarisSerializer serializer) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime,
                timeToIdle, ttlFunction, serializer, nearCache);
    }

    /** How this cache's reads use the client's near cache. */
    public ZarisCacheConfiguration withNearCache(NearCacheSettings nearCache) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime,
                timeToIdle, ttlFunction, serializer, nearCache);
    }

    /** Whether this cache's reads may be answered from, and fill, the client's near cache. */
    public ZarisCacheConfiguration withNearCache(boolean enabled) {
        return withNearCache(nearCache.withEnabled(enabled));
    }

    /** How long after it was fetched a near entry may answer this cache's reads; zero for no limit. */
    public ZarisCacheConfiguration withNearCacheTimeToLive(Duration timeToLive) {
        return withNearCache(nearCache.withTimeToLive(timeToLive));
    }

    /** Whether reads slide the entry's expiry ({@code timeToIdle} is set). */
    public boolean expiresWhenIdle() {
        return !timeToIdle.isZero();
    }

    /** Whether entries have a lifetime (a fixed time to live or a TTL function). */
    public boolean hasTimeToLive() {
        return ttlFunction != null || !timeToLive.isZero();
    }

    /**
     * The lifetime of one written entry: {@code null} for none, else the fixed time to live or the function's
     * answer for {@code key} and {@code value}, stretched by {@code random * ttlJitter}. {@code random} must be
     * in [0, 1).
     *
     * @throws IllegalStateException when the TTL function answers {@code null} or a negative duration
     */
    public Duration lifetimeFor(Object key, Object value, double random) {
        Duration base = timeToLive;
        if (ttlFunction != null) {
            base = ttlFunction.timeToLive(key, value);
            if (base == null || base.isNegative()) {
                throw new IllegalStateException("the TTL function answered " + base + "; it must answer a positive"
                        + " duration, or Duration.ZERO for no expiry");
            }
        }
        if (base.isZero()) {
            return null;
        }
        if (ttlJitter == 0) {
            return base;
        }
        return base.plusMillis((long) (base.toMillis() * ttlJitter * random));
    }

    /**
     * The TTL stored with a write whose lifetime is {@code lifetime} ({@code null} = none): the shorter of
     * that lifetime and the time to idle, or {@code null} when neither is set.
     */
    public Duration storedTtl(Duration lifetime) {
        if (!expiresWhenIdle()) {
            return lifetime;
        }
        return lifetime == null || timeToIdle.compareTo(lifetime) <= 0 ? timeToIdle : lifetime;
    }

    /**
     * The TTL of one write of a cache without a TTL function (which needs the key and value): a pure function
     * of {@code random}, in [0, 1).
     */
    public Duration ttlFor(double random) {
        if (ttlFunction != null) {
            throw new IllegalStateException("this cache's time to live depends on key and value: use lifetimeFor");
        }
        return storedTtl(lifetimeFor(null, null, random));
    }
}
