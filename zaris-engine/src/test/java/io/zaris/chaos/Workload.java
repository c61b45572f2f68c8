package io.zaris.chaos;

import io.zaris.client.WriteOutcome;
import io.zaris.client.ZarisClient;
import io.zaris.protocol.VersionedValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The operations a chaos run applies, in several threads, each logged in the {@link Ledger}:
 * <ul>
 *   <li>writers: unique-value PUTs (and some DELETEs) to keys each writer owns alone, each followed by a
 *       read of the same key checked against the writer's own history (monotonic reads);</li>
 *   <li>CAS: read, then IfMatchVersion increment of shared keys;</li>
 *   <li>counters: INCREMENT of shared counters.</li>
 * </ul>
 * Threads run until {@link #stop()}; every operation has its own deadline, so they stop promptly.
 */
final class Workload {

    static final int WRITERS = 4;
    static final int KEYS_PER_WRITER = 40;
    static final int CAS_THREADS = 2;
    static final int CAS_KEYS = 4;
    static final int COUNTERS = 4;

    private final ZarisClient client;
    private final Ledger ledger;
    private final long seed;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();

    Workload(ZarisClient client, Ledger ledger, long seed) {
        this.client = client;
        this.ledger = ledger;
        this.seed = seed;
    }

    void start() {
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            threads.add(thread("chaos-writer-" + w, () -> writeLoop(writer, new Random(seed + writer))));
        }
        for (int c = 0; c < CAS_THREADS; c++) {
            int index = c;
            threads.add(thread("chaos-cas-" + c, () -> casLoop(new Random(seed + 100 + index))));
        }
        threads.add(thread("chaos-counter", () -> counterLoop(new Random(seed + 200))));
        threads.forEach(Thread::start);
    }

    void stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(120_000);
        }
    }

    static String writerKey(int writer, int k) {
        return "w" + writer + "-" + k;
    }

    static String casKey(int k) {
        return "cas-" + k;
    }

    static String counterKey(int k) {
        return "ctr-" + k;
    }

    private void writeLoop(int writer, Random random) {
        long sequence = 0;
        while (running.get()) {
            String key = writerKey(writer, random.nextInt(KEYS_PER_WRITER));
            boolean delete = random.nextInt(10) == 0;
            String value = delete ? null : writer + ":" + sequence;
            long invoked = System.nanoTime();
            Ledger.Outcome outcome;
            try {
                if (delete) {
                    client.sync().delete(key);
                } else {
                    client.sync().put(key, value.getBytes(StandardCharsets.UTF_8));
                }
                outcome = Ledger.Outcome.OK;
            } catch (RuntimeException e) {
                ledger.failure(e);
                outcome = Ledger.Outcome.of(e);
            }
            ledger.write(key, new Ledger.Write(sequence++, value, outcome, invoked, System.nanoTime()));
            long readInvoked = System.nanoTime();
            try {
                Optional<VersionedValue> read = client.sync().get(key);
                String seen = read.map(v -> new String(v.value(), StandardCharsets.UTF_8)).orElse(null);
                if (!ledger.isLegalRead(key, seen)) {
                    ledger.readAnomalyKeys.add(key);
                    ledger.readAnomalies.add(key + " read '" + seen + "' after its writer's history "
                            + ledger.writes.get(key).subList(Math.max(0, ledger.writes.get(key).size() - 3),
                            ledger.writes.get(key).size()));
                }
                ledger.event(readInvoked, System.nanoTime(), true, "read");
            } catch (RuntimeException e) {
                ledger.failure(e);
                ledger.event(readInvoked, System.nanoTime(), false, "read");
            }
        }
    }

    private void casLoop(Random random) {
        while (running.get()) {
            String key = casKey(random.nextInt(CAS_KEYS));
            long invoked = System.nanoTime();
            try {
                Optional<VersionedValue> current = client.sync().get(key);
                long value = current.map(v -> Long.parseLong(new String(v.value(), StandardCharsets.UTF_8))).orElse(0L);
                long version = current.map(VersionedValue::version).orElse(0L);
                WriteOutcome outcome;
                try {
                    outcome = client.sync().putIfVersion(key, Long.toString(value + 1).getBytes(StandardCharsets.UTF_8),
                            version, null);
                } catch (RuntimeException e) {
                    ledger.failure(e);
                    Ledger.Outcome classified = Ledger.Outcome.of(e);
                    ledger.count(classified);
                    if (classified == Ledger.Outcome.INDETERMINATE) {
                        ledger.casIndeterminate.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
                    }
                    ledger.event(invoked, System.nanoTime(), false, "cas");
                    continue;
                }
                if (outcome.applied()) {
                    ledger.casFromVersions.computeIfAbsent(key, k -> new java.util.concurrent.ConcurrentLinkedQueue<>())
                            .add(version);
                    ledger.casAcknowledged.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
                }
                ledger.count(Ledger.Outcome.OK);
                ledger.event(invoked, System.nanoTime(), true, "cas");
            } catch (RuntimeException e) {
                ledger.failure(e);
                ledger.event(invoked, System.nanoTime(), false, "cas");
            }
        }
    }

    private void counterLoop(Random random) {
        while (running.get()) {
            String key = counterKey(random.nextInt(COUNTERS));
            long invoked = System.nanoTime();
            ledger.counterAttempted.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
            try {
                client.sync().increment(key, 1);
                ledger.counterAcknowledged.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
                ledger.count(Ledger.Outcome.OK);
                ledger.event(invoked, System.nanoTime(), true, "increment");
            } catch (RuntimeException e) {
                ledger.failure(e);
                ledger.count(Ledger.Outcome.of(e));
                ledger.event(invoked, System.nanoTime(), false, "increment");
            }
        }
    }

    private static Thread thread(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
