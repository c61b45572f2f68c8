package io.zaris.spring.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.spring.serialization.JsonZarisSerializer;
import io.zaris.spring.serialization.ZarisSerializer;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.actuate.endpoint.CachesEndpoint;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.CacheManagerCustomizer;
import org.springframework.boot.cache.autoconfigure.metrics.CacheMetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.interceptor.CacheResolver;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.cache.support.NoOpCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Conditions, ordering against Boot's cache auto-configuration, properties and cache metrics. */
class ZarisCacheAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class, ZarisCacheAutoConfiguration.class,
                    CacheAutoConfiguration.class))
            .withPropertyValues(SharedTestCluster.seedsProperty(), "zaris.cache.key-prefix=" + UUID.randomUUID() + ":");

    @Test
    void runWithCachingEnabledShouldSupplyTheCacheManagerAndBootShouldBackOff() {
        runner.withUserConfiguration(CachingEnabled.class).run(context -> {
            assertThat(context).hasSingleBean(CacheManager.class).hasSingleBean(ZarisCacheManager.class);
            assertThat(context).getBean("cacheManager").isInstanceOf(ZarisCacheManager.class);
        });
    }

    @Test
    void runWithoutEnableCachingShouldNotCreateACacheManager() {
        runner.run(context -> assertThat(context).doesNotHaveBean(CacheManager.class));
    }

    @Test
    void runWithUserDefinedCacheManagerShouldBackOff() {
        runner.withUserConfiguration(CachingEnabled.class, CustomCacheManager.class)
                .run(context -> assertThat(context).hasSingleBean(CacheManager.class)
                        .doesNotHaveBean(ZarisCacheManager.class));
    }

    @Test
    void runWithCacheResolverBeanShouldBackOff() {
        runner.withUserConfiguration(CachingWithResolver.class)
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ZarisCacheManager.class));
    }

    @Test
    void runWithCacheDisabledShouldLeaveTheCacheManagerToBoot() {
        runner.withUserConfiguration(CachingEnabled.class).withPropertyValues("zaris.cache.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ZarisCacheManager.class)
                        .hasSingleBean(CacheManager.class));
    }

    @Test
    void runWithSpringCacheTypeNoneShouldSwitchCachingOff() {
        runner.withConfiguration(AutoConfigurations.of(ZarisCacheErrorHandlerAutoConfiguration.class))
                .withUserConfiguration(CachingEnabled.class).withBean(BookService.class)
                .withPropertyValues("spring.cache.type=none").run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(ZarisCacheManager.class)
                            .doesNotHaveBean(ZarisCacheErrorHandler.class);
                    assertThat(context.getBean(CacheManager.class)).isInstanceOf(NoOpCacheManager.class);
                    BookService books = context.getBean(BookService.class);
                    books.title("1");
                    books.title("1");
                    assertThat(books.calls()).isEqualTo(2);
                });
    }

    @Test
    void runWithAnotherSpringCacheTypeShouldLeaveTheCacheManagerToBoot() {
        runner.withUserConfiguration(CachingEnabled.class).withBean(BookService.class)
                .withPropertyValues("spring.cache.type=simple").run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(ZarisCacheManager.class);
                    assertThat(context.getBean(CacheManager.class)).isInstanceOf(ConcurrentMapCacheManager.class);
                    BookService books = context.getBean(BookService.class);
                    books.title("1");
                    books.title("1");
                    assertThat(books.calls()).isEqualTo(1);
                });
    }

    @Test
    void runWithBlankSpringCacheTypeShouldKeepZarisCaching() {
        runner.withUserConfiguration(CachingEnabled.class).withPropertyValues("spring.cache.type=")
                .run(context -> assertThat(context).hasSingleBean(ZarisCacheManager.class));
    }

    @Test
    void runWithoutBootCacheModuleShouldNotConfigureACacheManager() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class, ZarisCacheAutoConfiguration.class))
                .withPropertyValues(SharedTestCluster.seedsProperty())
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.cache"))
                .withUserConfiguration(CachingEnabled.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .as("nobody supplied a CacheManager for @EnableCaching")
                        .hasMessageContaining("No qualifying bean of type 'org.springframework.cache.CacheManager'"));
    }

    @Test
    void runWithCachePropertiesShouldConfigureEachCache() {
        runner.withUserConfiguration(CachingEnabled.class).withPropertyValues(
                "zaris.cache.cache-names=products,prices",
                "zaris.cache.defaults.time-to-live=10m",
                "zaris.cache.defaults.cache-null-values=false",
                "zaris.cache.caches.products.time-to-live=30s",
                "zaris.cache.caches.products.ttl-jitter=0.1",
                "zaris.cache.caches.products.cluster-wide-sync=true",
                "zaris.cache.caches.products.loader-lease-time=5s").run(context -> {
                    ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
                    assertThat(manager.getCacheNames()).containsExactlyInAnyOrder("products", "prices");
                    assertThat(manager.configurationOf("products")).isEqualTo(new ZarisCacheConfiguration(
                            Duration.ofSeconds(30), 0.1, false, true, Duration.ofSeconds(5)));
                    assertThat(manager.configurationOf("prices")).isEqualTo(new ZarisCacheConfiguration(
                            Duration.ofMinutes(10), 0, false, false, ZarisCacheConfiguration.DEFAULT_LOADER_LEASE_TIME));
                    assertThat(manager.getCache("anything-else").isAllowNullValues()).isFalse();
                });
    }

    @Test
    void runWithTtlShouldSetTheTimeToLiveLikeItsLongName() {
        runner.withUserConfiguration(CachingEnabled.class).withPropertyValues(
                "zaris.cache.defaults.ttl=10m",
                "zaris.cache.caches.products.ttl=30s",
                "zaris.cache.caches.prices.time-to-live=45s").run(context -> {
                    ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
                    assertThat(manager.configurationOf("products").timeToLive()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(manager.configurationOf("prices").timeToLive()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(manager.configurationOf("anything-else").timeToLive()).isEqualTo(Duration.ofMinutes(10));
                });
    }

    @Test
    void runWithBothTtlNamesOnOneCacheShouldFailNamingTheCache() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.caches.products.ttl=30s", "zaris.cache.caches.products.time-to-live=1m")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining(
                            "zaris.cache.caches.products: ttl and time-to-live are the same setting; set only one");
                });
    }

    @Test
    void runWithUnknownKeyUnderACacheShouldFailNamingItAndTheSettingsThereAre() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.caches.products.tll=30s", "zaris.cache.caches.products.ttl=1m")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .hasStackTraceContaining("zaris.cache.caches.products.tll: not a cache setting")
                            .hasStackTraceContaining(ZarisCacheAutoConfiguration.CACHE_SETTINGS);
                });
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.defaults.time-to-life=1m")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining(
                            "zaris.cache.defaults.time-to-life: not a cache setting");
                });
    }

    @Test
    void runWithKeyPrefixContainingTheSeparatorShouldFailNamingTheProperty() {
        runner.withUserConfiguration(CachingEnabled.class).withPropertyValues("zaris.cache.key-prefix=app::")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining(
                            "zaris.cache.key-prefix: the key prefix 'app::' must not contain '::'");
                });
    }

    @Test
    void runWithPerCacheTimeToIdleShouldCombineWithTheInheritedTimeToLive() {
        runner.withUserConfiguration(CachingEnabled.class).withPropertyValues(
                "zaris.cache.defaults.time-to-live=10m",
                "zaris.cache.defaults.ttl-jitter=0.2",
                "zaris.cache.caches.sessions.time-to-idle=15m").run(context -> {
                    ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
                    assertThat(manager.configurationOf("sessions")).isEqualTo(ZarisCacheConfiguration.defaults()
                            .withTimeToLive(Duration.ofMinutes(10)).withTtlJitter(0.2)
                            .withTimeToIdle(Duration.ofMinutes(15)));
                    assertThat(manager.configurationOf("other").timeToLive()).isEqualTo(Duration.ofMinutes(10));
                });
    }

    @Test
    void runWithTimeToLiveAndTimeToIdleOnOneCacheShouldKeepBoth() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.caches.sessions.time-to-live=1h",
                        "zaris.cache.caches.sessions.time-to-idle=10m")
                .run(context -> {
                    ZarisCacheConfiguration sessions = context.getBean(ZarisCacheManager.class).configurationOf("sessions");
                    assertThat(sessions.timeToLive()).isEqualTo(Duration.ofHours(1));
                    assertThat(sessions.timeToIdle()).isEqualTo(Duration.ofMinutes(10));
                });
    }

    @Test
    void runWithPerCacheSerializerAndTtlFunctionShouldResolveTheNamedFormatsAndBeans() {
        ZarisCacheTtlFunction byKeyLength = (key, value) -> Duration.ofSeconds(key.toString().length());
        ZarisSerializer custom = new JdkZarisSerializer(ClassAllowList.of(List.of()), null);
        runner.withUserConfiguration(CachingEnabled.class)
                .withBean("keyLengthTtl", ZarisCacheTtlFunction.class, () -> byKeyLength)
                .withBean("customSerializer", ZarisSerializer.class, () -> custom)
                .withPropertyValues("zaris.cache.defaults.time-to-live=10m",
                        "zaris.cache.caches.computed.ttl-function=keyLengthTtl",
                        "zaris.cache.caches.documents.serializer=json",
                        "zaris.cache.caches.legacy.serializer=customSerializer")
                .run(context -> {
                    ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
                    assertThat(manager.configurationOf("computed").ttlFunction()).isSameAs(byKeyLength);
                    assertThat(manager.configurationOf("computed").timeToLive()).isZero();
                    assertThat(manager.configurationOf("documents").serializer()).isInstanceOf(JsonZarisSerializer.class);
                    assertThat(manager.configurationOf("legacy").serializer()).isSameAs(custom);
                    assertThat(manager.configurationOf("other").serializer()).isNull();

                    ZarisCache documents = manager.getCache("documents");
                    documents.put("k", "text");
                    byte[] stored = context.getBean(io.zaris.client.ZarisClient.class).sync()
                            .get(documents.storeKey("k")).orElseThrow().value();
                    assertThat(new String(stored, 1, stored.length - 1, java.nio.charset.StandardCharsets.UTF_8))
                            .contains("\"text\"");
                    assertThat(documents.get("k", String.class)).isEqualTo("text");
                });
    }

    @Test
    void runWithPerCacheSettingNamingAMissingBeanShouldFailNamingTheProperty() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withBean("notASerializer", String.class, () -> "text")
                .withPropertyValues("zaris.cache.caches.legacy.serializer=notASerializer")
                .run(context -> assertThat(context.getStartupFailure()).hasStackTraceContaining(
                        "zaris.cache.caches.legacy.serializer is 'notASerializer' but that bean is a java.lang.String"));
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.caches.computed.ttl-function=nowhere")
                .run(context -> assertThat(context.getStartupFailure()).hasStackTraceContaining(
                        "zaris.cache.caches.computed.ttl-function is 'nowhere' but there is no bean of that name"));
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.caches.computed.ttl-function=f", "zaris.cache.caches.computed.ttl=1m")
                .run(context -> assertThat(context.getStartupFailure()).hasStackTraceContaining(
                        "zaris.cache.caches.computed: ttl-function and ttl both set the time to live"));
    }

    @Test
    void builderCustomizersShouldSetPerCacheConfigurationInCodeOverTheProperties() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.caches.sessions.time-to-live=1m")
                .withBean("first", ZarisCacheManagerBuilderCustomizer.class, () -> builder -> builder
                        .withCacheConfiguration("sessions", builder.configurationOf("sessions")
                                .withTimeToIdle(Duration.ofSeconds(20)))
                        .withCacheConfiguration("reports", builder.cacheDefaults().withTtlFunction(
                                (key, value) -> Duration.ofHours(1))))
                .withBean(CacheManagerCustomizer.class, () -> (CacheManagerCustomizer<ZarisCacheManager>) manager ->
                        manager.getCache("customized-after-build"))
                .run(context -> {
                    ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
                    assertThat(manager.configurationOf("sessions").timeToLive()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(manager.configurationOf("sessions").timeToIdle()).isEqualTo(Duration.ofSeconds(20));
                    assertThat(manager.configurationOf("reports").ttlFunction()).isNotNull();
                    assertThat(manager.getCacheNames()).contains("sessions", "reports", "customized-after-build");
                });
    }

    @Test
    void runWithOutOfRangeJitterShouldFailNamingTheCacheProperty() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.caches.products.time-to-live=1m",
                        "zaris.cache.caches.products.ttl-jitter=1.5")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.cache.caches.products")
                            .hasStackTraceContaining("ttlJitter");
                });
    }

    @Test
    void runWithCustomizerShouldApplyItToTheZarisCacheManager() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withBean(CacheManagerCustomizer.class, () -> (CacheManagerCustomizer<ZarisCacheManager>) manager ->
                        manager.getCache("from-customizer"))
                .run(context -> assertThat(context.getBean(ZarisCacheManager.class).getCacheNames())
                        .contains("from-customizer"));
    }

    @Test
    void cacheMetricsShouldCoverCachesFromStartUpAndCachesCreatedLater() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withConfiguration(AutoConfigurations.of(ZarisCacheMetricsAutoConfiguration.class,
                        CacheMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class)
                .withPropertyValues("zaris.cache.cache-names=early")
                .run(context -> {
                    ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    manager.getCache("early").get("absent");
                    ZarisCache late = manager.getCache("late");
                    late.put("k", "v");
                    late.get("k");
                    late.evict("k");

                    assertThat(registry.get("cache.gets").tags("cache", "early", "result", "miss").functionCounter()
                            .count()).isEqualTo(1);
                    assertThat(registry.get("cache.gets").tags("cache", "late", "result", "hit",
                            "cache.manager", "cacheManager").functionCounter().count()).isEqualTo(1);
                    assertThat(registry.get("cache.puts").tags("cache", "late").functionCounter().count()).isEqualTo(1);
                    assertThat(registry.get("cache.evictions").tags("cache", "late").functionCounter().count())
                            .isEqualTo(1);
                });
    }

    @Test
    void cacheMetricsShouldBindEveryCacheOnceSoMicrometerRefusesNoRegistration() {
        List<String> refused = new java.util.concurrent.CopyOnWriteArrayList<>();
        SimpleMeterRegistry watched = new SimpleMeterRegistry();
        watched.config().onMeterRegistrationFailed((id, reason) -> refused.add(id.getName() + ": " + reason));
        runner.withUserConfiguration(CachingEnabled.class)
                .withConfiguration(AutoConfigurations.of(ZarisCacheMetricsAutoConfiguration.class,
                        CacheMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class, () -> watched)
                .withPropertyValues("zaris.cache.cache-names=early,products")
                .run(context -> {
                    context.getBean(ZarisCacheManager.class).getCache("late").get("absent");

                    assertThat(watched.find("cache.gets").tags("cache", "early").functionCounters()).hasSize(2);
                    assertThat(watched.find("cache.gets").tags("cache", "late").functionCounters()).hasSize(2);
                    assertThat(refused).isEmpty();
                });
    }

    @Test
    void runWithUserDefinedCacheMeterBinderProviderShouldBackOff() {
        ZarisCacheMeterBinderProvider custom = new ZarisCacheMeterBinderProvider();
        runner.withUserConfiguration(CachingEnabled.class)
                .withConfiguration(AutoConfigurations.of(ZarisCacheMetricsAutoConfiguration.class))
                .withBean("customProvider", ZarisCacheMeterBinderProvider.class, () -> custom)
                .run(context -> {
                    assertThat(context).hasSingleBean(ZarisCacheMeterBinderProvider.class);
                    assertThat(context.getBean(ZarisCacheMeterBinderProvider.class)).isSameAs(custom);
                });
    }

    @Test
    void runWithUserDefinedLateCacheMetricsBinderShouldBackOffAndLeaveLaterCachesUnbound() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withConfiguration(AutoConfigurations.of(ZarisCacheMetricsAutoConfiguration.class,
                        CacheMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class)
                .withBean("zarisLateCacheMetricsBinder", SmartInitializingSingleton.class, () -> () -> { })
                .withPropertyValues("zaris.cache.cache-names=early")
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean(ZarisCacheManager.class).getCache("late").get("absent");

                    assertThat(registry.find("cache.gets").tags("cache", "early").functionCounters()).isNotEmpty();
                    assertThat(registry.find("cache.gets").tags("cache", "late").functionCounters())
                            .as("only the auto-configured binder binds caches created later").isEmpty();
                });
    }

    @Test
    void cacheMetricsShouldNeedMicrometerAndBootsCacheMetrics() {
        ApplicationContextRunner metrics = runner.withUserConfiguration(CachingEnabled.class)
                .withConfiguration(AutoConfigurations.of(ZarisCacheMetricsAutoConfiguration.class));
        metrics.run(context -> assertThat(context).hasSingleBean(ZarisCacheMeterBinderProvider.class)
                .hasBean("zarisLateCacheMetricsBinder"));
        metrics.withClassLoader(new FilteredClassLoader("io.micrometer"))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ZarisCacheManager.class)
                        .doesNotHaveBean(ZarisCacheMeterBinderProvider.class)
                        .doesNotHaveBean("zarisLateCacheMetricsBinder"));
        metrics.withClassLoader(new FilteredClassLoader("org.springframework.boot.cache.metrics"))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ZarisCacheManager.class)
                        .doesNotHaveBean(ZarisCacheMeterBinderProvider.class)
                        .doesNotHaveBean("zarisLateCacheMetricsBinder"));
    }

    @Test
    void cacheableMethodsShouldBeServedFromZarisForPlainSyncAsyncAndReactiveReturnTypes() {
        runner.withUserConfiguration(CachingEnabled.class).withBean(BookService.class).run(context -> {
            BookService books = context.getBean(BookService.class);

            assertThat(books.title("1")).isEqualTo("title-1");
            assertThat(books.title("1")).isEqualTo("title-1");
            assertThat(books.titleSync("2")).isEqualTo("title-2");
            assertThat(books.titleSync("2")).isEqualTo("title-2");
            assertThat(books.titleAsync("3").get(5, TimeUnit.SECONDS)).isEqualTo("title-3");
            assertThat(books.titleAsync("3").get(5, TimeUnit.SECONDS)).isEqualTo("title-3");
            assertThat(books.titleAsyncSync("4").get(5, TimeUnit.SECONDS)).isEqualTo("title-4");
            assertThat(books.titleAsyncSync("4").get(5, TimeUnit.SECONDS)).isEqualTo("title-4");
            assertThat(books.nothing("5")).isNull();
            assertThat(books.nothing("5")).isNull();
            assertThat(books.titleMono("6").block(Duration.ofSeconds(5))).isEqualTo("title-6");
            assertThat(books.titleMono("6").block(Duration.ofSeconds(5))).isEqualTo("title-6");
            assertThat(books.titleMonoSync("7").block(Duration.ofSeconds(5))).isEqualTo("title-7");
            assertThat(books.titleMonoSync("7").block(Duration.ofSeconds(5))).isEqualTo("title-7");
            assertThat(books.chapters("8").collectList().block(Duration.ofSeconds(5))).containsExactly("8.1", "8.2");
            assertThat(books.chapters("8").collectList().block(Duration.ofSeconds(5))).containsExactly("8.1", "8.2");

            assertThat(books.calls()).isEqualTo(8);
            ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
            assertThat(manager.getCache("books").get("1", String.class)).isEqualTo("title-1");
            // The reactive results live in the cluster too: a Mono's value, a Flux's elements as a list.
            assertThat(manager.getCache("books-mono").get("6", String.class)).isEqualTo("title-6");
            assertThat(manager.getCache("books-mono-sync").get("7", String.class)).isEqualTo("title-7");
            assertThat(manager.getCache("books-flux").get("8", List.class)).containsExactly("8.1", "8.2");
        });
    }

    @Test
    void cachesEndpointShouldListZarisCaches() {
        runner.withUserConfiguration(CachingEnabled.class).withPropertyValues("zaris.cache.cache-names=products")
                .run(context -> {
                    context.getBean(ZarisCacheManager.class).getCache("created-later");
                    CachesEndpoint endpoint = new CachesEndpoint(context.getBeansOfType(CacheManager.class));

                    assertThat(endpoint.caches().getCacheManagers().get("cacheManager").getCaches())
                            .containsKeys("products", "created-later");
                    assertThat(endpoint.cache("products", "cacheManager").getTarget())
                            .isEqualTo(io.zaris.client.ZarisClient.class.getName());
                });
    }

    @Test
    void runWithNearCacheShouldAnswerRepeatedCacheableHitsLocally() {
        runner.withUserConfiguration(CachingEnabled.class).withBean(BookService.class)
                .withPropertyValues("zaris.cache.near-cache.enabled=true").run(context -> {
                    BookService books = context.getBean(BookService.class);
                    io.zaris.client.ZarisClient client = context.getBean(io.zaris.client.ZarisClient.class);
                    String id = UUID.randomUUID().toString();

                    assertThat(books.title(id)).isEqualTo("title-" + id); // miss: runs, then stores (drops the key here)
                    assertThat(books.title(id)).isEqualTo("title-" + id); // remote hit: kept
                    long nearHits = client.nearCacheStats().hits();
                    assertThat(books.title(id)).isEqualTo("title-" + id); // near hit

                    assertThat(books.calls()).isEqualTo(1);
                    assertThat(client.nearCacheStats().hits()).isEqualTo(nearHits + 1);
                });
    }

    @Test
    void runWithNearCacheShouldDecodeAnImmutableValueOncePerNearEntryAndAMutableOneOnEveryHit() {
        runner.withUserConfiguration(CachingEnabled.class).withBean(BookService.class)
                .withPropertyValues("zaris.cache.near-cache.enabled=true").run(context -> {
                    BookService books = context.getBean(BookService.class);
                    io.zaris.client.ZarisClient client = context.getBean(io.zaris.client.ZarisClient.class);
                    String id = UUID.randomUUID().toString();
                    books.title(id); // miss: runs, then stores
                    books.title(id); // remote hit: kept in the near cache
                    books.tags(id);
                    books.tags(id);
                    // Both entries are served locally once their segments' invalidation streams are live; a stream
                    // that is still resuming (the embedded cluster may have just changed an epoch) sends the read to
                    // the owner, so the test waits for two local hits in a row rather than counting on the first.
                    String[] title = new String[1];
                    List<java.util.ArrayList<String>> tagsRead = new java.util.ArrayList<>();
                    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() -> {
                        long nearHits = client.nearCacheStats().hits();
                        title[0] = books.title(id);
                        tagsRead.add(0, books.tags(id));
                        assertThat(client.nearCacheStats().hits()).isEqualTo(nearHits + 2);
                    });
                    java.util.ArrayList<String> tags = tagsRead.get(0);

                    assertThat(books.title(id)).isSameAs(title[0]).isEqualTo("title-" + id);
                    assertThat(books.tags(id)).isNotSameAs(tags).isEqualTo(List.of("tag-" + id));
                    tags.add("changed by one caller");
                    assertThat(books.tags(id)).isEqualTo(List.of("tag-" + id));
                    assertThat(books.calls()).isEqualTo(2);
                });
    }

    @Test
    void runWithNearCacheOffForOneCacheShouldSendThatCachesReadsToTheOwner() {
        runner.withUserConfiguration(CachingEnabled.class).withBean(BookService.class)
                .withPropertyValues("zaris.cache.near-cache.enabled=true",
                        "zaris.cache.caches.books.near-cache.enabled=false").run(context -> {
                    BookService books = context.getBean(BookService.class);
                    io.zaris.client.ZarisClient client = context.getBean(io.zaris.client.ZarisClient.class);
                    ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
                    String id = UUID.randomUUID().toString();

                    books.title(id);
                    books.title(id);
                    io.zaris.client.NearCacheStats before = client.nearCacheStats();
                    books.title(id);
                    books.title(id);

                    assertThat(books.calls()).as("still cached, in the cluster").isEqualTo(1);
                    assertThat(client.nearCacheStats().hits()).isEqualTo(before.hits());
                    assertThat(client.nearCacheStats().entries()).as("nothing of books kept").isZero();
                    assertThat(manager.getCache("books").nearHitCount()).isZero();
                    assertThat(manager.getCache("books").hitCount()).isEqualTo(3);
                    assertThat(manager.configurationOf("books").nearCache()).isEqualTo(NearCacheSettings.DISABLED);
                    assertThat(manager.configurationOf("books-sync").nearCache()).isEqualTo(NearCacheSettings.DEFAULT);

                    String other = UUID.randomUUID().toString();
                    books.titleSync(other);
                    books.titleSync(other);
                    books.titleSync(other);
                    assertThat(manager.getCache("books-sync").nearHitCount()).as("other caches still use it")
                            .isEqualTo(1);
                });
    }

    @Test
    void runWithANearCacheTimeToLiveShouldServeNoNearEntryOlderThanThat() {
        runner.withUserConfiguration(CachingEnabled.class).withBean(BookService.class)
                .withPropertyValues("zaris.cache.near-cache.enabled=true",
                        "zaris.cache.defaults.near-cache.time-to-live=10m",
                        "zaris.cache.caches.books.near-cache.time-to-live=1ns").run(context -> {
                    BookService books = context.getBean(BookService.class);
                    ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
                    String id = UUID.randomUUID().toString();

                    for (int i = 0; i < 4; i++) {
                        books.title(id);
                        books.titleSync(id);
                    }

                    assertThat(manager.configurationOf("books").nearCache())
                            .isEqualTo(new NearCacheSettings(true, Duration.ofNanos(1)));
                    assertThat(manager.configurationOf("books-sync").nearCache())
                            .isEqualTo(new NearCacheSettings(true, Duration.ofMinutes(10)));
                    assertThat(manager.getCache("books").hitCount()).isEqualTo(3);
                    assertThat(manager.getCache("books").nearHitCount()).as("every near entry is older than 1 ns")
                            .isZero();
                    assertThat(manager.getCache("books-sync").nearHitCount()).isEqualTo(2);
                });
    }

    @Test
    void runWithACacheAskingForTheNearCacheWhileTheClientHasNoneShouldFailNamingTheProperty() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.caches.books.near-cache.enabled=true").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(io.zaris.spring.InvalidZarisPropertyException.class)
                            .hasMessageContaining("zaris.cache.caches.books.near-cache.enabled is true but the client"
                                    + " has no near cache");
                });
    }

    @Test
    void runWithANegativeNearCacheTimeToLiveShouldFailNamingTheProperty() {
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.near-cache.enabled=true",
                        "zaris.cache.caches.books.near-cache.time-to-live=-1s").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(io.zaris.spring.InvalidZarisPropertyException.class)
                            .hasMessageContaining("zaris.cache.caches.books.near-cache.time-to-live must be >= 0");
                });
        runner.withUserConfiguration(CachingEnabled.class)
                .withPropertyValues("zaris.cache.near-cache.enabled=true",
                        "zaris.cache.caches.books.near-cache.max-entries=5").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining(
                            "zaris.cache.caches.books.near-cache.max-entries: not a cache setting");
                });
    }

    @Test
    void runWithABuilderCustomizerShouldSetACachesNearCacheInCode() {
        runner.withUserConfiguration(CachingEnabled.class).withBean(BookService.class)
                .withBean(ZarisCacheManagerBuilderCustomizer.class, () -> builder -> builder.withCacheConfiguration(
                        "books", ZarisCacheConfiguration.defaults().withNearCache(false)))
                .withPropertyValues("zaris.cache.near-cache.enabled=true").run(context -> {
                    BookService books = context.getBean(BookService.class);
                    ZarisCacheManager manager = context.getBean(ZarisCacheManager.class);
                    String id = UUID.randomUUID().toString();
                    for (int i = 0; i < 3; i++) {
                        books.title(id);
                    }
                    assertThat(manager.configurationOf("books").nearCache().enabled()).isFalse();
                    assertThat(manager.getCache("books").hitCount()).isEqualTo(2);
                    assertThat(manager.getCache("books").nearHitCount()).isZero();
                });
    }

    @Test
    void cacheMetricsShouldShowNearHitsApartFromRemoteHits() {
        runner.withUserConfiguration(CachingEnabled.class).withBean(BookService.class)
                .withConfiguration(AutoConfigurations.of(ZarisCacheMetricsAutoConfiguration.class,
                        CacheMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class)
                .withPropertyValues("zaris.cache.near-cache.enabled=true", "zaris.cache.cache-names=books")
                .run(context -> {
                    BookService books = context.getBean(BookService.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    String id = UUID.randomUUID().toString();
                    for (int i = 0; i < 4; i++) {
                        books.title(id); // a miss, a remote hit (kept), then near hits
                    }

                    assertThat(registry.get("cache.gets").tags("cache", "books", "result", "hit").functionCounter()
                            .count()).isEqualTo(3);
                    assertThat(registry.get("cache.hits").tags("cache", "books", "source", "near").functionCounter()
                            .count()).isEqualTo(2);
                    assertThat(registry.get("cache.hits").tags("cache", "books", "source", "remote").functionCounter()
                            .count()).isEqualTo(1);
                });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class CachingEnabled {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class CachingWithResolver implements CachingConfigurer {

        @Bean
        @Override
        public CacheResolver cacheResolver() {
            return context -> List.of();
        }
    }

    static class BookService {

        private final AtomicInteger calls = new AtomicInteger();

        /** Through a method: the test holds the caching proxy, whose own fields are unset. */
        public int calls() {
            return calls.get();
        }

        @Cacheable("books")
        public String title(String id) {
            calls.incrementAndGet();
            return "title-" + id;
        }

        @Cacheable("books-tags")
        public java.util.ArrayList<String> tags(String id) {
            calls.incrementAndGet();
            return new java.util.ArrayList<>(List.of("tag-" + id));
        }

        @Cacheable(cacheNames = "books-sync", sync = true)
        public String titleSync(String id) {
            calls.incrementAndGet();
            return "title-" + id;
        }

        @Cacheable("books-async")
        public CompletableFuture<String> titleAsync(String id) {
            calls.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> "title-" + id);
        }

        @Cacheable(cacheNames = "books-async-sync", sync = true)
        public CompletableFuture<String> titleAsyncSync(String id) {
            calls.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> "title-" + id);
        }

        @Cacheable("books-null")
        public String nothing(String id) {
            calls.incrementAndGet();
            return null;
        }

        @Cacheable("books-mono")
        public Mono<String> titleMono(String id) {
            calls.incrementAndGet();
            return Mono.fromSupplier(() -> "title-" + id);
        }

        @Cacheable(cacheNames = "books-mono-sync", sync = true)
        public Mono<String> titleMonoSync(String id) {
            calls.incrementAndGet();
            return Mono.fromSupplier(() -> "title-" + id);
        }

        @Cacheable("books-flux")
        public Flux<String> chapters(String id) {
            calls.incrementAndGet();
            return Flux.just(id + ".1", id + ".2");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomCacheManager {

        @Bean
        CacheManager customCacheManager() {
            return new ConcurrentMapCacheManager();
        }
    }

}
