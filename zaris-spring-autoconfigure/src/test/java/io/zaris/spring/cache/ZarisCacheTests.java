package io.zaris.spring.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.spring.serialization.ZarisSerializationException;
import io.zaris.spring.serialization.ZarisSerializer;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cache.Cache;
import org.springframework.cache.support.NullValue;

/** The Cache SPI against a real two-node cluster. Every test uses its own key prefix. */
class ZarisCacheTests {

    private final ZarisClient client = SharedTestCluster.client();
    private final String prefix = "t-" + UUID.randomUUID() + ":";
    private final JdkZarisSerializer serializer = new JdkZarisSerializer(
            ClassAllowList.of(List.of("io.zaris.spring.cache.*")), null);
    private final ExecutorService threads = Executors.newFixedThreadPool(8);

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private ZarisCacheManager manager(ZarisCacheConfiguration defaults, Map<String, ZarisCacheConfiguration> perCache) {
        return new ZarisCacheManager(client, serializer, prefix, defaults, perCache, List.of(), () -> 0.5,
                ForkJoinPool.commonPool());
    }

    private ZarisCache cache(String name) {
        return manager(ZarisCacheConfiguration.defaults(), Map.of()).getCache(name);
    }

    @Test
    void putThenGetShouldRoundTripThroughTheClusterUnderANamespacedKey() {
        ZarisCache books = cache("books");

        books.put(42, new Book("Dune", 1965));

        assertThat(books.get(42, Book.class)).isEqualTo(new Book("Dune", 1965));
        assertThat(client.sync().get(prefix + "books::42")).isPresent();
        assertThat(books.storeKey(42)).isEqualTo(prefix + "books::42");
    }

    @Test
    void getOfMissingKeyShouldBeNullAndCountAMiss() {
        ZarisCache books = cache("books");

        assertThat(books.get("absent")).isNull();
        assertThat(books.missCount()).isEqualTo(1);
        assertThat(books.hitCount()).isZero();
    }

    @Test
    void nullValueShouldBeCachedAsAMarkerThatSurvivesTheCluster() {
        ZarisCache books = cache("books");

        books.put("nothing", null);

        Cache.ValueWrapper wrapper = books.get("nothing");
        assertThat(wrapper).isNotNull();
        assertThat(wrapper.get()).isNull();
        assertThat(client.sync().get(books.storeKey("nothing")).orElseThrow().value()).containsExactly(0);
    }

    @Test
    void nullValueWhenNullsAreNotCachedShouldBeRefused() {
        ZarisCache books = manager(ZarisCacheConfiguration.defaults().withCacheNullValues(false), Map.of())
                .getCache("books");

        assertThatIllegalArgumentException().isThrownBy(() -> books.put("nothing", null))
                .withMessageContaining("books");
    }

    @Test
    void perCacheTimeToLiveWithJitterShouldReachTheStoredEntry() {
        ZarisCacheManager manager = manager(ZarisCacheConfiguration.defaults(), Map.of(
                "short", ZarisCacheConfiguration.defaults().withTimeToLive(Duration.ofSeconds(100)).withTtlJitter(0.2)));
        ZarisCache shortLived = manager.getCache("short");
        ZarisCache forever = manager.getCache("forever");

        shortLived.put("k", "v");
        forever.put("k", "v");

        // The jitter source returns 0.5: 100 s + 0.5 * 0.2 * 100 s = 110 s.
        long remaining = client.sync().get(shortLived.storeKey("k")).orElseThrow().ttlRemainingMillis();
        assertThat(remaining).isBetween(100_000L, 110_000L);
        assertThat(client.sync().get(forever.storeKey("k")).orElseThrow().ttlRemainingMillis()).isZero();
    }

