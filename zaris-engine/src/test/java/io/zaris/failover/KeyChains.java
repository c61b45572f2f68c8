package io.zaris.failover;

import io.zaris.client.ZarisClient;
import io.zaris.model.VersionedValue;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The write load a user lives through a fault with: every key has its own chain of sequential puts (the next
 * is sent when the previous returned), each value carrying the key's sequence number. Records per key the last
 * acknowledged sequence, when the first put sent after the fault was acknowledged, and the longest time between
 * two acknowledgements after it; and every exception the application saw, by kind.
 *
 * <p>Threads: a chain's next put is sent from the completion of the previous one (the client's threads), so
 * each key has one put in flight at a time; per-key state lives in atomic arrays indexed by key, written by
 * that key's chain only. The fault time is written once by the test thread before the fault.
 */
final class KeyChains {

    private final ZarisClient client;
    private final int keys;
    private final AtomicLongArray lastAcked;
    private final AtomicLongArray lastAckNanos;
    private final AtomicLongArray firstAckAfterFault;
    private final AtomicLongArray longestGapAfterFault;
    /** When each key's longest gap ended (its chain writes it alone, so a plain compare-then-set is safe). */
    private final AtomicLongArray longestGapEndNanos;
    /**
     * Each key's longest gap that began {@link #LATE_GAP_START} or more after the fault: past the failover itself,
     * where a partition going back to its primary (a heal) holds writes back; written like the longest gap.
     */
    private final AtomicLongArray longestLateGap;
    /** Where a late gap may begin: failovers of a crash are decided and served well within it. */
    static final long LATE_GAP_START = TimeUnit.SECONDS.toNanos(3);
    private final Map<String, LongAdder> exceptions = new ConcurrentHashMap<>();
    private final LongAdder acknowledged = new LongAdder();
    private final CountDownLatch stopped;
    private volatile boolean stopping;
    private volatile long faultNanos = Long.MAX_VALUE;
    private volatile long faultEpochMillis;

    KeyChains(ZarisClient client, int keys) {
        this.client = client;
        this.keys = keys;
        this.lastAcked = new AtomicLongArray(keys);
        this.lastAckNanos = new AtomicLongArray(keys);
        this.firstAckAfterFault = new AtomicLongArray(keys);
        this.longestGapAfterFault = new AtomicLongArray(keys);
        this.longestGapEndNanos = new AtomicLongArray(keys);
        this.longestLateGap = new AtomicLongArray(keys);
        this.stopped = new CountDownLatch(keys);
    }

    static String key(int index) {
        return "chain-" + index;
    }

    void start() {
        for (int k = 0; k < keys; k++) {
            send(k, 1);
        }
    }

    /** From now on, puts count as sent after the fault. */
    void faultNow() {
        faultEpochMillis = System.currentTimeMillis();
        faultNanos = System.nanoTime();
    }

    long faultNanos() {
        return faultNanos;
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
        long sentNanos = System.nanoTime();
        client.put(key(key), (key(key) + "@" + sequence).getBytes(StandardCharsets.UTF_8)).whenComplete((version, error) -> {
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
                    if (previous - fault >= LATE_GAP_START && gap > longestLateGap.get(key)) {
                        longestLateGap.set(key, gap);
                    }
                }
                if (sentNanos - fault >= 0) {
                    firstAckAfterFault.compareAndSet(key, 0, now);
                }
            } else {
                exceptions.computeIfAbsent(kindOf(error), k -> new LongAdder()).increment();
            }
            send(key, sequence + 1);
        });
    }

    private static String kindOf(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof ZarisStatusException status ? status.status().name() : cause.getClass().getSimpleName();
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

    long exceptionCount() {
        return exceptions().values().stream().mapToLong(Long::longValue).sum();
    }

    /** Per key: from the fault until the first put sent after it was acknowledged (seconds); keys never written after it are left out. */
    List<Double> secondsUntilWritable() {
        List<Double> seconds = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            long first = firstAckAfterFault.get(k);
            if (first != 0) {
                seconds.add((first - faultNanos) / 1e9);
            }
        }
        return seconds;
    }

    /** Keys none of whose puts sent after the fault were acknowledged. */
    int keysNeverWritableAgain() {
        int never = 0;
        for (int k = 0; k < keys; k++) {
            if (firstAckAfterFault.get(k) == 0) {
                never++;
            }
        }
        return never;
    }

    /** Per key: the longest time after the fault without an acknowledged put (seconds). */
    List<Double> longestGapSeconds() {
        List<Double> seconds = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            seconds.add(longestGapAfterFault.get(k) / 1e9);
        }
        return seconds;
    }

    /** Reads every key back: how many acknowledged writes are missing (a value older than the last acknowledged one). */
    long lostAcknowledgedWrites() {
        long lost = 0;
        for (int k = 0; k < keys; k++) {
            Optional<VersionedValue> value = client.sync().get(key(k));
            long stored = value.map(versioned -> {
                String text = new String(versioned.value(), StandardCharsets.UTF_8);
                return Long.parseLong(text.substring(text.indexOf('@') + 1));
            }).orElse(0L);
            lost += Math.max(0, lastAcked.get(k) - stored);
        }
        return lost;
    }

    static double percentile(List<Double> values, double quantile) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int index = (int) Math.ceil(quantile * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    String summary(String fault) {
        List<Double> writable = secondsUntilWritable();
        List<Double> gaps = longestGapSeconds();
        return String.format("%s: %d writes acknowledged; writable again per key p50 %.2f s, max %.2f s"
                        + " (%d keys never); longest gap per key p50 %.2f s, p99 %.2f s, max %.2f s; exceptions %s",
                fault, acknowledged(), percentile(writable, 0.5), percentile(writable, 1.0), keysNeverWritableAgain(),
                percentile(gaps, 0.5), percentile(gaps, 0.99), percentile(gaps, 1.0), exceptions()) + longestGapPlace()
                + lateGaps();
    }

    /** The longest gaps per key that began {@link #LATE_GAP_START} or more after the fault. */
    private String lateGaps() {
        List<Double> late = new ArrayList<>(keys);
        for (int k = 0; k < keys; k++) {
            late.add(longestLateGap.get(k) / 1e9);
        }
        return String.format("; longest gap per key beginning %d s or more after the fault p50 %.2f s, max %.2f s",
                TimeUnit.NANOSECONDS.toSeconds(LATE_GAP_START), percentile(late, 0.5), percentile(late, 1.0));
    }

    /** Where the longest gap lay, in wall-clock time too, so it can be found in the nodes' logs. */
    private String longestGapPlace() {
        int worst = 0;
        for (int k = 1; k < keys; k++) {
            if (longestGapAfterFault.get(k) > longestGapAfterFault.get(worst)) {
                worst = k;
            }
        }
        long end = longestGapEndNanos.get(worst);
        if (end == 0) {
            return "";
        }
        long start = end - longestGapAfterFault.get(worst);
        LocalTime wallStart = LocalTime.ofInstant(
                Instant.ofEpochMilli(faultEpochMillis + (start - faultNanos) / 1_000_000), ZoneId.systemDefault());
        return String.format("; the longest gap: %s from %.2f s to %.2f s after the fault (%s)", key(worst),
                (start - faultNanos) / 1e9, (end - faultNanos) / 1e9, wallStart);
    }
}
