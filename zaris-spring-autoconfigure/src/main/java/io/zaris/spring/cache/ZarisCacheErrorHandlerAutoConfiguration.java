package io.zaris.spring.cache;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.zaris.client.ZarisClient;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.ZarisProperties;
import io.zaris.spring.ZarisProperties.Cache.OnError;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cache.interceptor.AbstractCacheInvoker;
import org.springframework.cache.interceptor.CacheAspectSupport;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * {@code zaris.cache.on-error}: a {@link ZarisCacheErrorHandler} (backs off when the application defines
 * one), put in front of every caching aspect's error handler for Zaris caches only
 * ({@link ZarisCacheErrorHandlerInstaller}), and its {@code zaris.cache.fallthroughs} meter when Micrometer
 * is present (Boot binds every {@link MeterBinder} bean to the registry).
 *
 * <p>Separate from {@link ZarisCacheAutoConfiguration}, so that an application that builds its own
 * {@code CacheManager} around Zaris caches gets the same handling.
 */
@AutoConfiguration(after = {ZarisAutoConfiguration.class, ZarisCacheAutoConfiguration.class})
@ConditionalOnClass({CacheAspectSupport.class, ZarisClient.class})
@ConditionalOnBean(CacheAspectSupport.class)
@ConditionalOnProperty(name = "zaris.cache.enabled", matchIfMissing = true)
@Conditional(OnSpringCacheTypeUnsetCondition.class)
public final class ZarisCacheErrorHandlerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ZarisCacheErrorHandler zarisCacheErrorHandler(ZarisProperties properties) {
        return properties.getCache().getOnError() == OnError.FAIL
                ? ZarisCacheErrorHandler.failing() : ZarisCacheErrorHandler.fallingThrough();
    }

    @Bean
    @ConditionalOnMissingBean(name = "zarisCacheErrorHandlerInstaller")
    ZarisCacheErrorHandlerInstaller zarisCacheErrorHandlerInstaller(ZarisCacheErrorHandler handler,
            ObjectProvider<AbstractCacheInvoker> aspects, ObjectProvider<ZarisCacheManager> cacheManagers) {
        return new ZarisCacheErrorHandlerInstaller(handler, aspects, cacheManagers);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterBinder.class)
    static final class FallThroughMetersConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ZarisCacheFallThroughMeters zarisCacheFallThroughMeters(ZarisCacheErrorHandler handler) {
            return new ZarisCacheFallThroughMeters(handler);
        }
    }
}
