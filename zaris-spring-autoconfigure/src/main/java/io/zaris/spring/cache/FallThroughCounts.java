package io.zaris.spring.cache;

import io.zaris.spring.cache.ZarisCacheErrorHandler.Operation;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * Fall-throughs per cache and operation, and in total. A watcher ({@link #watch}) hears of every
 * (cache, operation) pair once, when its first fall-through is counted, so meters can be registered for
 * caches that fail long after start-up.
 *
 * <p><b>Concurrency.</b> {@link #record} runs on any failing caller's thread; a pair's counter is created at
 * most once, and the thread that created it tells the watchers, outside any lock, before counting. A watcher
 * added while a pair is being created may hear of it twice.
 */
final class FallThroughCounts {

    /** One counted pair. */
    record Key(String cache, Operation operation) {
    }

    private final ConcurrentMap<Key, LongAdder> counts = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();
    private final List<BiConsumer<Key, LongAdder>> watchers = new CopyOnWriteArrayList<>();

    void record(String cache, Operation operation) {
        Key key = new Key(cache, operation);
        LongAdder count = counts.get(key);
        if (count == null) {
            LongAdder fresh = new LongAdder();
            count = counts.putIfAbsent(key, fresh);
            if (count == null) {
                count = fresh;
                watchers.forEach(watcher -> watcher.accept(key, fresh));
            }
        }
        count.increment();
        total.increment();
    }

    long total() {
        return total.sum();
    }

    long count(String cache, Operation operation) {
        LongAdder count = counts.get(new Key(cache, operation));
        return count == null ? 0 : count.sum();
    }

    /** Calls {@code watcher} with every pair counted so far and every pair counted first from now on. */
    void watch(BiConsumer<Key, LongAdder> watcher) {
        watchers.add(watcher);
        counts.forEach(watcher);
    }
}
