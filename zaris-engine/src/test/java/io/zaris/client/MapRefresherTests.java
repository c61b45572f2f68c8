package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.transport.ZarisTransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MapRefresherTests {

    private long now = 1_000_000_000L;
    private final AtomicInteger fetches = new AtomicInteger();
    private final List<CompletableFuture<Void>> pendingFetches = new ArrayList<>();

    private MapRefresher refresher(Duration waitBudget) {
        return new MapRefresher(() -> {
            fetches.incrementAndGet();
            CompletableFuture<Void> fetch = new CompletableFuture<>();
            synchronized (pendingFetches) {
                pendingFetches.add(fetch);
            }
            return fetch;
        }, () -> now, Duration.ofMillis(500), waitBudget, ClientMetrics.disabled());
    }

    @Test
    void aThousandConcurrentCallersShareOneFetch() throws Exception {
        MapRefresher refresher = refresher(Duration.ofSeconds(15));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Void>> waits = new ArrayList<>();
        List<CompletableFuture<CompletableFuture<Void>>> submitted = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            submitted.add(CompletableFuture.supplyAsync(() -> {
                awaitQuietly(go);
                return refresher.refresh(RefreshTrigger.REACT);
            }, pool));
        }
        go.countDown();
        for (CompletableFuture<CompletableFuture<Void>> future : submitted) {
            waits.add(future.get(10, TimeUnit.SECONDS));
        }
        assertThat(fetches.get()).isEqualTo(1);
        assertThat(waits).noneMatch(CompletableFuture::isDone);
        pendingFetches.get(0).complete(null);
        CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        pool.shutdown();
    }

    @Test
    void noNewFetchWithinTheDebounceIntervalAfterTheLastOne() {
        MapRefresher refresher = refresher(Duration.ofSeconds(15));
        refresher.refresh(RefreshTrigger.REACT);
        pendingFetches.get(0).complete(null);
        now += Duration.ofMillis(499).toNanos();
        assertThat(refresher.refresh(RefreshTrigger.REACT)).isDone();
        assertThat(fetches.get()).isEqualTo(1);
        now += Duration.ofMillis(1).toNanos();
        refresher.refresh(RefreshTrigger.REACT);
        assertThat(fetches.get()).isEqualTo(2);
    }

    @Test
    void anUndebouncedRefreshFetchesWithinTheIntervalButStillSharesOneInFlight() {
        MapRefresher refresher = refresher(Duration.ofSeconds(15));
        refresher.refresh(RefreshTrigger.REACT);
        pendingFetches.get(0).complete(null);
        now += Duration.ofMillis(10).toNanos();
        CompletableFuture<Void> forced = refresher.refreshUndebounced(RefreshTrigger.REACT);
        assertThat(fetches.get()).as("a node the client has no connection to needs a fetched map").isEqualTo(2);
        assertThat(forced).isNotDone();
        refresher.refresh(RefreshTrigger.REACT);
        refresher.refreshUndebounced(RefreshTrigger.REACT);
        assertThat(fetches.get()).as("callers meanwhile ride the fetch in flight").isEqualTo(2);
        pendingFetches.get(1).complete(null);
        assertThat(forced).isDone();
    }

    @Test
    void aCallerStopsWaitingAfterItsBudgetWithoutCancellingTheSharedRefresh() throws Exception {
        MapRefresher refresher = refresher(Duration.ofMillis(50));
        CompletableFuture<Void> first = refresher.refresh(RefreshTrigger.REACT);
        first.get(5, TimeUnit.SECONDS); // completes through the wait budget, the fetch is still running
        CompletableFuture<Void> fetch = pendingFetches.get(0);
        assertThat(fetch).isNotDone();
        assertThat(fetch.isCancelled()).isFalse();
        refresher.refresh(RefreshTrigger.REACT); // rides the same fetch
        assertThat(fetches.get()).isEqualTo(1);
        fetch.complete(null);
    }

    @Test
    void aFailedFetchReleasesTheSlot() {
        MapRefresher refresher = refresher(Duration.ofSeconds(15));
        CompletableFuture<Void> wait = refresher.refresh(RefreshTrigger.REACT);
        pendingFetches.get(0).completeExceptionally(new ZarisTransportException("down"));
        assertThat(wait).isCompleted();
        now += Duration.ofSeconds(1).toNanos();
        refresher.refresh(RefreshTrigger.REACT);
        assertThat(fetches.get()).isEqualTo(2);
        assertThat(refresher.fetchCount()).isEqualTo(2);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
