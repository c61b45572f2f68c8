package io.zaris.spring.cache;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.cache.metrics.CacheMeterBinderProvider;
import org.springframework.boot.cache.metrics.CacheMetricsRegistrar;
import org.springframework.context.annotation.Bean;

/**
 * Lets Boot's cache metrics see Zaris caches: a {@link ZarisCacheMeterBinderProvider} (Boot binds the caches
 * that exist at start-up with it), and a binder for the caches created later, which Boot would miss.
 *
 * <p>No {@code @ConditionalOnBean(MeterRegistry)}: the registry's auto-configuration may come later; the
 * {@link CacheMetricsRegistrar} is looked up once every singleton exists, and nothing happens without it.
 */
@AutoConfiguration(after = ZarisCacheAutoConfiguration.class,
        beforeName = "org.springframework.boot.cache.autoconfigure.metrics.CacheMetricsAutoConfiguration")
@ConditionalOnClass({MeterBinder.class, CacheMeterBinderProvider.class})
@ConditionalOnBean(ZarisCacheManager.class)
public final class ZarisCacheMetricsAutoConfiguration {

    /** The {@code cache.manager} tag Boot gives the caches of the bean named {@code cacheManager}. */
    static final Tag CACHE_MANAGER_TAG = Tag.of("cache.manager", "cacheManager");

    @Bean
    @ConditionalOnMissingBean
    ZarisCacheMeterBinderProvider zarisCacheMeterBinderProvider() {
        return new ZarisCacheMeterBinderProvider();
    }

    @Bean
    @ConditionalOnMissingBean(name = "zarisLateCacheMetricsBinder")
    SmartInitializingSingleton zarisLateCacheMetricsBinder(ObjectProvider<CacheMetricsRegistrar> registrar,
            ObjectProvider<ZarisCacheManager> cacheManagers, ObjectProvider<MeterRegistry> registries) {
        return () -> {
            CacheMetricsRegistrar metrics = registrar.getIfAvailable();
            MeterRegistry registry = registries.getIfUnique();
            if (metrics == null || registry == null) {
                return;
            }
            cacheManagers.orderedStream().forEach(manager -> {
                manager.setCacheCreationListener(cache -> metrics.bindCacheToRegistry(cache, CACHE_MANAGER_TAG));
                // Caches created between Boot's binding and now. Binding one twice would register its meters
                // twice, which Micrometer refuses with a warning, so those Boot bound already are skipped.
                manager.existingCacheNames().stream()
                        .filter(name -> !isBound(registry, name))
                        .forEach(name -> metrics.bindCacheToRegistry(manager.getCache(name), CACHE_MANAGER_TAG));
            });
        };
    }

    /** Whether the cache of that name (of the {@code cacheManager} bean) has its meters in the registry. */
    static boolean isBound(MeterRegistry registry, String cacheName) {
        return registry.find("cache.puts").tag("cache", cacheName)
                .tag(CACHE_MANAGER_TAG.getKey(), CACHE_MANAGER_TAG.getValue()).meter() != null;
    }
}
