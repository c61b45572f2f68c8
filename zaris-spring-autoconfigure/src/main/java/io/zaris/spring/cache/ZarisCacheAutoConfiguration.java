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
import java.util.stream.Collectors;
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
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * A {@link ZarisCacheManager} for Spring's cache abstraction.
 *
 * <p>Mirrors the conditions of Boot's {@code CacheAutoConfiguration} (caching enabled, i.e. a
 * {@link CacheAspectSupport} bean; no {@link CacheManager} and no {@code cacheResolver} yet) and runs
 * before it, so Boot's backs off when this one supplies the manager. Since Boot's then does not run,
 * its {@link CacheManagerCustomizer}s are applied here. {@code zaris.cache.enabled=false}, or any
 * {@code spring.cache.type} ({@code none}, {@code simple}, ...: Zaris is not one of Boot's types), leaves the
 * cache manager to Boot (or the application). Unknown keys under a cache's settings fail start-up
 * ({@link #requireOnlyCacheSettings}).
 */
@AutoConfiguration(after = ZarisAutoConfiguration.class,
        beforeName = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration")
@ConditionalOnClass({CacheManager.class, CacheManagerCustomizers.class, ZarisClient.class})
@ConditionalOnBean({CacheAspectSupport.class, ZarisClient.class, ZarisSerializer.class})
@ConditionalOnMissingBean(value = CacheManager.class, name = "cacheResolver")
@ConditionalOnProperty(name = "zaris.cache.enabled", matchIfMissing = true)
@Conditional(OnSpringCacheTypeUnsetCondition.class)
public final class ZarisCacheAutoConfiguration {

    /** The keys a cache's settings take, for the message about a key that is none of them. */
    static final String CACHE_SETTINGS = "ttl (or time-to-live), time-to-idle, ttl-jitter, cache-null-values,"
            + " cluster-wide-sync, loader-lease-time";

    @Bean
    @ConditionalOnMissingBean(CacheManager.class)
    ZarisCacheManager cacheManager(ZarisClient client, ZarisSerializer serializer, ZarisProperties properties,
            ObjectProvider<CacheManagerCustomizer<?>> customizers, ObjectProvider<EntrySizeSample> entrySizes,
            Environment environment) {
        requireOnlyCacheSettings(environment);
        ZarisProperties.Cache cache = properties.getCache();
        ZarisCacheConfiguration defaults = configuration("zaris.cache.defaults", cache.getDefaults(),
                ZarisCacheConfiguration.defaults());
        Map<String, ZarisCacheConfiguration> perCache = new LinkedHashMap<>();
        cache.getCaches().forEach((name, spec) ->
                perCache.put(name, configuration("zaris.cache.caches." + name, spec, defaults)));
        try {
            ZarisCacheManager.requireUsableKeyPrefix(cache.getKeyPrefix());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("zaris.cache.key-prefix: " + e.getMessage(), e);
        }
        ZarisCacheManager manager = new ZarisCacheManager(client, serializer, cache.getKeyPrefix(), defaults, perCache,
                cache.getCacheNames(), entrySizes.getIfAvailable(EntrySizeSample::new));
        return new CacheManagerCustomizers(customizers.orderedStream().toList()).customize(manager);
    }

    /**
     * Fails on a key under {@code zaris.cache.defaults} or {@code zaris.cache.caches.<name>} that is not a
     * cache setting. The properties bean ignores unknown keys, so a typo (say {@code tll: 10m}) would
     * otherwise leave the cache without the TTL its author meant, silently.
     *
     * @throws IllegalStateException naming every unknown key and listing the settings there are
     */
    static void requireOnlyCacheSettings(Environment environment) {
        Binder binder = Binder.get(environment);
        try {
            binder.bind("zaris.cache.defaults", Bindable.of(CacheSpec.class),
                    new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
            binder.bind("zaris.cache.caches", Bindable.mapOf(String.class, CacheSpec.class),
                    new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
        } catch (BindException e) {
            if (e.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
                String names = unbound.getUnboundProperties().stream()
                        .map(property -> property.getName().toString())
                        .sorted()
                        .collect(Collectors.joining(", "));
                throw new IllegalStateException(names + ": not a cache setting; a cache (zaris.cache.defaults or"
                        + " zaris.cache.caches.<name>) takes " + CACHE_SETTINGS, e);
            }
            throw e;
        }
    }

    /**
     * The settings {@code spec} describes, unset fields taken from {@code fallback}.
     *
     * @throws IllegalArgumentException naming the property group when a value is out of range
     */
    static ZarisCacheConfiguration configuration(String prefix, CacheSpec spec, ZarisCacheConfiguration fallback) {
        if (spec.setsTimeToLiveTwice()) {
            throw new IllegalArgumentException(prefix + ": ttl and time-to-live are the same setting; set only one");
        }
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
