package io.zaris.replication;

import io.zaris.client.ZarisClient;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One thread writing increasing numbers to a fixed set of keys and remembering, per key, the highest
 * acknowledged one; afterwards {@link #countLost} tells how many keys read back something older.
 */
final class AcknowledgedWriter {

    private final ZarisClient client;
    private final int keys;
    private final Consumer<String> onAcknowledged;
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile long acknowledgedWrites;
    private volatile long failedWrites;

    /** @param onAcknowledged told the key of every acknowledged write, on the writer thread */
    AcknowledgedWriter(ZarisClient client, int keys, Consumer<String> onAcknowledged) {
        this.client = client;
        this.keys = keys;
        this.onAcknowledged = onAcknowledged;
        this.thread = new Thread(this::loop, "acknowledged-writer");
    }

    static String key(int i) {
        return "key-" + i;
    }

    void start() {
        thread.start();
    }

    void stop() throws InterruptedException {
        running.set(false);
        thread.join(60_000);
    }

    long acknowledgedWrites() {
        return acknowledgedWrites;
    }

    /** Writes that failed (the exception reached this writer, as it would an application); written by the writer thread only. */
    long failedWrites() {
        return failedWrites;
    }

    /** Keys whose current value is older than their last acknowledged write (or missing). */
    long countLost() {
        long lost = 0;
        for (Map.Entry<String, Long> write : acknowledged.entrySet()) {
            long read = client.sync().get(write.getKey())
                    .map(v -> Long.parseLong(new String(v.value(), StandardCharsets.UTF_8))).orElse(-1L);
            if (read < write.getValue()) {
                lost++;
            }
        }
        return lost;
    }

    private void loop() {
        long sequence = 0;
        while (running.get()) {
            String key = key((int) (sequence % keys));
            long value = sequence++;
            try {
                client.sync().put(key, Long.toString(value).getBytes(StandardCharsets.UTF_8));
                acknowledged.merge(key, value, Math::max);
                acknowledgedWrites++;
                onAcknowledged.accept(key);
            } catch (RuntimeException notAcknowledged) {
                failedWrites++; // not acknowledged: nothing to check for this value, but the caller saw it fail
            }
        }
    }
}
