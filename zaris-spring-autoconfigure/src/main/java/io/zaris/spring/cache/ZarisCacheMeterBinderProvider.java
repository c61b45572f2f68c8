package io.zaris.spring.cache;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CacheMeterBinder;
import org.springframework.boot.cache.metrics.CacheMeterBinderProvider;

/**
 * Boot's cache metrics for {@link ZarisCache}: {@code cache.gets{result=hit|miss}}, {@code cache.puts} and
 * {@code cache.evictions}, counted by this JVM, and {@code cache.hits{source=near|remote}}: the hits the client's
 * near cache answered without a round trip, and those the key's owner answered (together the same as
 * {@code cache.gets{result=hit}}). {@code cache.size} is not reported: counting one cache's entries would need a
 * scan of the whole cluster.
 */
public final class ZarisCacheMeterBinderProvider implements CacheMeterBinderProvider<ZarisCache> {

    @Override
    public MeterBinder getMeterBinder(ZarisCache cache, Iterable<Tag> tags) {
        return new ZarisCacheMeterBinder(cache, tags);
    }

    private static final class ZarisCacheMeterBinder extends CacheMeterBinder<ZarisCache> {

        ZarisCacheMeterBinder(ZarisCache cache, Iterable<Tag> tags) {
            super(cache, cache.getName(), tags);
        }

        @Override
        protected Long size() {
            return null;
        }

        @Override
        protected long hitCount() {
            return getCache().hitCount();
        }

        @Override
        protected Long missCount() {
            return getCache().missCount();
        }

        @Override
        protected Long evictionCount() {
            return getCache().evictionCount();
        }

        @Override
        protected long putCount() {
            return getCache().putCount();
        }

        @Override
        protected void bindImplementationSpecificMetrics(MeterRegistry registry) {
            ZarisCache cache = getCache();
            FunctionCounter.builder("cache.hits", cache, ZarisCache::nearHitCount)
                    .tags(getTagsWithCacheName()).tag("source", "near")
                    .description("Cache hits the client's near cache answered, without a round trip")
                    .register(registry);
            FunctionCounter.builder("cache.hits", cache, c -> c.hitCount() - c.nearHitCount())
                    .tags(getTagsWithCacheName()).tag("source", "remote")
                    .description("Cache hits the key's owner answered")
                    .register(registry);
        }
    }
}
