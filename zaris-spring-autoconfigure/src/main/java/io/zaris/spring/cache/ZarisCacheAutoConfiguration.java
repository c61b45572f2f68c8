package io.zaris.spring.cache;

import io.zaris.client.ZarisClient;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.InvalidZarisPropertyException;
import io.zaris.spring.ZarisProperties;
import io.zaris.spring.ZarisProperties.CacheSpec;
import io.zaris.spring.ZarisProperties.Serialization.Format;
import io.zaris.spring.ZarisSerializerFormats;
import io.zaris.spring.observation.ZarisOperationObserver;
import io.zaris.spring.serialization.ZarisSerializer;
import java.util.stream.Collectors;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanNotOfRequiredTypeException;
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
    static final String CACHE_SETTINGS = "ttl (or time-to-live), ttl-function, time-to-idle, ttl-jitter,"
            + " cache-null-values, cluster-wide-sync, loader-lease-time, serializer";

    @Bean
    @ConditionalOnMissingBean(CacheManager.class)
    ZarisCacheManager cacheManager(ZarisClient client, ZarisSerializer serializer, ZarisProperties properties,
            ObjectProvider<CacheManagerCustomizer<?>> customizers,
            ObjectProvider<ZarisCacheManagerBuilderCustomizer> builderCustomizers,
            ObjectProvider<EntrySizeSample> entrySizes, ObjectProvider<ZarisOperationObserver> observer,
            Environment environment, BeanFactory beanFactory) {
        requireOnlyCacheSettings(environment);
        ZarisProperties.Cache cache = properties.getCache();
        CacheBeans beans = new CacheBeans(properties, beanFactory);
        ZarisCacheConfiguration defaults = configuration("zaris.cache.defaults", cache.getDefaults(),
                ZarisCacheConfiguration.defaults(), beans);
        try {
            ZarisCacheManager.requireUsableKeyPrefix(cache.getKeyPrefix());
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue("zaris.cache.key-prefix", e.getMessage(), e);
        }
        cache.getCacheNames().forEach(name -> requireUsableCacheName("zaris.cache.cache-names", name));
        cache.getCaches().keySet().forEach(name -> requireUsableCacheName("zaris.cache.caches", name));
        ZarisCacheManager.Builder builder = ZarisCacheManager.builder(client, serializer)
                .keyPrefix(cache.getKeyPrefix())
                .cacheDefaults(defaults)
                .initialCacheNames(cache.getCacheNames())
                .entrySizes(entrySizes.getIfAvailable(EntrySizeSample::new))
                .operationObserver(observer.getIfUnique(ZarisOperationObserver::none));
        cache.getCaches().forEach((name, spec) -> builder.withCacheConfiguration(name,
                configuration("zaris.cache.caches." + name, spec, defaults, beans)));
        builderCustomizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return new CacheManagerCustomizers(customizers.orderedStream().toList()).customize(builder.build());
    }

    /** A cache name from {@code property} that the manager would refuse, reported as that property's fault. */
    private static void requireUsableCacheName(String property, String name) {
        try {
            ZarisCacheManager.requireUsableCacheName(name);
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue(property, e.getMessage(), e);
        }
    }

    /**
     * Fails on a key under {@code zaris.cache.defaults} or {@code zaris.cache.caches.<name>} that is not a
     * cache setting. The properties bean ignores unknown keys, so a typo (say {@code tll: 10m}) would
     * otherwise leave the cache without the TTL its author meant, silently.
     *
     * @throws InvalidZarisPropertyException naming every unknown key and listing the settings there are
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
                throw new InvalidZarisPropertyException(names, names + ": not a cache setting; a cache"
                        + " (zaris.cache.defaults or zaris.cache.caches.<name>) takes " + CACHE_SETTINGS,
                        "Correct or remove " + names + "; a cache's settings are " + CACHE_SETTINGS + ".", e);
            }
            throw e;
        }
    }

    /**
     * The settings {@code spec} describes, unset fields taken from {@code fallback}. The time to live is one
     * setting in two forms: a cache that sets {@code ttl} or {@code ttl-function} drops the other form it would
     * inherit.
     *
     * @throws IllegalArgumentException naming the property group when a value is out of range
     */
    static ZarisCacheConfiguration configuration(String prefix, CacheSpec spec, ZarisCacheConfiguration fallback,
            CacheBeans beans) {
        if (spec.setsTimeToLiveTwice()) {
            throw new InvalidZarisPropertyException(prefix + ".ttl", prefix + ": ttl and time-to-live are the same"
                    + " setting; set only one", "Remove " + prefix + ".ttl or " + prefix + ".time-to-live.");
        }
        if (spec.getTtlFunction() != null && spec.getTimeToLive() != null) {
            throw new InvalidZarisPropertyException(prefix + ".ttl-function", prefix + ": ttl-function and ttl both"
                    + " set the time to live; set only one", "Remove " + prefix + ".ttl-function or " + prefix + ".ttl.");
        }
        try {
            ZarisCacheConfiguration configuration = fallback;
            if (spec.getTtlFunction() != null) {
                configuration = configuration.withTtlFunction(beans.ttlFunction(prefix + ".ttl-function",
                        spec.getTtlFunction()));
            } else if (spec.getTimeToLive() != null) {
                configuration = configuration.withTimeToLive(spec.getTimeToLive());
            }
            if (spec.getSerializer() != null) {
                configuration = configuration.withSerializer(beans.serializer(prefix + ".serializer",
                        spec.getSerializer()));
            }
            return new ZarisCacheConfiguration(configuration.timeToLive(),
                    spec.getTtlJitter() != null ? spec.getTtlJitter() : fallback.ttlJitter(),
                    spec.getCacheNullValues() != null ? spec.getCacheNullValues() : fallback.cacheNullValues(),
                    spec.getClusterWideSync() != null ? spec.getClusterWideSync() : fallback.clusterWideSync(),
                    spec.getLoaderLeaseTime() != null ? spec.getLoaderLeaseTime() : fallback.loaderLeaseTime(),
                    spec.getTimeToIdle() != null ? spec.getTimeToIdle() : fallback.timeToIdle(),
                    configuration.ttlFunction(), configuration.serializer());
        } catch (IllegalArgumentException e) {
            if (e instanceof InvalidZarisPropertyException) {
                throw e;
            }
            throw InvalidZarisPropertyException.badValue(prefix, e.getMessage(), e);
        }
    }

    /** Looks up the beans and formats that cache settings name. */
    static final class CacheBeans {

        private final ZarisProperties properties;
        private final BeanFactory beanFactory;

        CacheBeans(ZarisProperties properties, BeanFactory beanFactory) {
            this.properties = properties;
            this.beanFactory = beanFactory;
        }

        /** {@code jdk}, {@code json} (any case) or the name of a {@link ZarisSerializer} bean. */
        ZarisSerializer serializer(String property, String value) {
            String trimmed = value.trim();
            for (Format format : Format.values()) {
                if (format.name().equalsIgnoreCase(trimmed)) {
                    try {
                        return ZarisSerializerFormats.create(format, properties, beanFactory);
                    } catch (IllegalStateException e) {
                        throw new InvalidZarisPropertyException(property, property + ": " + e.getMessage(),
                                "Add Jackson 3 to the application (e.g. spring-boot-starter-json) or set " + property
                                + "=jdk.", e);
                    }
                }
            }
            return bean(property, trimmed, ZarisSerializer.class, "jdk, json or the name of a ZarisSerializer bean");
        }

        ZarisCacheTtlFunction ttlFunction(String property, String name) {
            return bean(property, name.trim(), ZarisCacheTtlFunction.class, "the name of a ZarisCacheTtlFunction bean");
        }

        private <T> T bean(String property, String name, Class<T> type, String expected) {
            if (!beanFactory.containsBean(name)) {
                throw new InvalidZarisPropertyException(property, property + " is '" + name + "' but there is no"
                        + " bean of that name; it takes " + expected, "Define a bean named '" + name + "', or set "
                        + property + " to " + expected + ".");
            }
            try {
                return beanFactory.getBean(name, type);
            } catch (BeanNotOfRequiredTypeException e) {
                throw new InvalidZarisPropertyException(property, property + " is '" + name + "' but that bean is a "
                        + e.getActualType().getName() + "; it takes " + expected, "Set " + property + " to "
                        + expected + ".", e);
            }
        }
    }
}
