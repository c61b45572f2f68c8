package io.zaris.netbed;

import io.zaris.client.ZarisClient;
import io.zaris.model.VersionedValue;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The write load a partition test watches: every key has its own chain of sequential puts (the next is sent when
 * the previous returned), the value carrying the key's sequence number; a chain pauses {@value #PACE_MILLIS} ms between puts. Records per key the last acknowledged
 * sequence, when the first put sent after the fault was acknowledged and the longest time without an
 * acknowledgement after it, and every exception the application saw, by kind.
 *
 * <p>Threads: a chain's next put is sent from the completion of the previous one (the client's threads), so each key
 * has one put in flight at a time and its slots in the atomic arrays have one writer. The fault time is written by
 * the test thread before the fault.
 */
final class KeyWriters {

    /**
     * Pause between two puts of one chain: the load stays that of an application (a few thousand writes a second
     * over 64 keys), not one that saturates a small machine's cores and with them the nodes' heartbeats.
     */
    private static final long PACE_MILLIS = 20;
    private static final Executor PACED = CompletableFuture.delayedExecutor(PACE_MILLIS, TimeUnit.MILLISECONDS);
    private final ZarisClient client;
    private final List<String> keys;
    private final Map<String, Integer> index = new ConcurrentHashMap<>();
    private final AtomicLongArray lastAcked;
    private final AtomicLongArray lastAckNanos;
    private final AtomicLongArray firstAckAfterFault;
    private final AtomicLongArray longestGapAfterFault;
    /** When each key's longest gap ended (its chain is sequential, so only its own callbacks write it). */
    private final AtomicLongArray longestGapEndNanos;
    private final Map<String, LongAdder> exceptions = new ConcurrentHashMap<>();
    private final LongAdder acknowledged = new LongAdder();
    private final CountDownLatch stopped;
    private volatile boolean stopping;
    private volatile long faultNanos = Long.MAX_VALUE;
    private volatile long faultAppliedNanos = Long.MAX_VALUE;

    KeyWriters(ZarisClient client, List<String> keys) {
        this.client = client;
        this.keys = List.copyOf(keys);
        for (int k = 0; k < keys.size(); k++) {
            index.put(keys.get(k), k);
        }
        this.lastAcked = new AtomicLongArray(keys.size());
        this.lastAckNanos = new AtomicLongArray(keys.size());
        this.firstAckAfterFault = new AtomicLongArray(keys.size());
        this.longestGapAfterFault = new AtomicLongArray(keys.size());
        this.longestGapEndNanos = new AtomicLongArray(keys.size());
        this.stopped = new CountDownLatch(keys.size());
    }

    void start() {
        for (int k = 0; k < keys.size(); k++) {
            send(k, 1);
        }
    }

    /**
     * The fault begins now: gaps and times are measured from here. Call {@link #faultApplied()} once the fault is in
     * place; only puts sent after that count as written despite it.
     */
    void faultNow() {
        faultNanos = System.nanoTime();
    }

    /** The fault is in place (applying it took a moment): puts sent from now on count as sent after it. */
    void faultApplied() {
        faultAppliedNanos = System.nanoTime();
    }

    void stop() throws InterruptedException {
        stopping = true;
        if (!stopped.await(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException(stopped.getCount() + " key chains still had a put in flight after two minutes");
        }
    }

    private void send(int key, long sequence) {
        if (stopping) {
            stopped.countDown();
            return;
        }
        String name = keys.get(key);
        long sentNanos = System.nanoTime();
        client.put(name, (name + "@" + sequence).getBytes(StandardCharsets.UTF_8)).whenComplete((version, error) -> {
            long now = System.nanoTime();
            if (error == null) {
                acknowledged.increment();
                lastAcked.set(key, sequence);
                long fault = faultNanos;
                long previous = lastAckNanos.getAndSet(key, now);
                if (now - fault > 0 && previous != 0) {
                    long gap = now - Math.max(previous, fault);
                    if (gap > longestGapAfterFault.get(key)) {
                        longestGapAfterFault.set(key, gap);
                        longestGapEndNanos.set(key, now);
                    }
                }
                if (sentNanos - faultAppliedNanos >= 0) {
                    firstAckAfterFault.compareAndSet(key, 0, now);
                }
            } else {
                exceptions.computeIfAbsent(kindOf(error), kind -> new LongAdder()).increment();
            }
            PACED.execute(() -> send(key, sequence + 1));
        });
    }

    private static String kindOf(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof ZarisStatusException status ? status.status().name() : cause.getClass().getSimpleName();
    }

    /** Whether every one of {@code subset} had a put sent after the fault acknowledged. */
    boolean writtenSinceFault(Collection<String> subset) {
        return subset.stream().allMatch(key -> firstAckAfterFault.get(index.get(key)) != 0);
    }

    /**
     * The longest any of {@code subset} took from the start of the fault to its first acknowledged put sent once the
     * fault was in place, in seconds.
     */
    double secondsUntilWritten(Collection<String> subset) {
        long latest = 0;
        for (String key : subset) {
            long first = firstAckAfterFault.get(index.get(key));
            if (first == 0) {
                return Double.NaN;
            }
            latest = Math.max(latest, first - faultNanos);
        }
        return latest / 1e9;
    }

    /** The longest time any of {@code subset} went without an acknowledged put after the fault, in seconds. */
    double longestGapSeconds(Collection<String> subset) {
        long longest = 0;
        for (String key : subset) {
            longest = Math.max(longest, longestGapAfterFault.get(index.get(key)));
        }
        return longest / 1e9;
    }

    /**
     * Where the longest gap of {@code subset} lay, for the log: the key and the gap's start and end in seconds after
     * the fault began.
     */
    String longestGapPlace(Collection<String> subset) {
        String worst = null;
        for (String key : subset) {
            if (worst == null || longestGapAfterFault.get(index.get(key)) > longestGapAfterFault.get(index.get(worst))) {
                worst = key;
            }
        }
        if (worst == null || longestGapAfterFault.get(index.get(worst)) == 0) {
            return "no gap";
        }
        long end = longestGapEndNanos.get(index.get(worst)) - faultNanos;
        long start = end - longestGapAfterFault.get(index.get(worst));
        return String.format("%s from %.2f s to %.2f s", worst, start / 1e9, end / 1e9);
    }

    /** The sequence of {@code key}'s last acknowledged put; 0 before the first. */
    long lastAcknowledged(String key) {
        return lastAcked.get(index.get(key));
    }

    long acknowledged() {
        return acknowledged.sum();
    }

    /** Exceptions the application saw, by kind (a status name or an exception class). */
    Map<String, Long> exceptions() {
        Map<String, Long> counts = new TreeMap<>();
        exceptions.forEach((kind, count) -> counts.put(kind, count.sum()));
        return counts;
    }

    /**
     * Reads every key back: how many acknowledged puts are missing (the stored sequence is older than the last
     * acknowledged one). A stale read counts here too.
     */
    long lostAcknowledgedWrites() {
        long lost = 0;
        for (int k = 0; k < keys.size(); k++) {
            Optional<VersionedValue> value = client.sync().get(keys.get(k));
            long stored = value.map(versioned -> {
                String text = new String(versioned.value(), StandardCharsets.UTF_8);
                return Long.parseLong(text.substring(text.indexOf('@') + 1));
            }).orElse(0L);
            lost += Math.max(0, lastAcked.get(k) - stored);
        }
        return lost;
    }
}
