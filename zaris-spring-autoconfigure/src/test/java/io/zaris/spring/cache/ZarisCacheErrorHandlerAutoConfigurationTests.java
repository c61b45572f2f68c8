package io.zaris.spring.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.zaris.client.ZarisClient;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.cache.ZarisCacheErrorHandler.Operation;
import io.zaris.transport.ZarisException;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCache;
import org.springframework.cache.interceptor.CacheErrorHandler;
import org.springframework.cache.interceptor.CacheInterceptor;
import org.springframework.cache.interceptor.LoggingCacheErrorHandler;
import org.springframework.cache.interceptor.SimpleCacheErrorHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code zaris.cache.on-error}: the handler, its back-off, its scope, and what a cached method sees. */
class ZarisCacheErrorHandlerAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class, ZarisCacheAutoConfiguration.class,
                    ZarisCacheErrorHandlerAutoConfiguration.class, CacheAutoConfiguration.class))
            .withPropertyValues(SharedTestCluster.seedsProperty(), "zaris.cache.key-prefix=" + UUID.randomUUID() + ":");

    @Test
    void defaultShouldFallThroughForZarisCachesAndKeepSpringsHandlingForOthers() {
        runner.withUserConfiguration(PriceService.Config.class).run(context -> {
            ZarisCacheErrorHandler handler = context.getBean(ZarisCacheErrorHandler.class);
            assertThat(handler.isFallThrough()).isTrue();
            assertThat(context).hasSingleBean(ZarisCacheFallThroughMeters.class);
            assertThat(context.getBean(ZarisCacheManager.class).errorHandler()).isSameAs(handler);
            ZarisScopedCacheErrorHandler scoped = scopedHandler(context);
            assertThat(scoped.applicationHandler()).isInstanceOf(SimpleCacheErrorHandler.class);
            assertThatExceptionOfType(ZarisException.class).isThrownBy(() -> scoped.handleCacheGetError(
                    new ZarisException("unreachable"), new ConcurrentMapCache("local"), "k"));
        });
    }

    @Test
    void unreachableCacheShouldLetTheMethodAnswerAndBeCountedButEvictionsShouldFail() {
        runner.withUserConfiguration(PriceService.Config.class).run(context -> {
            PriceService prices = context.getBean(PriceService.class);
            assertThat(prices.price("apple")).isEqualTo(5);
            assertThat(prices.price("apple")).isEqualTo(5);
            assertThat(prices.loads()).isEqualTo(1);

            context.getBean(ZarisClient.class).close();

            assertThat(prices.price("apple")).isEqualTo(5);
            assertThat(prices.syncPrice("pear")).isEqualTo(4);
            assertThat(prices.loads()).isEqualTo(3);
            ZarisCacheErrorHandler handler = context.getBean(ZarisCacheErrorHandler.class);
            assertThat(handler.fallThroughCount("prices", Operation.GET)).isEqualTo(2);
            assertThat(handler.fallThroughCount("prices", Operation.PUT)).isEqualTo(1);
            assertThatExceptionOfType(ZarisException.class).isThrownBy(() -> prices.update("apple"));
        });
    }

    @Test
    void failShouldLeaveZarisCachesToSpringsHandling() {
        runner.withUserConfiguration(PriceService.Config.class).withPropertyValues("zaris.cache.on-error=fail")
                .run(context -> {
                    assertThat(context.getBean(ZarisCacheErrorHandler.class).isFallThrough()).isFalse();
                    PriceService prices = context.getBean(PriceService.class);
                    context.getBean(ZarisClient.class).close();

                    assertThatExceptionOfType(ZarisException.class).isThrownBy(() -> prices.price("apple"));
                    assertThatExceptionOfType(ZarisException.class).isThrownBy(() -> prices.syncPrice("pear"));
                    assertThat(context.getBean(ZarisCacheErrorHandler.class).fallThroughCount()).isZero();
                });
    }

    @Test
    void applicationsOwnHandlerShouldBeUsedInstead() {
        runner.withUserConfiguration(PriceService.Config.class, OwnHandler.Config.class).run(context -> {
            assertThat(context).hasSingleBean(ZarisCacheErrorHandler.class);
            ZarisCacheErrorHandler own = context.getBean(ZarisCacheErrorHandler.class);
            assertThat(own).isSameAs(context.getBean("myZarisErrors"));
            assertThat(context.getBean(ZarisCacheManager.class).errorHandler()).isSameAs(own);

            context.getBean(ZarisClient.class).close();
            assertThat(context.getBean(PriceService.class).price("apple")).isEqualTo(5);
            assertThat(context.getBean(OwnHandler.class).logged).hasValue(2);
        });
    }

    @Test
    void applicationsCachingConfigurerShouldKeepItsHandlerForEverythingZarisDoesNotAbsorb() {
        runner.withUserConfiguration(PriceService.Config.class, LoggingConfigurer.class).run(context -> {
            ZarisScopedCacheErrorHandler scoped = scopedHandler(context);
            assertThat(scoped.applicationHandler()).isSameAs(LoggingConfigurer.HANDLER);
            // Its handler logs instead of throwing, for other caches and for Zaris evictions alike.
            scoped.handleCacheGetError(new ZarisException("unreachable"), new ConcurrentMapCache("local"), "k");
            context.getBean(ZarisClient.class).close();
            context.getBean(PriceService.class).update("apple");
            assertThat(context.getBean(ZarisCacheErrorHandler.class).fallThroughCount()).isZero();
        });
    }

    @Test
    void withoutMicrometerTheCountShouldStillBeReadable() {
        runner.withUserConfiguration(PriceService.Config.class)
                .withClassLoader(new FilteredClassLoader(MeterBinder.class))
                .run(context -> {
                    assertThat(context).hasSingleBean(ZarisCacheErrorHandler.class)
                            .doesNotHaveBean(ZarisCacheFallThroughMeters.class);
                    context.getBean(ZarisClient.class).close();
                    assertThat(context.getBean(PriceService.class).price("apple")).isEqualTo(5);
                    assertThat(context.getBean(ZarisCacheErrorHandler.class).fallThroughCount()).isEqualTo(2);
                });
    }

    @Test
    void withoutCachingOrWithTheZarisCacheDisabledThereShouldBeNoHandler() {
        runner.run(context -> assertThat(context).doesNotHaveBean(ZarisCacheErrorHandler.class));
        runner.withUserConfiguration(PriceService.Config.class).withPropertyValues("zaris.cache.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ZarisCacheErrorHandler.class));
    }

    private static ZarisScopedCacheErrorHandler scopedHandler(AssertableApplicationContext context) {
        CacheErrorHandler installed = context.getBean(CacheInterceptor.class).getErrorHandler();
        assertThat(installed).isInstanceOf(ZarisScopedCacheErrorHandler.class);
        return (ZarisScopedCacheErrorHandler) installed;
    }

    public static class PriceService {

        private final AtomicInteger loads = new AtomicInteger();

        /** Through a method: the test holds the caching proxy, whose own fields are unset. */
        public int loads() {
            return loads.get();
        }

        @Cacheable("prices")
        public Integer price(String fruit) {
            loads.incrementAndGet();
            return fruit.length();
        }

        @Cacheable(cacheNames = "prices", sync = true)
        public Integer syncPrice(String fruit) {
            loads.incrementAndGet();
            return fruit.length();
        }

        @CacheEvict("prices")
        public void update(String fruit) {
        }

        @Configuration(proxyBeanMethods = false)
        @EnableCaching
        static class Config {

            @Bean
            PriceService priceService() {
                return new PriceService();
            }
        }
    }

    /** An application's own handler: falls through, and logs its own way. */
    static class OwnHandler extends ZarisCacheErrorHandler {

        final AtomicInteger logged = new AtomicInteger();

        OwnHandler() {
            super(true);
        }

        @Override
        protected void logFallThrough(Operation operation, RuntimeException failure, String cacheName, Object key) {
            logged.incrementAndGet();
        }

        @Configuration(proxyBeanMethods = false)
        static class Config {

            @Bean
            OwnHandler myZarisErrors() {
                return new OwnHandler();
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class LoggingConfigurer implements CachingConfigurer {

        static final LoggingCacheErrorHandler HANDLER = new LoggingCacheErrorHandler();

        @Override
        public CacheErrorHandler errorHandler() {
            return HANDLER;
        }
    }
}
