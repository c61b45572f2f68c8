package io.zaris.bench.peers;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The failover run's write load, the same for every system: each key has its own chain of sequential puts through
 * the client's asynchronous API (the next put only after the previous one returned, acknowledged or failed), and
 * sends at most one put per {@code interval}. So at most one put per key is in flight, the offered load is
 * {@code keys / interval} puts per second whatever the system, and a key that fails keeps trying at the same pace,
 * as an application that retries would. Each put carries the key's next sequence number ({@link SequenceValue}).
 *
 * <p>Every key's chain is alive from {@link #start} until, after {@link #stop}, its put in flight completes (or
 * its scheduled send finds the writers stopped); {@link #awaitQuiet} waits for the chains to end.
 *
 * <p>Threads: sends run on {@link #SENDER_THREADS} scheduler threads owned here (the clients' async calls do not
 * block, so they only pace); a completion runs on whatever thread the client completes on and only records it and
 * schedules the key's next send. A key's {@link KeyTimeline} is handed between those threads (see its notes).
 */
final class PacedWriters implements AutoCloseable {

    /** Threads that send; the sends are quick, more would only contend for the two cores. */
    private static final int SENDER_THREADS = 2;
    static final String KEY_PREFIX = "failover-";

    private final KvClient client;
    private final long intervalNanos;
    private final LongSupplier clock;
    private final KeyTimeline[] timelines;
    private final ScheduledExecutorService senders = Executors.newScheduledThreadPool(SENDER_THREADS, daemon());
    private final CountDownLatch chainsEnded;
    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private volatile boolean running;

    /** @param clock the run's monotonic clock in nanoseconds */
    PacedWriters(KvClient client, int keys, Duration interval, LongSupplier clock) {
        if (keys < 1 || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(keys + " keys every " + interval);
        }
        this.client = client;
        this.intervalNanos = interval.toNanos();
        this.clock = clock;
        this.timelines = new KeyTimeline[keys];
        Arrays.setAll(timelines, k -> new KeyTimeline());
        this.chainsEnded = new CountDownLatch(keys);
    }

    static String key(int index) {
        return KEY_PREFIX + index;
    }

    /** Starts every key's chain, their first sends spread evenly over one interval; returns the start time. */
    long start() {
        long started = clock.getAsLong();
        running = true;
        for (int k = 0; k < timelines.length; k++) {
            int key = k;
            senders.schedule(() -> send(key), intervalNanos * k / timelines.length, TimeUnit.NANOSECONDS);
        }
        return started;
    }

    private void send(int key) {
        if (!running) {
            chainsEnded.countDown();
            return;
        }
        long sent = clock.getAsLong();
        long sequence = timelines[key].send(sent);
        try {
            client.putAsync(key(key), SequenceValue.encode(sequence), (length, failure) -> completed(key, sequence, sent, failure));
        } catch (RuntimeException thrown) {
            completed(key, sequence, sent, thrown);
        }
    }

    private void completed(int key, long sequence, long sent, Throwable failure) {
        long done = clock.getAsLong();
        timelines[key].complete(sequence, done, failure == null ? null : ExceptionKinds.of(failure));
        (failure == null ? acknowledged : failed).increment();
        if (!running) {
            chainsEnded.countDown();
            return;
        }
        long next = Math.max(done, sent + intervalNanos);
        try {
            senders.schedule(() -> send(key), next - done, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            chainsEnded.countDown();
        }
    }

    /** Stops sending (puts in flight go on) and returns the time it did. */
    long stop() {
        running = false;
        return clock.getAsLong();
    }

    /** Waits, at most {@code limit}, for every put still in flight to complete; returns how many chains are still alive. */
    long awaitQuiet(Duration limit) throws InterruptedException {
        chainsEnded.await(limit.toNanos(), TimeUnit.NANOSECONDS);
        return chainsEnded.getCount();
    }

    long acknowledged() {
        return acknowledged.sum();
    }

    long failed() {
        return failed.sum();
    }

    /** What every key went through so far, in key order. */
    List<KeyHistory> snapshots() {
        return Arrays.stream(timelines).map(KeyTimeline::snapshot).toList();
    }

    @Override
    public void close() {
        running = false;
        senders.shutdownNow();
    }

    private static ThreadFactory daemon() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "failover-sender-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
