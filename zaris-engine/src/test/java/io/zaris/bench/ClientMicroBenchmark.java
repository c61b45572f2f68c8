package io.zaris.bench;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.NodeAddress;
import io.zaris.server.ServerProcesses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Throughput and latency of one client against a 3-node cluster of standalone server processes on
 * loopback: GET and PUT of 100-byte values over 100k keys with a fixed number of requests in flight
 * (closed loop: each completion issues the next request). Prints a Markdown table.
 *
 * <p>Run with {@code bench/micro} (arguments: warm-up seconds, measured seconds, iterations and, optionally,
 * the client's connections per node, default {@link ZarisClientOptions#DEFAULT_CONNECTIONS_PER_NODE}).
 */
public final class ClientMicroBenchmark {

    private static final int KEYS = 100_000;
    private static final int VALUE_BYTES = 100;
    private static final int[] IN_FLIGHT = {16, 128};

    private ClientMicroBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int warmupSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int measureSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int connectionsPerNode = args.length > 3 ? Integer.parseInt(args[3]) : ZarisClientOptions.DEFAULT_CONNECTIONS_PER_NODE;
        try (ServerProcesses processes = new ServerProcesses(
                Path.of(System.getProperty("java.io.tmpdir"), "zaris-bench-logs"))) {
            List<NodeAddress> seeds = processes.start(3, 2);
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(90)).connectionsPerNode(connectionsPerNode)
                    // The map is out before every active has its replication links open: SYNC writes of the
                    // preload are refused (UNAVAILABLE, nothing applied) until they are. Retries cover that
                    // start-up window; a measured run that needs them counts them as slow requests.
                    .maxAttempts(20).build())) {
                byte[] value = new byte[VALUE_BYTES];
                ThreadLocalRandom.current().nextBytes(value);
                preload(client, value);
                System.out.printf(Locale.ROOT, "%n| op | in flight | ops/s (median of %d) | ops/s spread | p50 µs | p99 µs | p99.9 µs |%n",
                        iterations);
                System.out.println("|---|---|---|---|---|---|---|");
                for (int inFlight : IN_FLIGHT) {
                    for (String op : new String[] {"GET", "PUT"}) {
                        run(client, op, inFlight, value, warmupSeconds);
                        List<Double> rates = new ArrayList<>();
                        Histogram latencies = new Histogram(3);
                        for (int i = 0; i < iterations; i++) {
                            Result result = run(client, op, inFlight, value, measureSeconds);
                            rates.add(result.opsPerSecond);
                            latencies.add(result.latencies);
                        }
                        rates.sort(Double::compare);
                        System.out.printf(Locale.ROOT, "| %s | %d | %.0f | %.0f–%.0f | %.0f | %.0f | %.0f |%n", op, inFlight,
                                rates.get(rates.size() / 2), rates.get(0), rates.get(rates.size() - 1),
                                latencies.getValueAtPercentile(50) / 1000.0, latencies.getValueAtPercentile(99) / 1000.0,
                                latencies.getValueAtPercentile(99.9) / 1000.0);
                    }
                }
                System.out.printf(Locale.ROOT, "%n%d cores, Java %s, 3 server processes (-Xmx128m) + 1 client on loopback, "
                                + "%d-byte values, %d keys, %d s warm-up, %d × %d s measured, %d connection(s) per node%n",
                        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), VALUE_BYTES, KEYS,
                        warmupSeconds, iterations, measureSeconds, connectionsPerNode);
            }
        }
    }

    private static void preload(ZarisClient client, byte[] value) throws Exception {
        List<CompletableFuture<Long>> batch = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            batch.add(client.put(key(i), value));
            if (batch.size() == 1000) {
                CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                batch.clear();
            }
        }
        CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }

    private static Result run(ZarisClient client, String op, int inFlight, byte[] value, int seconds)
            throws InterruptedException {
        ConcurrentHistogram latencies = new ConcurrentHistogram(TimeUnit.SECONDS.toNanos(10), 3);
        LongAdder completed = new LongAdder();
        LongAdder failed = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch drained = new CountDownLatch(inFlight);
        long start = System.nanoTime();
        for (int i = 0; i < inFlight; i++) {
            issue(client, op, value, latencies, completed, failed, running, drained);
        }
        TimeUnit.SECONDS.sleep(seconds);
        running.set(false);
        long elapsed = System.nanoTime() - start;
        long done = completed.sum();
        drained.await(30, TimeUnit.SECONDS);
        if (failed.sum() > 0) {
            System.err.println(op + ": " + failed.sum() + " requests failed");
        }
        return new Result(done * 1e9 / elapsed, latencies);
    }

    private static void issue(ZarisClient client, String op, byte[] value, ConcurrentHistogram latencies,
                              LongAdder completed, LongAdder failed, AtomicBoolean running, CountDownLatch drained) {
        if (!running.get()) {
            drained.countDown();
            return;
        }
        String key = key(ThreadLocalRandom.current().nextInt(KEYS));
        long sent = System.nanoTime();
        CompletableFuture<?> future = op.equals("GET") ? client.get(key) : client.put(key, value);
        future.whenComplete((result, error) -> {
            latencies.recordValue(Math.min(System.nanoTime() - sent, latencies.getHighestTrackableValue()));
            if (error != null) {
                failed.increment();
            } else {
                completed.increment();
            }
            issue(client, op, value, latencies, completed, failed, running, drained);
        });
    }

    private static String key(int i) {
        return "bench:" + i;
    }

    private record Result(double opsPerSecond, Histogram latencies) {
    }
}
