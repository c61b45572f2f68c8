package io.zaris.bench.peers;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Writes many keys through a client's async API with at most {@link #WINDOW} writes in flight. A failed
 * write is repeated (a fresh cluster may refuse SYNC writes until its replication links are up) up to
 * {@link #ATTEMPTS} times; after that the load fails.
 */
final class BulkLoader {

    /** Writes in flight at once. */
    static final int WINDOW = 256;

    /** Tries per key before the load gives up. */
    static final int ATTEMPTS = 20;

    /** Pause before repeating a failed write. */
    private static final Duration RETRY_PAUSE = Duration.ofMillis(250);

    /** One daemon thread that re-issues failed writes after {@link #RETRY_PAUSE}. */
    private static final ScheduledExecutorService RETRIES = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "bulk-load-retry");
        thread.setDaemon(true);
        return thread;
    });

    private BulkLoader() {
    }

    static void load(KvClient client, int count, IntFunction<String> keyOf, byte[] value) throws InterruptedException {
        Semaphore window = new Semaphore(WINDOW);
        AtomicReference<Throwable> gaveUp = new AtomicReference<>();
        for (int i = 0; i < count && gaveUp.get() == null; i++) {
            window.acquire();
            write(client, keyOf.apply(i), value, 1, window, gaveUp);
        }
        if (!window.tryAcquire(WINDOW, 5, TimeUnit.MINUTES)) {
            throw new IllegalStateException("bulk load did not finish within 5 minutes");
        }
        if (gaveUp.get() != null) {
            throw new IllegalStateException("bulk load failed", gaveUp.get());
        }
    }

    private static void write(KvClient client, String key, byte[] value, int attempt, Semaphore window,
                              AtomicReference<Throwable> gaveUp) {
        client.putAsync(key, value, (length, failure) -> {
            if (failure == null) {
                window.release();
            } else if (attempt >= ATTEMPTS) {
                gaveUp.compareAndSet(null, failure);
                window.release();
            } else {
                // Repeat later from the retry thread, never from inside the client's I/O thread.
                RETRIES.schedule(() -> write(client, key, value, attempt + 1, window, gaveUp),
                        RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
            }
        });
    }
}
