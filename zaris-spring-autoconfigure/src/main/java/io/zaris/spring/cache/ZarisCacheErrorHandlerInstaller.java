package io.zaris.spring.cache;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.cache.interceptor.AbstractCacheInvoker;
import org.springframework.cache.interceptor.CacheErrorHandler;

/**
 * Puts a {@link ZarisCacheErrorHandler} in front of the error handler of every caching aspect
 * ({@link AbstractCacheInvoker}: {@code @Cacheable} and friends, JCache annotations), keeping the aspect's
 * own handler for everything Zaris does not let fall through, and gives it to every
 * {@link ZarisCacheManager} for the failures inside its caches' {@code sync = true} loads.
 *
 * <p>Runs once every singleton exists: an aspect's handler comes from the application's
 * {@code CachingConfigurer}, which Spring resolves lazily, and reading it earlier would create that
 * configurer early. Caching aspects do not cache before the same point, so no cached call misses it in
 * practice. An aspect whose handler is already scoped is left alone. Runs on the thread that refreshes the
 * context, before requests are served.
 */
final class ZarisCacheErrorHandlerInstaller implements SmartInitializingSingleton {

    private final ZarisCacheErrorHandler handler;
    private final ObjectProvider<AbstractCacheInvoker> aspects;
    private final ObjectProvider<ZarisCacheManager> cacheManagers;

    ZarisCacheErrorHandlerInstaller(ZarisCacheErrorHandler handler, ObjectProvider<AbstractCacheInvoker> aspects,
            ObjectProvider<ZarisCacheManager> cacheManagers) {
        this.handler = handler;
        this.aspects = aspects;
        this.cacheManagers = cacheManagers;
    }

    @Override
    public void afterSingletonsInstantiated() {
        aspects.orderedStream().forEach(aspect -> {
            CacheErrorHandler current = aspect.getErrorHandler();
            if (!(current instanceof ZarisScopedCacheErrorHandler)) {
                aspect.setErrorHandler(new ZarisScopedCacheErrorHandler(handler, current));
            }
        });
        cacheManagers.orderedStream().forEach(manager -> manager.setErrorHandler(handler));
    }
}
