package io.zaris.bench.peers;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * Drives one client with a fixed number of requests in flight for a fixed time (a closed loop: each
 * completion issues the next request, so the window never grows).
 *
 * <p>One request in flight uses the client's blocking API on the calling thread: the single-thread
 * synchronous latency users see. More in flight use the asynchronous API; a completion runs on whatever
 * thread the client completes it on, records the latency and issues the next request from there.
 *
 * <p>Concurrency: the stop flag is volatile; only completions observed while it is set count towards
 * throughput. A slot that sees the flag cleared stops issuing and counts down {@code drained}, so the
 * loop waits for every outstanding request before the next measurement starts. A failed request ends
 * its slot (counted as a failure) rather than re-issuing from a possibly synchronous failure path.
 */
final class ClosedLoop {

    /** Latencies above this are clamped; nothing in these runs comes close. */
    private static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** How long the loop waits for outstanding requests after the measured time. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

    private final KvClient client;
    private final Workload workload;
    private final Keyspace keyspace;
    private final Recorder latencies = new Recorder(HIGHEST_TRACKABLE_NANOS, 3);
    private final LongAdder completed = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private volatile boolean running = true;

    private ClosedLoop(KvClient client, Workload workload, Keyspace keyspace) {
        this.client = client;
        this.workload = workload;
        this.keyspace = keyspace;
    }

    static Sample run(KvClient client, Workload workload, Keyspace keyspace, Duration duration)
            throws InterruptedException {
        if (keyspace.valueBytes() != workload.valueBytes()) {
            throw new IllegalArgumentException("keyspace of " + keyspace.valueBytes() + " B for " + workload);
        }
        return new ClosedLoop(client, workload, keyspace).measure(duration);
    }

    private Sample measure(Duration duration) throws InterruptedException {
        long start = System.nanoTime();
        long stopped;
        if (workload.inFlight() == 1) {
            runBlocking(start + duration.toNanos());
            stopped = System.nanoTime();
        } else {
            CountDownLatch drained = new CountDownLatch(workload.inFlight());
            for (int i = 0; i < workload.inFlight(); i++) {
                issue(drained);
            }
            TimeUnit.NANOSECONDS.sleep(duration.toNanos()); // the measured interval itself
            running = false;
            stopped = System.nanoTime();
            if (!drained.await(DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(workload + ": requests still outstanding " + DRAIN_TIMEOUT + " after the run");
            }
        }
        double seconds = (stopped - start) / 1e9;
        return new Sample(completed.sum(), completed.sum() / seconds, latencies.getIntervalHistogram(), failures.sum(), misses.sum());
    }

    private void runBlocking(long deadline) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (System.nanoTime() < deadline) {
            String key = keyspace.randomKey(random);
            long sent = System.nanoTime();
            try {
                if (workload.op().nextIsRead(random)) {
                    countRead(client.get(key));
                } else {
                    client.put(key, keyspace.value());
                }
                latencies.recordValue(Math.min(System.nanoTime() - sent, HIGHEST_TRACKABLE_NANOS));
                completed.increment();
            } catch (RuntimeException e) {
                failures.increment();
            }
        }
        running = false;
    }

    private void issue(CountDownLatch drained) {
        if (!running) {
            drained.countDown();
            return;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String key = keyspace.randomKey(random);
        boolean read = workload.op().nextIsRead(random);
        long sent = System.nanoTime();
        KvClient.Completion completion = (valueLength, failure) -> {
            long latency = System.nanoTime() - sent;
            if (failure != null) {
                failures.increment();
                drained.countDown();
                return;
            }
            if (running) {
                latencies.recordValue(Math.min(latency, HIGHEST_TRACKABLE_NANOS));
                completed.increment();
                if (read) {
                    countRead(valueLength);
                }
            }
            issue(drained);
        };
        if (read) {
            client.getAsync(key, completion);
        } else {
            client.putAsync(key, keyspace.value(), completion);
        }
    }

    private void countRead(int valueLength) {
        if (valueLength != keyspace.valueBytes()) {
            misses.increment();
        }
    }
}
