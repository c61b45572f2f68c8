package io.zaris.spring.cache;

import io.zaris.spring.cache.ZarisCacheErrorHandler.Operation;
import java.util.Objects;
import org.springframework.cache.Cache;
import org.springframework.cache.interceptor.CacheErrorHandler;

/**
 * The error handler of a caching aspect once Zaris is in front: a failure that {@link ZarisCacheErrorHandler}
 * lets fall through stops here; every other one (other caches, evictions and clears, failures that are not
 * the cluster's, everything in fail mode) goes to the handler the aspect had, the application's or Spring's
 * default. Stateless apart from its two final handlers.
 */
final class ZarisScopedCacheErrorHandler implements CacheErrorHandler {

    private final ZarisCacheErrorHandler zaris;
    private final CacheErrorHandler applicationHandler;

    ZarisScopedCacheErrorHandler(ZarisCacheErrorHandler zaris, CacheErrorHandler applicationHandler) {
        this.zaris = Objects.requireNonNull(zaris, "zaris must not be null");
        this.applicationHandler = Objects.requireNonNull(applicationHandler, "applicationHandler must not be null");
    }

    CacheErrorHandler applicationHandler() {
        return applicationHandler;
    }

    @Override
    public void handleCacheGetError(RuntimeException exception, Cache cache, Object key) {
        if (!zaris.tryFallThrough(Operation.GET, exception, cache, key)) {
            applicationHandler.handleCacheGetError(exception, cache, key);
        }
    }

    @Override
    public void handleCachePutError(RuntimeException exception, Cache cache, Object key, Object value) {
        if (!zaris.tryFallThrough(Operation.PUT, exception, cache, key)) {
            applicationHandler.handleCachePutError(exception, cache, key, value);
        }
    }

    @Override
    public void handleCacheEvictError(RuntimeException exception, Cache cache, Object key) {
        applicationHandler.handleCacheEvictError(exception, cache, key);
    }

    @Override
    public void handleCacheClearError(RuntimeException exception, Cache cache) {
        applicationHandler.handleCacheClearError(exception, cache);
    }
}
