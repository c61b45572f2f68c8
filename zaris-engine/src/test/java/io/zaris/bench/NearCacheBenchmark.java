package io.zaris.bench;

import io.zaris.client.BlockingZarisClient;
import io.zaris.client.NearCacheOptions;
import io.zaris.client.NearCacheStats;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.NodeAddress;
import io.zaris.model.VersionedValue;
import io.zaris.server.ServerProcesses;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * What the near cache saves a blocking reader, against a 3-node cluster of standalone server processes on
 * loopback: the latency of {@code sync().get} answered by the near cache versus the same reads by a client
 * without one, and how long after a writer's acknowledgement another client's near cache reads the new value.
 * One thread per measurement, 100-byte values. Prints a Markdown table.
 *
 * <p>Run with {@code bench/near-cache} (arguments: measured seconds per row, invalidation rounds; defaults 10 and
 * 2000).
 */
public final class NearCacheBenchmark {

    private static final int KEYS = 1_000;
    private static final int VALUE_BYTES = 100;
    /** Seconds each latency row warms up before it is measured. */
    private static final int WARM_UP_SECONDS = 3;

    private NearCacheBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int measureSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        try (ServerProcesses processes = new ServerProcesses(
                Path.of(System.getProperty("java.io.tmpdir"), "zaris-near-cache-bench-logs"))) {
            List<NodeAddress> seeds = processes.start(3, 2);
            try (ZarisClient near = ZarisClient.connect(options(seeds).nearCache(NearCacheOptions.create()).build());
                 ZarisClient plain = ZarisClient.connect(options(seeds).build())) {
                ServerProcesses.awaitEveryPartitionWritable(plain);
                byte[] value = new byte[VALUE_BYTES];
                for (int i = 0; i < KEYS; i++) {
                    plain.sync().put(key(i), value);
                }
                System.out.printf(Locale.ROOT, "%n| measurement | ops | p50 µs | p99 µs | p99.9 µs | mean µs |%n");
                System.out.println("|---|---|---|---|---|---|");
                getLatency(near.sync(), WARM_UP_SECONDS);
                row("get, near cache hit", getLatency(near.sync(), measureSeconds));
                NearCacheStats stats = near.nearCacheStats();
                getLatency(plain.sync(), WARM_UP_SECONDS);
                row("get, no near cache (one round trip)", getLatency(plain.sync(), measureSeconds));
                Histogram[] invalidation = invalidationLatency(plain.sync(), near.sync(), rounds);
                row("put round trip (writer)", invalidation[0]);
                row("writer's ack → new value read by the near-cache client", invalidation[1]);
                System.out.printf(Locale.ROOT, "%nnear cache after the hit row: %d hits, %d misses, %d entries%n",
                        stats.hits(), stats.misses(), stats.entries());
                System.out.printf(Locale.ROOT, "%d cores, Java %s, 3 server processes (-Xmx128m) + 2 clients in one JVM on "
                                + "loopback, %d-byte values, %d keys, %d s warm-up, %d s measured per get row, %d write rounds%n",
                        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), VALUE_BYTES, KEYS,
                        WARM_UP_SECONDS, measureSeconds, rounds);
            }
        }
    }

    private static ZarisClientOptions.Builder options(List<NodeAddress> seeds) {
        return ZarisClientOptions.builder().seeds(seeds).bootstrapTimeout(Duration.ofSeconds(90)).maxAttempts(20);
    }

    private static String key(int i) {
        return "near-bench-" + i;
    }

    /** Blocking gets over the keys, one thread, for {@code seconds}; each get timed on its own. */
    private static Histogram getLatency(BlockingZarisClient client, int seconds) {
        Histogram latencies = new Histogram(3);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int i = 0;
        long sink = 0;
        while (System.nanoTime() < end) {
            long start = System.nanoTime();
            Optional<VersionedValue> read = client.get(key(i));
            latencies.recordValue(System.nanoTime() - start);
            sink += read.orElseThrow().version();
            i = i + 1 == KEYS ? 0 : i + 1;
        }
        if (sink == 42) {
            System.out.println(); // keeps the reads from being optimised away
        }
        return latencies;
    }

    /**
     * Per round: the near-cache client holds the key, the writer puts a new value (timed: its round trip), and the
     * reader then spins on {@code get} until it reads that value (timed from the writer's acknowledgement: the push
     * reaching it plus the one read that fetches the new value).
     */
    private static Histogram[] invalidationLatency(BlockingZarisClient writer, BlockingZarisClient reader, int rounds) {
        Histogram put = new Histogram(3);
        Histogram seen = new Histogram(3);
        String key = key(0);
        for (int round = 1; round <= rounds; round++) {
            reader.get(key);
            reader.get(key); // cached
            byte[] value = ByteBuffer.allocate(VALUE_BYTES).putLong(round).array();
            long start = System.nanoTime();
            writer.put(key, value);
            long acknowledged = System.nanoTime();
            while (ByteBuffer.wrap(reader.get(key).orElseThrow().value()).getLong() != round) {
                Thread.onSpinWait();
            }
            long read = System.nanoTime();
            put.recordValue(acknowledged - start);
            seen.recordValue(Math.max(0, read - acknowledged));
        }
        return new Histogram[] {put, seen};
    }

    private static void row(String what, Histogram latencies) {
        System.out.printf(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %.2f |%n", what, latencies.getTotalCount(),
                latencies.getValueAtPercentile(50) / 1000.0, latencies.getValueAtPercentile(99) / 1000.0,
                latencies.getValueAtPercentile(99.9) / 1000.0, latencies.getMean() / 1000.0);
    }
}
