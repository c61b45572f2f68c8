package io.zaris.spring.cache;

import java.time.Duration;

/**
 * The time to live of one cache entry, computed from its key and value when it is written: for instance
 * longer for entries that change rarely. Set per cache with
 * {@link ZarisCacheConfiguration#withTtlFunction} or, naming a bean of this type, with
 * {@code zaris.cache.caches.<name>.ttl-function}. Called on the writing thread for every write, so it must be
 * quick, thread-safe and free of I/O.
 */
@FunctionalInterface
public interface ZarisCacheTtlFunction {

    /**
     * @param key   the cache key as the application passed it
     * @param value the value being cached; {@code null} for a cached {@code null}
     * @return how long the entry lives: positive, or {@link Duration#ZERO} for no expiry; never {@code null}
     *         or negative (the write then fails naming the cache and key)
     */
    Duration timeToLive(Object key, Object value);
}
