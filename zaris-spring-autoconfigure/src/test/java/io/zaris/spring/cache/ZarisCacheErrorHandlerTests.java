package io.zaris.spring.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.cache.ZarisCacheErrorHandler.Operation;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.spring.serialization.ZarisSerializationException;
import io.zaris.transport.ZarisException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cache.concurrent.ConcurrentMapCache;
import org.springframework.cache.interceptor.CacheErrorHandler;
import org.springframework.cache.interceptor.SimpleCacheErrorHandler;

/**
 * Which failures fall through, what is counted, and the store after a {@code sync = true} load. A cache
 * is made unreachable by closing its own client: every operation then fails at once with a
 * {@link ZarisException}, as one does at its deadline.
 */
class ZarisCacheErrorHandlerTests {

    private final ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder()
            .seeds(SharedTestCluster.cluster().seeds()).build());
    private final String prefix = "eh-" + UUID.randomUUID() + ":";
    private final ZarisCacheManager manager = new ZarisCacheManager(client,
            new JdkZarisSerializer(ClassAllowList.of(List.of()), null), prefix, ZarisCacheConfiguration.defaults(),
            Map.of(), List.of(), () -> 0.5, ForkJoinPool.commonPool());
    private final ZarisException unreachable = new ZarisException("TIMEOUT: no answer within the deadline");

    @AfterEach
    void closeClient() {
        client.close();
    }

    @Test
    void clusterFailureOfAZarisCacheShouldFallThroughAndBeCountedPerCacheAndOperation() {
        ZarisCacheErrorHandler handler = ZarisCacheErrorHandler.fallingThrough();

        assertThat(handler.tryFallThrough(Operation.GET, unreachable, manager.getCache("books"), "k")).isTrue();
        assertThat(handler.tryFallThrough(Operation.PUT, unreachable, manager.getCache("books"), "k")).isTrue();
        assertThat(handler.tryFallThrough(Operation.GET, new CompletionException(unreachable),
                manager.getCache("films"), "k")).isTrue();

        assertThat(handler.fallThroughCount()).isEqualTo(3);
        assertThat(handler.fallThroughCount("books", Operation.GET)).isEqualTo(1);
        assertThat(handler.fallThroughCount("books", Operation.PUT)).isEqualTo(1);
        assertThat(handler.fallThroughCount("films", Operation.GET)).isEqualTo(1);
        assertThat(handler.fallThroughCount("films", Operation.PUT)).isZero();
    }

    @Test
    void otherCachesBugsAndFailModeShouldNotFallThrough() {
        ZarisCacheErrorHandler handler = ZarisCacheErrorHandler.fallingThrough();

        assertThat(handler.tryFallThrough(Operation.GET, unreachable, new ConcurrentMapCache("local"), "k")).isFalse();
        assertThat(handler.tryFallThrough(Operation.PUT, new ZarisSerializationException("not serializable"),
                manager.getCache("books"), "k")).isFalse();
        assertThat(handler.tryFallThrough(Operation.GET, new IllegalArgumentException("no stable toString"),
                manager.getCache("books"), "k")).isFalse();
        assertThat(handler.fallThroughCount()).isZero();

        ZarisCacheErrorHandler failing = ZarisCacheErrorHandler.failing();
        assertThat(failing.isFallThrough()).isFalse();
        assertThat(failing.tryFallThrough(Operation.GET, unreachable, manager.getCache("books"), "k")).isFalse();
        assertThat(failing.fallThroughCount()).isZero();
    }

    @Test
    void scopedHandlerShouldAbsorbZarisReadsAndWritesAndPassEverythingElseOn() {
        ZarisCacheErrorHandler zaris = ZarisCacheErrorHandler.fallingThrough();
        CacheErrorHandler scoped = new ZarisScopedCacheErrorHandler(zaris, new SimpleCacheErrorHandler());
        ZarisCache books = manager.getCache("books");

        scoped.handleCacheGetError(unreachable, books, "k");
        scoped.handleCachePutError(unreachable, books, "k", "v");
        assertThat(zaris.fallThroughCount()).isEqualTo(2);

        // Evictions and clears are never swallowed: a stale entry must not go unnoticed.
        assertThatExceptionOfType(ZarisException.class)
                .isThrownBy(() -> scoped.handleCacheEvictError(unreachable, books, "k"));
        assertThatExceptionOfType(ZarisException.class)
                .isThrownBy(() -> scoped.handleCacheClearError(unreachable, books));
        // Another cache keeps Spring's default handling.
        assertThatExceptionOfType(ZarisException.class).isThrownBy(() ->
                scoped.handleCacheGetError(unreachable, new ConcurrentMapCache("local"), "k"));
        assertThat(zaris.fallThroughCount()).isEqualTo(2);
    }

    @Test
    void metersShouldCountFallThroughsBeforeAndAfterBinding() {
        ZarisCacheErrorHandler handler = ZarisCacheErrorHandler.fallingThrough();
        handler.tryFallThrough(Operation.GET, unreachable, manager.getCache("books"), "k");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        new ZarisCacheFallThroughMeters(handler).bindTo(registry);
        handler.tryFallThrough(Operation.GET, unreachable, manager.getCache("books"), "k");
        handler.tryFallThrough(Operation.PUT, unreachable, manager.getCache("films"), "k");

        assertThat(counter(registry, "books", "get")).isEqualTo(2);
        assertThat(counter(registry, "films", "put")).isEqualTo(1);
        assertThat(registry.find(ZarisCacheFallThroughMeters.NAME).tags("cache", "films", "operation", "get")
                .functionCounter()).isNull();
    }

    @Test
    void failedStoreAfterASyncLoadShouldReturnTheLoadedValueOnceWhenFallingThrough() {
        ZarisCacheErrorHandler handler = ZarisCacheErrorHandler.fallingThrough();
        manager.setErrorHandler(handler);
        ZarisCache books = manager.getCache("books");
        AtomicInteger loads = new AtomicInteger();

        // The lookup succeeds (a miss); the cluster becomes unreachable while the loader runs.
        String value = books.get("dune", () -> {
            loads.incrementAndGet();
            client.close();
            return "Dune";
        });

        assertThat(value).isEqualTo("Dune");
        assertThat(loads).hasValue(1);
        assertThat(handler.fallThroughCount("books", Operation.PUT)).isEqualTo(1);
        assertThat(books.putCount()).isZero();
    }

    @Test
    void failedStoreAfterASyncLoadShouldBeThrownWhenFailing() {
        ZarisCache books = manager.getCache("books");

        assertThatExceptionOfType(ZarisException.class).isThrownBy(() -> books.get("dune", () -> {
            client.close();
            return "Dune";
        }));
    }

    @Test
    void failedStoreAfterAnAsyncLoadShouldCompleteWithTheLoadedValueWhenFallingThrough() throws Exception {
        ZarisCacheErrorHandler handler = ZarisCacheErrorHandler.fallingThrough();
        manager.setErrorHandler(handler);
        ZarisCache books = manager.getCache("books");

        CompletableFuture<String> value = books.retrieve("dune", () -> {
            client.close();
            return CompletableFuture.completedFuture("Dune");
        });

        assertThat(value.get(30, TimeUnit.SECONDS)).isEqualTo("Dune");
        assertThat(handler.fallThroughCount("books", Operation.PUT)).isEqualTo(1);
    }

    @Test
    void failedFencedStoreAfterAClusterWideLoadShouldReturnTheLoadedValueWhenFallingThrough() {
        ZarisCacheErrorHandler handler = ZarisCacheErrorHandler.fallingThrough();
        ZarisCacheManager clusterWide = new ZarisCacheManager(client,
                new JdkZarisSerializer(ClassAllowList.of(List.of()), null), prefix,
                ZarisCacheConfiguration.defaults().withClusterWideSync(true), Map.of(), List.of());
        clusterWide.setErrorHandler(handler);

        String value = clusterWide.getCache("books").get("dune", () -> {
            client.close();
            return "Dune";
        });

        assertThat(value).isEqualTo("Dune");
        assertThat(handler.fallThroughCount("books", Operation.PUT)).isEqualTo(1);
    }

    private static double counter(SimpleMeterRegistry registry, String cache, String operation) {
        FunctionCounter counter = registry.find(ZarisCacheFallThroughMeters.NAME)
                .tags("cache", cache, "operation", operation).functionCounter();
        assertThat(counter).as("counter for %s/%s", cache, operation).isNotNull();
        return counter.count();
    }
}
