package io.zaris.spring.cache;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one {@link ZarisCache}. Immutable; {@link #defaults()} plus the {@code with*} methods build
 * one in code, {@code zaris.cache.*} builds them from properties.
 *
 * @param timeToLive      how long an entry lives after it is written; {@link Duration#ZERO} = no expiry
 * @param ttlJitter       fraction (0..1) of the TTL added at random per write, against expiry stampedes
 * @param cacheNullValues whether a {@code null} result is stored (as a marker) instead of recomputed
 * @param clusterWideSync whether {@code @Cacheable(sync = true)} runs one loader per key across all JVMs
 * @param loaderLeaseTime TTL of a cluster-wide loader lease: how long until a dead loader is replaced
 */
public record ZarisCacheConfiguration(Duration timeToLive, double ttlJitter, boolean cacheNullValues,
                                      boolean clusterWideSync, Duration loaderLeaseTime) {

    /** Loader lease TTL when not configured. */
    public static final Duration DEFAULT_LOADER_LEASE_TIME = Duration.ofSeconds(30);

    public ZarisCacheConfiguration {
        Objects.requireNonNull(timeToLive, "timeToLive must not be null");
        if (timeToLive.isNegative()) {
            throw new IllegalArgumentException("timeToLive must be >= 0 but was " + timeToLive);
        }
        if (!(ttlJitter >= 0 && ttlJitter <= 1)) {
            throw new IllegalArgumentException("ttlJitter must be between 0 and 1 but was " + ttlJitter);
        }
        if (ttlJitter > 0 && timeToLive.isZero()) {
            throw new IllegalArgumentException("ttlJitter " + ttlJitter + " needs a timeToLive; entries without one"
                    + " never expire");
        }
        Objects.requireNonNull(loaderLeaseTime, "loaderLeaseTime must not be null");
        if (loaderLeaseTime.isNegative() || loaderLeaseTime.isZero()) {
            throw new IllegalArgumentException("loaderLeaseTime must be positive but was " + loaderLeaseTime);
        }
    }

    /** No expiry, no jitter, nulls cached, per-JVM sync. */
    public static ZarisCacheConfiguration defaults() {
        return new ZarisCacheConfiguration(Duration.ZERO, 0, true, false, DEFAULT_LOADER_LEASE_TIME);
    }

    public ZarisCacheConfiguration withTimeToLive(Duration timeToLive) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime);
    }

    public ZarisCacheConfiguration withTtlJitter(double ttlJitter) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime);
    }

    public ZarisCacheConfiguration withCacheNullValues(boolean cacheNullValues) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime);
    }

    public ZarisCacheConfiguration withClusterWideSync(boolean clusterWideSync) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime);
    }

    public ZarisCacheConfiguration withLoaderLeaseTime(Duration loaderLeaseTime) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime);
    }

    /**
     * The TTL of one write: {@code null} (no expiry) or the time to live stretched by
     * {@code random * ttlJitter}. A pure function of {@code random}, which must be in [0, 1).
     */
    public Duration ttlFor(double random) {
        if (timeToLive.isZero()) {
            return null;
        }
        if (ttlJitter == 0) {
            return timeToLive;
        }
        long extraMillis = (long) (timeToLive.toMillis() * ttlJitter * random);
        return timeToLive.plusMillis(extraMillis);
    }
}