    @Test
    void entryShouldExpireAfterItsTimeToLive() {
        ZarisCache quick = manager(ZarisCacheConfiguration.defaults().withTimeToLive(Duration.ofMillis(200)), Map.of())
                .getCache("quick");
        quick.put("k", "v");

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> quick.get("k") == null);
    }

    @Test
    void hitOnTimeToIdleCacheShouldSlideTheEntrysExpiry() {
        ZarisCache idle = manager(ZarisCacheConfiguration.defaults().withTimeToIdle(Duration.ofSeconds(100)), Map.of())
                .getCache("idle");
        idle.put("k", "v");
        String storeKey = idle.storeKey("k");
        assertThat(client.sync().get(storeKey).orElseThrow().ttlRemainingMillis()).isBetween(1L, 100_000L);
        // Shorten the entry's life behind the cache's back; a hit must give it the full idle time again.
        client.sync().expire(storeKey, Duration.ofSeconds(50));

        assertThat(idle.get("k", String.class)).isEqualTo("v");

        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(client.sync().get(storeKey).orElseThrow().ttlRemainingMillis()).isGreaterThan(50_000L));
    }

    @Test
    void asyncHitOnTimeToIdleCacheShouldSlideTheEntrysExpiryToo() {
        ZarisCache idle = manager(ZarisCacheConfiguration.defaults().withTimeToIdle(Duration.ofSeconds(100)), Map.of())
                .getCache("idle");
        idle.put("k", "v");
        String storeKey = idle.storeKey("k");
        client.sync().expire(storeKey, Duration.ofSeconds(50));

        assertThat(idle.retrieve("k").join()).isNotNull();

        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(client.sync().get(storeKey).orElseThrow().ttlRemainingMillis()).isGreaterThan(50_000L));
    }

    @Test
    void idleEntryShouldExpireWhenNotRead() {
        ZarisCache idle = manager(ZarisCacheConfiguration.defaults().withTimeToIdle(Duration.ofMillis(300)), Map.of())
                .getCache("idle");
        idle.put("k", "v");

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.sync().get(idle.storeKey("k")).isEmpty());
        assertThat(idle.get("k")).isNull();
    }

    @Test
    void clusterWideSyncShouldTakeOverTheLeaseOfALoaderThatDied() throws Exception {
        ZarisCache books = manager(ZarisCacheConfiguration.defaults().withClusterWideSync(true)
                .withLoaderLeaseTime(Duration.ofMillis(500)), Map.of()).getCache("books");
        // A loader in another instance took the lease and died: nobody deletes it, it only expires.
        assertThat(client.sync().putIfAbsent(books.storeKey("hot"), ZarisCache.leaseMarker("dead-instance"),
                Duration.ofMillis(500)).applied()).isTrue();
        assertThat(books.get("hot")).as("a lease reads as a miss").isNull();
        AtomicInteger loads = new AtomicInteger();

        String value = threads.submit(() -> books.get("hot", () -> {
            loads.incrementAndGet();
            return "loaded-by-successor";
        })).get(30, TimeUnit.SECONDS);

        assertThat(value).isEqualTo("loaded-by-successor");
        assertThat(loads).hasValue(1);
        assertThat(books.get("hot", String.class)).isEqualTo("loaded-by-successor");
    }

    @Test
    void clusterWideSyncShouldGiveUpAfterBoundedWaitWhenTheLeaseIsNeverFreed() {
        ZarisCache books = manager(ZarisCacheConfiguration.defaults().withClusterWideSync(true)
                .withLoaderLeaseTime(Duration.ofMillis(100)), Map.of()).getCache("books");
        // A lease that outlives every term the caller waits (an instance whose loads always overrun).
        client.sync().put(books.storeKey("stuck"), ZarisCache.leaseMarker("slow-instance"), Duration.ofMinutes(5));

        assertThatExceptionOfType(Cache.ValueRetrievalException.class)
                .isThrownBy(() -> books.get("stuck", () -> "never"))
                .withStackTraceContaining("loader lease terms");
    }

    @Test
    void staleLeaseHolderShouldNotOverwriteTheValueOfTheLoaderThatTookItsLeaseOver() throws Exception {
        ZarisCacheConfiguration shortLease = ZarisCacheConfiguration.defaults().withClusterWideSync(true)
                .withLoaderLeaseTime(Duration.ofMillis(300));
        // Two instances: separate cache managers, so separate lease owners and no shared in-JVM load.
        ZarisCache stalled = manager(shortLease, Map.of()).getCache("books");
        ZarisCache successor = manager(shortLease, Map.of()).getCache("books");
        CountDownLatch loading = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        Future<String> stale = threads.submit(() -> stalled.get("k", () -> {
            loading.countDown();
            resume.await();
            return "stale";
        }));
        assertThat(loading.await(10, TimeUnit.SECONDS)).isTrue();
        // The stalled loader outlives its lease; the lease expires and the successor loads and stores.
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.sync().get(stalled.storeKey("k")).isEmpty());
        assertThat(successor.get("k", () -> "fresh")).isEqualTo("fresh");
        long freshVersion = client.sync().get(stalled.storeKey("k")).orElseThrow().version();

        resume.countDown();

        assertThat(stale.get(10, TimeUnit.SECONDS)).as("the stalled caller still gets its own load").isEqualTo("stale");
        assertThat(successor.get("k", String.class)).isEqualTo("fresh");
        assertThat(client.sync().get(stalled.storeKey("k")).orElseThrow().version())
                .as("the store refused the stale write").isEqualTo(freshVersion);
        assertThat(stalled.putCount()).isZero();
        assertThat(successor.putCount()).isEqualTo(1);
    }

    @Test
    void evictDuringAClusterWideLoadShouldMakeTheStoreRefuseTheLoadedValue() throws Exception {
        ZarisCache books = manager(ZarisCacheConfiguration.defaults().withClusterWideSync(true)
                .withLoaderLeaseTime(Duration.ofSeconds(30)), Map.of()).getCache("books");
        CountDownLatch loading = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        Future<String> load = threads.submit(() -> books.get("k", () -> {
            loading.countDown();
            resume.await();
            return "read-before-the-evict";
        }));
        assertThat(loading.await(10, TimeUnit.SECONDS)).isTrue();

        // The data changed while the loader read it: the application evicts, as @CacheEvict would.
        assertThat(books.evictIfPresent("k")).isTrue();
        resume.countDown();

        assertThat(load.get(10, TimeUnit.SECONDS)).isEqualTo("read-before-the-evict");
        assertThat(client.sync().get(books.storeKey("k"))).as("the lease was evicted, so its write was refused").isEmpty();
    }

    @Test
    void putIfAbsentShouldReplaceALoaderLeaseAndMakeTheLoadsWriteFail() {
        ZarisCache books = cache("books");
        client.sync().put(books.storeKey("k"), ZarisCache.leaseMarker("other-instance"), Duration.ofSeconds(30));

        assertThat(books.putIfAbsent("k", "explicit")).isNull();

        assertThat(books.get("k", String.class)).isEqualTo("explicit");
    }

    @Test
    void clusterWideSyncShouldHoldForAsyncRetrieveAcrossInstances() throws Exception {
        ZarisCacheConfiguration clusterWide = ZarisCacheConfiguration.defaults().withClusterWideSync(true)
                .withLoaderLeaseTime(Duration.ofSeconds(10));
        ZarisCache first = manager(clusterWide, Map.of()).getCache("books");
        ZarisCache second = manager(clusterWide, Map.of()).getCache("books");
        AtomicInteger loads = new AtomicInteger();
        CompletableFuture<String> slow = new CompletableFuture<>();

        CompletableFuture<String> firstResult = first.retrieve("k", () -> {
            loads.incrementAndGet();
            return slow;
        });
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.sync().get(first.storeKey("k")).isPresent());
        CompletableFuture<String> secondResult = second.retrieve("k", () -> {
            loads.incrementAndGet();
            return CompletableFuture.completedFuture("second-loaded");
        });
        slow.complete("first-loaded");

        assertThat(firstResult.get(10, TimeUnit.SECONDS)).isEqualTo("first-loaded");
        assertThat(secondResult.get(10, TimeUnit.SECONDS)).isEqualTo("first-loaded");
        assertThat(loads).hasValue(1);
    }

    @Test
    void asyncRetrieveWithAFailingLoaderShouldReleaseTheLeaseForTheNextLoader() throws Exception {
        ZarisCache books = manager(ZarisCacheConfiguration.defaults().withClusterWideSync(true)
                .withLoaderLeaseTime(Duration.ofMinutes(5)), Map.of()).getCache("books");

        CompletableFuture<String> failed = books.retrieve("k",
                () -> CompletableFuture.failedFuture(new IllegalStateException("backend down")));

        assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
                .isThrownBy(() -> failed.get(10, TimeUnit.SECONDS)).withRootCauseInstanceOf(IllegalStateException.class);
        // Without the release the next caller would wait out the 5-minute lease.
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.sync().get(books.storeKey("k")).isEmpty());
        assertThat(books.retrieve("k", () -> CompletableFuture.completedFuture("recovered")).get(10, TimeUnit.SECONDS))
                .isEqualTo("recovered");
    }

    @Test
    void cacheNamedLikeAnotherCachesLeaseShouldNotDisturbItsLoads() throws Exception {
        ZarisCacheManager manager = manager(ZarisCacheConfiguration.defaults().withClusterWideSync(true)
                .withLoaderLeaseTime(Duration.ofMillis(200)), Map.of());
        ZarisCache leaseLookalike = manager.getCache("books:lease");
        ZarisCache books = manager.getCache("books");
        leaseLookalike.put("hot", "unrelated");

        assertThat(books.get("hot", () -> "loaded")).isEqualTo("loaded");

        assertThat(leaseLookalike.get("hot", String.class)).isEqualTo("unrelated");
        books.clear();
        assertThat(leaseLookalike.get("hot", String.class)).isEqualTo("unrelated");
    }

    @Test
    void putIfAbsentShouldKeepTheFirstValueAndReturnIt() {
        ZarisCache books = cache("books");

        assertThat(books.putIfAbsent("k", "first")).isNull();
        Cache.ValueWrapper existing = books.putIfAbsent("k", "second");

        assertThat(existing).isNotNull();
        assertThat(existing.get()).isEqualTo("first");
        assertThat(books.get("k", String.class)).isEqualTo("first");
    }

    @Test
    void evictIfPresentShouldReportWhetherTheEntryExisted() {
        ZarisCache books = cache("books");
        books.put("k", "v");

        assertThat(books.evictIfPresent("k")).isTrue();
        assertThat(books.evictIfPresent("k")).isFalse();
        books.put("k", "v");
        books.evict("k");

        assertThat(books.get("k")).isNull();
        assertThat(books.evictionCount()).isEqualTo(2);
    }

    @Test
    void clearShouldRemoveOnlyThisCachesEntries() {
        ZarisCacheManager manager = manager(ZarisCacheConfiguration.defaults(), Map.of());
        ZarisCache books = manager.getCache("books");
        ZarisCache booksArchive = manager.getCache("books-archive");
        for (int i = 0; i < 50; i++) {
            books.put(i, "b" + i);
            booksArchive.put(i, "a" + i);
        }

        assertThat(books.invalidate()).isTrue();

        assertThat(books.get(7)).isNull();
        assertThat(booksArchive.get(7, String.class)).isEqualTo("a7");
        assertThat(books.invalidate()).isFalse();
        booksArchive.clear();
        assertThat(booksArchive.get(7)).isNull();
    }

    @Test
    void clearShouldDeleteACacheLargerThanOneScanPage() {
        ZarisCacheManager manager = manager(ZarisCacheConfiguration.defaults(), Map.of());
        ZarisCache big = manager.getCache("big");
        ZarisCache other = manager.getCache("other");
        List<CompletableFuture<Long>> writes = new ArrayList<>();
        for (int i = 0; i < 2500; i++) {
            writes.add(client.put(big.storeKey(i), new byte[] {0}));
        }
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
        other.put("k", "v");

        assertThat(big.clearAsync().join()).isEqualTo(2500);

        assertThat(client.sync().scanKeys()).noneMatch(key -> key.startsWith(prefix + "big::"));
        assertThat(other.get("k", String.class)).isEqualTo("v");
    }

    @Test
    void getWithLoaderShouldRunTheLoaderOncePerKeyUnderConcurrentMisses() throws Exception {
        ZarisCache books = cache("books");
        AtomicInteger loads = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            results.add(threads.submit(() -> {
                start.await();
                return books.get("hot", () -> {
                    loads.incrementAndGet();
                    TimeUnit.MILLISECONDS.sleep(200);
                    return "loaded";
                });
            }));
        }

        start.countDown();

        for (Future<String> result : results) {
            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("loaded");
        }
        assertThat(loads).hasValue(1);
        assertThat(books.get("hot", () -> "again")).isEqualTo("loaded");
    }

    @Test
    void getWithFailingLoaderShouldWrapTheFailureAndCacheNothing() {
        ZarisCache books = cache("books");

        assertThatExceptionOfType(Cache.ValueRetrievalException.class)
                .isThrownBy(() -> books.get("k", () -> {
                    throw new IllegalStateException("backend down");
                }))
                .withRootCauseInstanceOf(IllegalStateException.class);
        assertThat(books.get("k")).isNull();
    }

    @Test
    void clusterWideSyncShouldRunOneLoaderAcrossCacheManagersWithTheirOwnClients() throws Exception {
        ZarisCacheConfiguration clusterWide = ZarisCacheConfiguration.defaults().withClusterWideSync(true)
                .withLoaderLeaseTime(Duration.ofSeconds(10));
        AtomicInteger loads = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<ZarisClient> clients = new ArrayList<>();
        List<Future<String>> results = new ArrayList<>();
        try {
            for (int instance = 0; instance < 3; instance++) {
                // Each "application instance" has its own client and cache manager, as separate JVMs would.
                ZarisClient own = ZarisClient.connect(ZarisClientOptions.create(SharedTestCluster.cluster().seeds()));
                clients.add(own);
                ZarisCache books = new ZarisCacheManager(own, serializer, prefix, clusterWide, Map.of(), List.of())
                        .getCache("books");
                results.add(threads.submit(() -> {
                    start.await();
                    return books.get("hot", () -> {
                        loads.incrementAndGet();
                        TimeUnit.MILLISECONDS.sleep(300);
                        return "loaded-once";
                    });
                }));
            }

            start.countDown();

            for (Future<String> result : results) {
                assertThat(result.get(20, TimeUnit.SECONDS)).isEqualTo("loaded-once");
            }
            assertThat(loads).hasValue(1);
            assertThat(cache("books").get("hot", String.class)).as("the value replaced the lease").isEqualTo("loaded-once");
        } finally {
            clients.forEach(ZarisClient::close);
        }
    }

    @Test
    void retrieveShouldCompleteWithTheValueOrNullWithoutBlocking() throws Exception {
        ZarisCache books = cache("books");
        books.put("k", "v");
        books.put("n", null);

        Object hit = books.retrieve("k").get(5, TimeUnit.SECONDS);
        Object cachedNull = books.retrieve("n").get(5, TimeUnit.SECONDS);

        assertThat(hit).isInstanceOf(Cache.ValueWrapper.class);
        assertThat(((Cache.ValueWrapper) hit).get()).isEqualTo("v");
        assertThat(((Cache.ValueWrapper) cachedNull).get()).isNull();
        assertThat(books.retrieve("absent").get(5, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void retrieveWithLoaderShouldLoadOnceStoreAndThenServeTheStoredValue() throws Exception {
        ZarisCache books = cache("books");
        AtomicInteger loads = new AtomicInteger();
        CompletableFuture<String> slow = new CompletableFuture<>();

        CompletableFuture<String> first = books.retrieve("k", () -> {
            loads.incrementAndGet();
            return slow;
        });
        // The loader runs only once its load is registered, so from here on the second call finds it in flight.
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> loads.get() == 1);
        CompletableFuture<String> second = books.retrieve("k", () -> {
            loads.incrementAndGet();
            return CompletableFuture.completedFuture("other");
        });
        slow.complete("async-value");

        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("async-value");
        assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("async-value");
        assertThat(loads).hasValue(1);
        assertThat(books.retrieve("k", () -> CompletableFuture.completedFuture("later")).get(5, TimeUnit.SECONDS))
                .isEqualTo("async-value");
    }

    @Test
    void retrieveShouldNeverCompleteOnAClientNetworkThread() throws Exception {
        // Regression: Spring continues the caching aspect on the completing thread and may put() there;
        // a blocking put on the network thread that must read its answer deadlocked.
        ZarisCache books = cache("books");
        books.put("k", "v");

        String hitThread = books.retrieve("k").thenApply(value -> Thread.currentThread().getName())
                .get(5, TimeUnit.SECONDS);
        String missThread = books.retrieve("absent").thenApply(value -> Thread.currentThread().getName())
                .get(5, TimeUnit.SECONDS);
        String loadThread = books.retrieve("loaded", () -> CompletableFuture.completedFuture("x"))
                .thenApply(value -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS);
        boolean putInContinuation = books.retrieve("absent-2").thenApply(value -> {
            books.put("written-from-continuation", "ok");
            return true;
        }).get(5, TimeUnit.SECONDS);

        assertThat(List.of(hitThread, missThread, loadThread)).noneMatch(name -> name.startsWith("reactor-"));
        assertThat(putInContinuation).isTrue();
        assertThat(books.get("written-from-continuation", String.class)).isEqualTo("ok");
    }

    @Test
    void unserializableValueShouldFailNamingCacheKeyAndType() {
        ZarisCache books = cache("books");

        assertThatExceptionOfType(ZarisSerializationException.class)
                .isThrownBy(() -> books.put("bad", new NotSerializable("x")))
                .withMessageContaining("cache 'books'")
                .withMessageContaining("key 'bad'")
                .withMessageContaining(NotSerializable.class.getName());
    }

    @Test
    void entryOfAClassOutsideTheAllowListShouldBeRefusedOnRead() {
        ZarisCache books = cache("books");
        books.put("k", new Book("Dune", 1965));
        ZarisCache strict = new ZarisCacheManager(client, new JdkZarisSerializer(ClassAllowList.of(List.of()), null),
                prefix, ZarisCacheConfiguration.defaults(), Map.of(), List.of()).getCache("books");

        assertThatExceptionOfType(ZarisSerializationException.class).isThrownBy(() -> strict.get("k"))
                .withMessageContaining("cache 'books', key 'k'")
                .withMessageContaining("allow-list");
    }

    @Test
    void keyWithoutToStringShouldBeRefused() {
        ZarisCache books = cache("books");

        assertThatIllegalArgumentException().isThrownBy(() -> books.put(new Object(), "v"))
                .withMessageContaining("toString");
    }

    @Test
    void cacheManagerShouldCreateCachesOnFirstUseAndTellTheListener() {
        ZarisCacheManager manager = new ZarisCacheManager(client, serializer, prefix, ZarisCacheConfiguration.defaults(),
                Map.of("configured", ZarisCacheConfiguration.defaults().withTimeToLive(Duration.ofMinutes(1))),
                List.of("initial"));
        List<String> created = new ArrayList<>();
        manager.setCacheCreationListener(cache -> created.add(cache.getName()));

        assertThat(manager.getCacheNames()).containsExactlyInAnyOrder("initial", "configured");
        assertThat(manager.getCache("configured").getConfiguration().timeToLive()).isEqualTo(Duration.ofMinutes(1));
        ZarisCache later = manager.getCache("later");

        assertThat(manager.getCache("later")).isSameAs(later);
        assertThat(created).containsExactly("later");
        assertThatIllegalArgumentException().isThrownBy(() -> manager.getCache("a::b")).withMessageContaining("a::b");
    }

    @Test
    void configurationShouldRejectOutOfRangeValues() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ZarisCacheConfiguration.defaults().withTimeToLive(Duration.ofSeconds(1)).withTtlJitter(2))
                .withMessageContaining("ttlJitter");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ZarisCacheConfiguration.defaults().withTtlJitter(0.1))
                .withMessageContaining("needs a timeToLive");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ZarisCacheConfiguration.defaults().withTimeToLive(Duration.ofSeconds(-1)))
                .withMessageContaining("timeToLive");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new ZarisCacheConfiguration(Duration.ofSeconds(1), 0, true, false,
                        Duration.ofSeconds(1), Duration.ZERO, (key, value) -> Duration.ofSeconds(2), null))
                .withMessageContaining("set one of them");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ZarisCacheConfiguration.defaults().withTimeToIdle(Duration.ofSeconds(-1)))
                .withMessageContaining("timeToIdle");
        assertThat(ZarisCacheConfiguration.defaults().ttlFor(0.9)).isNull();
        assertThat(ZarisCacheConfiguration.defaults().withTimeToIdle(Duration.ofSeconds(7)).ttlFor(0.9))
                .isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void configurationShouldStoreTheShorterOfLifetimeAndIdleTime() {
        ZarisCacheConfiguration both = ZarisCacheConfiguration.defaults().withTimeToLive(Duration.ofSeconds(300))
                .withTimeToIdle(Duration.ofSeconds(100));

        assertThat(both.ttlFor(0.5)).isEqualTo(Duration.ofSeconds(100));
        assertThat(both.withTimeToLive(Duration.ofSeconds(60)).ttlFor(0.5)).isEqualTo(Duration.ofSeconds(60));
        // A function replaces the fixed time to live, and the other way round: one setting in two forms.
        ZarisCacheConfiguration computed = both.withTtlFunction((key, value) -> Duration.ofSeconds(((String) key).length()));
        assertThat(computed.timeToLive()).isZero();
        assertThat(computed.lifetimeFor("abc", "v", 0.5)).isEqualTo(Duration.ofSeconds(3));
        assertThat(computed.withTimeToLive(Duration.ofSeconds(9)).ttlFunction()).isNull();
        assertThat(computed.withTtlJitter(0.5).lifetimeFor("abcd", "v", 0.5)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void timeToIdleWithTimeToLiveShouldSlideNoFurtherThanTheLifetimeAndMissAfterIt() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        ZarisCacheConfiguration both = ZarisCacheConfiguration.defaults().withTimeToLive(Duration.ofSeconds(300))
                .withTimeToIdle(Duration.ofSeconds(100));
        ZarisCache sessions = new ZarisCacheManager(client, serializer, prefix, both, Map.of(), List.of(), () -> 0.5,
                ForkJoinPool.commonPool(), new io.zaris.spring.EntrySizeSample(), clock).getCache("sessions");
        sessions.put("k", "v");
        String storeKey = sessions.storeKey("k");
        assertThat(client.sync().get(storeKey).orElseThrow().ttlRemainingMillis()).isBetween(90_000L, 100_000L);

        // 260 s into a 300 s life: a hit slides the expiry to the 40 s left of the lifetime, not the idle 100 s.
        clock.advance(Duration.ofSeconds(260));
        client.sync().expire(storeKey, Duration.ofSeconds(90));
        assertThat(sessions.get("k", String.class)).isEqualTo("v");
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(client.sync().get(storeKey).orElseThrow().ttlRemainingMillis()).isBetween(1L, 40_000L));

        // Past the lifetime's end the entry is a miss, though the node (with its real clock) still holds it.
        clock.advance(Duration.ofSeconds(41));
        assertThat(client.sync().get(storeKey)).isPresent();
        assertThat(sessions.get("k")).isNull();
        assertThat(sessions.retrieve("k").join()).isNull();
        // An entry past its lifetime is no value either: putIfAbsent replaces it.
        assertThat(sessions.putIfAbsent("k", "w")).isNull();
        assertThat(sessions.get("k", String.class)).isEqualTo("w");
    }

    @Test
    void ttlFunctionShouldGiveEachEntryTheTimeToLiveOfItsKeyAndValue() {
        ZarisCacheTtlFunction byValue = (key, value) -> value == null ? Duration.ofSeconds(10)
                : Duration.ofSeconds(((String) value).length() * 100L);
        ZarisCache computed = manager(ZarisCacheConfiguration.defaults(),
                Map.of("computed", ZarisCacheConfiguration.defaults().withTtlFunction(byValue))).getCache("computed");

        computed.put("short", "a");
        computed.put("long", "aaaaaaaaaa");
        computed.put("none", null);

        assertThat(client.sync().get(computed.storeKey("short")).orElseThrow().ttlRemainingMillis())
                .isBetween(1L, 100_000L);
        assertThat(client.sync().get(computed.storeKey("long")).orElseThrow().ttlRemainingMillis())
                .isBetween(900_000L, 1_000_000L);
        assertThat(client.sync().get(computed.storeKey("none")).orElseThrow().ttlRemainingMillis())
                .isBetween(1L, 10_000L);
    }

    @Test
    void ttlFunctionAnsweringNullShouldFailTheWriteNamingCacheAndKey() {
        ZarisCache broken = manager(ZarisCacheConfiguration.defaults().withTtlFunction((key, value) -> null), Map.of())
                .getCache("broken");

        assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> broken.put("k", "v"))
                .withMessageContaining("cache 'broken', key 'k'").withMessageContaining("TTL function");
        assertThat(client.sync().get(broken.storeKey("k"))).isEmpty();
    }

    @Test
    void perCacheSerializerShouldWriteThatCachesEntriesOnly() {
        ZarisSerializer text = new ZarisSerializer() {
            @Override
            public byte[] serialize(Object value) {
                return value.toString().getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public Object deserialize(byte[] bytes) {
                return new String(bytes, StandardCharsets.UTF_8);
            }
        };
        ZarisCacheManager manager = manager(ZarisCacheConfiguration.defaults(),
                Map.of("plain", ZarisCacheConfiguration.defaults().withSerializer(text)));

        manager.getCache("plain").put("k", "hello");
        manager.getCache("jdk").put("k", "hello");

        byte[] plain = client.sync().get(manager.getCache("plain").storeKey("k")).orElseThrow().value();
        assertThat(new String(plain, 1, plain.length - 1, StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(client.sync().get(manager.getCache("jdk").storeKey("k")).orElseThrow().value())
                .isNotEqualTo(plain);
        assertThat(manager.getCache("plain").get("k", String.class)).isEqualTo("hello");
        assertThat(manager.getCache("jdk").get("k", String.class)).isEqualTo("hello");
    }

    @Test
    void builderShouldAssembleTheSameManagerAsTheConstructor() {
        ZarisCacheManager manager = ZarisCacheManager.builder(client, serializer).keyPrefix(prefix)
                .cacheDefaults(ZarisCacheConfiguration.defaults().withTimeToLive(Duration.ofMinutes(5)))
                .withCacheConfiguration("sessions", ZarisCacheConfiguration.defaults().withTimeToIdle(Duration.ofMinutes(1)))
                .initialCacheNames(List.of("products")).build();

        assertThat(manager.getCacheNames()).containsExactlyInAnyOrder("products", "sessions");
        assertThat(manager.configurationOf("products").timeToLive()).isEqualTo(Duration.ofMinutes(5));
        assertThat(manager.configurationOf("sessions").timeToIdle()).isEqualTo(Duration.ofMinutes(1));
        manager.getCache("products").put("k", "v");
        assertThat(client.sync().get(prefix + "products::k")).isPresent();
    }

    /** A wall clock the test moves by hand; read by the cache on the caller's and the async executor's threads. */
    private static final class MutableClock extends Clock {

        private volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    record Book(String title, int year) implements Serializable {
    }

    record NotSerializable(String value) {
    }
}
