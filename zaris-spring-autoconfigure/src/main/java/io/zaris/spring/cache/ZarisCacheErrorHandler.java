package io.zaris.spring.cache;

import io.zaris.transport.ZarisException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cache.Cache;

/**
 * Decides what becomes of a failed operation on a Zaris cache ({@code zaris.cache.on-error}), and counts the
 * failures it lets fall through.
 *
 * <p><b>Fall-through</b> ({@link #fallingThrough()}, the default): a read that failed is a miss and a write
 * that failed is skipped, so the cached method runs and its result is returned, only slower. A cache holds
 * copies of data that lives elsewhere; failing the call instead would turn an outage of the cache into an
 * outage of every endpoint that reads through it. Each fall-through is logged (one line at WARN, the stack
 * trace at DEBUG) and counted: {@link #fallThroughCount()}, and the meter {@code zaris.cache.fallthroughs}
 * when Micrometer is present.
 *
 * <p><b>Fail</b> ({@link #failing()}): nothing falls through; every failure goes to the application's
 * {@link org.springframework.cache.interceptor.CacheErrorHandler} like any other cache's, which by default
 * throws it to the caller.
 *
 * <p>In both modes only failures of the cluster fall through: a {@link ZarisException} (deadline passed,
 * transport, a status such as {@code UNAVAILABLE}), possibly wrapped by a future. A value that cannot be
 * serialized or a key without a stable text form is a bug to fix, not an outage to ride out. Evictions and
 * clears never fall through: one that failed may leave an entry older than the data it copies, and hiding
 * that would serve the stale entry, silently, until it expires. A failed {@code @CachePut} falls through
 * like any write and so leaves the previous entry in place; methods that must not leave a stale entry
 * behind should evict ({@code @CacheEvict}) rather than put.
 *
 * <p>Scope: Spring's error handler belongs to the caching aspect, shared by every cache of the application;
 * {@code ZarisScopedCacheErrorHandler} puts this one in front of the aspect's own handler for Zaris caches
 * only, and other caches keep the handling they had.
 *
 * <p><b>Concurrency.</b> Thread-safe: called on application threads and, for asynchronous caching, on the
 * threads that complete cache futures. The mode is fixed at construction; the counts are concurrent.
 * Subclasses may override {@link #logFallThrough} (for instance to rate-limit it); it runs on the failing
 * caller's thread and must not block.
 */
public class ZarisCacheErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(ZarisCacheErrorHandler.class);

    /** The cache operations that can fall through. */
    public enum Operation {

        /** A read ({@code get}, {@code retrieve}): treated as a miss. */
        GET,

        /** A write ({@code put}, or the store after a {@code sync = true} load): skipped. */
        PUT;

        /** The value of the meter's {@code operation} tag. */
        public String tag() {
            return this == GET ? "get" : "put";
        }
    }

    private final boolean fallThrough;
    private final FallThroughCounts counts = new FallThroughCounts();

    protected ZarisCacheErrorHandler(boolean fallThrough) {
        this.fallThrough = fallThrough;
    }

    /** Failed reads are misses and failed writes are skipped, logged and counted. */
    public static ZarisCacheErrorHandler fallingThrough() {
        return new ZarisCacheErrorHandler(true);
    }

    /** Nothing falls through: every failure goes on to Spring's cache error handling. */
    public static ZarisCacheErrorHandler failing() {
        return new ZarisCacheErrorHandler(false);
    }

    public boolean isFallThrough() {
        return fallThrough;
    }

    /**
     * Lets the failure fall through if it may (see the class comment): then it is counted and logged and
     * this returns {@code true}; otherwise nothing happens and the caller handles the failure.
     *
     * @param cache the failing cache as Spring passes it; a cache that wraps a Zaris cache (a decorator) is
     *              not one, and its failures never fall through here
     */
    public boolean tryFallThrough(Operation operation, RuntimeException failure, Cache cache, Object key) {
        if (!fallThrough || !(cache instanceof ZarisCache zarisCache) || !isClusterFailure(failure)) {
            return false;
        }
        counts.record(zarisCache.getName(), operation);
        logFallThrough(operation, failure, zarisCache.getName(), key);
        return true;
    }

    /** Fall-throughs since start, every cache and operation. */
    public long fallThroughCount() {
        return counts.total();
    }

    /** Fall-throughs since start of one operation on one cache. */
    public long fallThroughCount(String cacheName, Operation operation) {
        return counts.count(cacheName, operation);
    }

    /** Logs a failure that fell through; called after it was counted. */
    protected void logFallThrough(Operation operation, RuntimeException failure, String cacheName, Object key) {
        String what = operation == Operation.GET ? "read failed, treated as a miss" : "write failed, value not cached";
        // The failure as text: a Throwable as the last argument would be taken for the stack trace to print.
        log.warn("Zaris cache '{}', key '{}': {} ({}; zaris.cache.on-error=fall-through)", cacheName, key, what,
                rootOf(failure).toString());
        log.debug("Zaris cache '{}', key '{}': the failure that fell through", cacheName, key, failure);
    }

    FallThroughCounts counts() {
        return counts;
    }

    private static boolean isClusterFailure(RuntimeException failure) {
        return rootOf(failure) instanceof ZarisException;
    }

    /** The failure itself, or what a future's completion wrapped. */
    private static Throwable rootOf(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
