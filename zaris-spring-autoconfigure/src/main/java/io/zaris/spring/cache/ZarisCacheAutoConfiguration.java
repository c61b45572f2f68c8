package io.zaris.spring.cache;

import io.zaris.client.ZarisClient;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.ZarisProperties;
import io.zaris.spring.ZarisProperties.CacheSpec;
import io.zaris.spring.serialization.ZarisSerializer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.cache.autoconfigure.CacheManagerCustomizer;
import org.springframework.boot.cache.autoconfigure.CacheManagerCustomizers;
import org.springframework.cache.CacheManager;
import org.springframework.cache.interceptor.CacheAspectSupport;
import org.springframework.context.annotation.Bean;

/**
 * A {@link ZarisCacheManager} for Spring's cache abstraction.
 *
 * <p>Mirrors the conditions of Boot's {@code CacheAutoConfiguration} (caching enabled, i.e. a
 * {@link CacheAspectSupport} bean; no {@link CacheManager} and no {@code cacheResolver} yet) and runs
 * before it, so Boot's backs off when this one supplies the manager. Since Boot's then does not run,
 * its {@link CacheManagerCustomizer}s are applied here. {@code zaris.cache.enabled=false} leaves the
 * cache manager to Boot (or the application).
 */
@AutoConfiguration(after = ZarisAutoConfiguration.class,
        beforeName = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration")
@ConditionalOnClass({CacheManager.class, CacheManagerCustomizers.class, ZarisClient.class})
@ConditionalOnBean({CacheAspectSupport.class, ZarisClient.class, ZarisSerializer.class})
@ConditionalOnMissingBean(value = CacheManager.class, name = "cacheResolver")
@ConditionalOnProperty(name = "zaris.cache.enabled", matchIfMissing = true)
public final class ZarisCacheAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(CacheManager.class)
    ZarisCacheManager cacheManager(ZarisClient client, ZarisSerializer serializer, ZarisProperties properties,
            ObjectProvider<CacheManagerCustomizer<?>> customizers, ObjectProvider<EntrySizeSample> entrySizes) {
        ZarisProperties.Cache cache = properties.getCache();
        ZarisCacheConfiguration defaults = configuration("zaris.cache.defaults", cache.getDefaults(),
                ZarisCacheConfiguration.defaults());
        Map<String, ZarisCacheConfiguration> perCache = new LinkedHashMap<>();
        cache.getCaches().forEach((name, spec) ->
                perCache.put(name, configuration("zaris.cache.caches." + name, spec, defaults)));
        ZarisCacheManager manager = new ZarisCacheManager(client, serializer, cache.getKeyPrefix(), defaults, perCache,
                cache.getCacheNames(), entrySizes.getIfAvailable(EntrySizeSample::new));
        return new CacheManagerCustomizers(customizers.orderedStream().toList()).customize(manager);
    }

    /**
     * The settings {@code spec} describes, unset fields taken from {@code fallback}.
     *
     * @throws IllegalArgumentException naming the property group when a value is out of range
     */
    static ZarisCacheConfiguration configuration(String prefix, CacheSpec spec, ZarisCacheConfiguration fallback) {
        try {
            // Time to live and time to idle are exclusive: a cache that sets one of them drops the other it
            // would inherit (and with the time to live, its jitter), rather than failing on the combination.
            boolean idleReplacesLive = spec.getTimeToIdle() != null && !spec.getTimeToIdle().isZero()
                    && spec.getTimeToLive() == null;
            boolean liveReplacesIdle = spec.getTimeToLive() != null && !spec.getTimeToLive().isZero()
                    && spec.getTimeToIdle() == null;
            Duration timeToLive = spec.getTimeToLive() != null ? spec.getTimeToLive()
                    : idleReplacesLive ? Duration.ZERO : fallback.timeToLive();
            double ttlJitter = spec.getTtlJitter() != null ? spec.getTtlJitter()
                    : idleReplacesLive ? 0 : fallback.ttlJitter();
            Duration timeToIdle = spec.getTimeToIdle() != null ? spec.getTimeToIdle()
                    : liveReplacesIdle ? Duration.ZERO : fallback.timeToIdle();
            return new ZarisCacheConfiguration(timeToLive, ttlJitter,
                    spec.getCacheNullValues() != null ? spec.getCacheNullValues() : fallback.cacheNullValues(),
                    spec.getClusterWideSync() != null ? spec.getClusterWideSync() : fallback.clusterWideSync(),
                    spec.getLoaderLeaseTime() != null ? spec.getLoaderLeaseTime() : fallback.loaderLeaseTime(),
                    timeToIdle);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + ": " + e.getMessage(), e);
        }
    }
}
