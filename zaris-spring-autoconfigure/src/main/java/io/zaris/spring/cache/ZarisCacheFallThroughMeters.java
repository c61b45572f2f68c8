package io.zaris.spring.cache;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code zaris.cache.fallthroughs{cache, operation}}: failed Zaris cache reads ({@code operation=get}) and
 * writes ({@code put}) that {@link ZarisCacheErrorHandler} let fall through to the cached method. A
 * cache's counter appears with its first fall-through (a healthy cache has none); it reads the handler's own
 * count, so it matches {@link ZarisCacheErrorHandler#fallThroughCount(String, ZarisCacheErrorHandler.Operation)}.
 */
final class ZarisCacheFallThroughMeters implements MeterBinder {

    static final String NAME = "zaris.cache.fallthroughs";

    private final ZarisCacheErrorHandler handler;

    ZarisCacheFallThroughMeters(ZarisCacheErrorHandler handler) {
        this.handler = handler;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        handler.counts().watch((key, count) -> FunctionCounter.builder(NAME, count, LongAdder::sum)
                .tag("cache", key.cache())
                .tag("operation", key.operation().tag())
                .description("Failed Zaris cache operations that fell through to the cached method")
                .register(registry));
    }
}
