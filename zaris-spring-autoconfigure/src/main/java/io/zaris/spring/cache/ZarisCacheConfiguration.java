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
 * @param timeToIdle      how long an entry lives after it was last written or read; {@link Duration#ZERO} =
 *                        no idle expiry. Exclusive with {@code timeToLive}: the store keeps one expiry time per
 *                        entry, and a read that slides it cannot know how much of a separate write-based
 *                        lifetime is left.
 */
public record ZarisCacheConfiguration(Duration timeToLive, double ttlJitter, boolean cacheNullValues,
                                      boolean clusterWideSync, Duration loaderLeaseTime, Duration timeToIdle) {

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
        Objects.requireNonNull(timeToIdle, "timeToIdle must not be null");
        if (timeToIdle.isNegative()) {
            throw new IllegalArgumentException("timeToIdle must be >= 0 but was " + timeToIdle);
        }
        if (!timeToIdle.isZero() && !timeToLive.isZero()) {
            throw new IllegalArgumentException("timeToIdle " + timeToIdle + " and timeToLive " + timeToLive
                    + " are exclusive; set one of them (a read slides the idle expiry and would lose the write-based one)");
        }
    }

    /** Settings before time-to-idle existed: no idle expiry. */
    public ZarisCacheConfiguration(Duration timeToLive, double ttlJitter, boolean cacheNullValues,
                                   boolean clusterWideSync, Duration loaderLeaseTime) {
        this(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, Duration.ZERO);
    }

    /** No expiry, no jitter, nulls cached, per-JVM sync, no idle expiry. */
    public static ZarisCacheConfiguration defaults() {
        return new ZarisCacheConfiguration(Duration.ZERO, 0, true, false, DEFAULT_LOADER_LEASE_TIME, Duration.ZERO);
    }

    public ZarisCacheConfiguration withTimeToLive(Duration timeToLive) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, timeToIdle);
    }

    public ZarisCacheConfiguration withTtlJitter(double ttlJitter) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, timeToIdle);
    }

    public ZarisCacheConfiguration withCacheNullValues(boolean cacheNullValues) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, timeToIdle);
    }

    public ZarisCacheConfiguration withClusterWideSync(boolean clusterWideSync) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, timeToIdle);
    }

    public ZarisCacheConfiguration withLoaderLeaseTime(Duration loaderLeaseTime) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, timeToIdle);
    }

    public ZarisCacheConfiguration withTimeToIdle(Duration timeToIdle) {
        return new ZarisCacheConfiguration(timeToLive, ttlJitter, cacheNullValues, clusterWideSync, loaderLeaseTime, timeToIdle);
    }

    /** Whether reads slide the entry's expiry ({@code timeToIdle} is set). */
    public boolean expiresWhenIdle() {
        return !timeToIdle.isZero();
    }

    /**
     * The TTL of one write: {@code null} (no expiry), the time to idle, or the time to live stretched by
     * {@code random * ttlJitter}. A pure function of {@code random}, which must be in [0, 1).
     */
    public Duration ttlFor(double random) {
        if (expiresWhenIdle()) {
            return timeToIdle;
        }
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
