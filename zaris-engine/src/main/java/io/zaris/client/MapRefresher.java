package io.zaris.client;

import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Coalesces map refreshes: at most one fetch is in flight; everyone who asks meanwhile rides it; no new
 * fetch starts within the debounce interval after the previous one finished. The shared slot is an
 * {@link AtomicReference} claimed and released with compare-and-set, never a lock, so a caller never
 * blocks another.
 *
 * <p>Callers wait for the shared refresh at most {@code waitBudget}, through a copy of its future: giving
 * up never cancels the refresh others may still be waiting for.
 */
final class MapRefresher {

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final Supplier<CompletableFuture<Void>> fetch;
    private final TimeSource time;
    private final long debounceNanos;
    private final Duration waitBudget;
    private final ClientMetrics metrics;
    private final AtomicReference<CompletableFuture<Void>> inFlight = new AtomicReference<>();
    private final AtomicLong fetches = new AtomicLong();
    /** Time the last fetch finished; {@code Long.MIN_VALUE} before the first. */
    private volatile long lastFinishedNanos = Long.MIN_VALUE;

    /**
     * @param fetch starts one real fetch-and-install and completes when it is done; never called twice
     *              concurrently by this class
     */
    MapRefresher(Supplier<CompletableFuture<Void>> fetch, TimeSource time, Duration debounce, Duration waitBudget,
                 ClientMetrics metrics) {
        this.fetch = fetch;
        this.time = time;
        this.debounceNanos = debounce.toNanos();
        this.waitBudget = waitBudget;
        this.metrics = metrics;
    }

    /**
     * Asks for a refresh. The returned future completes (always normally) when the shared refresh is
     * done, when it was debounced away, or when the wait budget ran out — whichever comes first.
     */
    CompletableFuture<Void> refresh(RefreshTrigger trigger) {
        return refresh(trigger, false, Long.MAX_VALUE);
    }

    /**
     * Like {@link #refresh(RefreshTrigger)}, but the caller waits at most {@code maxWaitNanos} (the time its
     * operation has left) when that is shorter than the wait budget: a refresh must not hold an operation
     * past its deadline.
     */
    CompletableFuture<Void> refresh(RefreshTrigger trigger, long maxWaitNanos) {
        return refresh(trigger, false, maxWaitNanos);
    }

    /**
     * Like {@link #refresh(RefreshTrigger)}, but not debounced away: for a change that names a node the client
     * has no connection to yet (a node that just joined), which only a fetched map can supply. A refresh in
     * flight is still shared.
     */
    CompletableFuture<Void> refreshUndebounced(RefreshTrigger trigger) {
        return refresh(trigger, true, Long.MAX_VALUE);
    }

    private CompletableFuture<Void> refresh(RefreshTrigger trigger, boolean undebounced, long maxWaitNanos) {
        long waitNanos = Math.max(0, Math.min(waitBudget.toNanos(), maxWaitNanos));
        CompletableFuture<Void> shared = inFlight.get();
        if (shared != null) {
            metrics.coalescedRefreshWait();
            return bounded(shared, waitNanos);
        }
        long last = lastFinishedNanos;
        if (!undebounced && last != Long.MIN_VALUE && time.nanoTime() - last < debounceNanos) {
            return DONE;
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        if (!inFlight.compareAndSet(null, mine)) {
            CompletableFuture<Void> winner = inFlight.get();
            metrics.coalescedRefreshWait();
            return winner == null ? DONE : bounded(winner, waitNanos);
        }
        fetches.incrementAndGet();
        CompletableFuture<Void> started;
        try {
            started = fetch.get();
        } catch (RuntimeException e) {
            started = CompletableFuture.failedFuture(e);
        }
        started.whenComplete((ignored, error) -> {
            lastFinishedNanos = time.nanoTime();
            inFlight.compareAndSet(mine, null);
            mine.complete(null);
        });
        return bounded(mine, waitNanos);
    }

    /** Real fetches started so far. */
    long fetchCount() {
        return fetches.get();
    }

    private static CompletableFuture<Void> bounded(CompletableFuture<Void> shared, long waitNanos) {
        return shared.copy().completeOnTimeout(null, waitNanos, TimeUnit.NANOSECONDS);
    }
}
