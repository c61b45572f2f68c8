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
 * without one, how long after a writer's acknowledgement another client's near cache drops the key and reads the
 * new value, and how many entries a {@code kill -9} of an owner leaves servable ({@link #failover}).
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
                Histogram[] invalidation = invalidationLatency(plain.sync(), near, rounds);
                row("put round trip (writer)", invalidation[0]);
                row("writer's ack → invalidation applied at the near-cache client", invalidation[2]);
                row("writer's ack → new value read by the near-cache client", invalidation[1]);
                System.out.printf(Locale.ROOT, "%nnear cache after the hit row: %d hits, %d misses, %d entries%n",
                        stats.hits(), stats.misses(), stats.entries());
                System.out.printf(Locale.ROOT, "%d cores, Java %s, 3 server processes (-Xmx128m) + 2 clients in one JVM on "
                                + "loopback, %d-byte values, %d keys, %d s warm-up, %d s measured per get row, %d write rounds%n",
                        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), VALUE_BYTES, KEYS,
                        WARM_UP_SECONDS, measureSeconds, rounds);
                failover(processes, plain, near);
            }
        }
    }

    /**
     * Entries kept through a {@code kill -9}: the near-cache client holds every key; the owner of some dies; the
     * writer rewrites every tenth key (retried until the new owners acknowledge); then the reader reads every key
     * twice. Prints how many entries the failover left and what the two passes hit, with the streams that resumed
     * (keeping their entries) and those that had to drop them.
     */
    private static void failover(ServerProcesses processes, ZarisClient plain, ZarisClient near) throws Exception {
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < KEYS; i++) {
            near.sync().get(key(i));
            near.sync().get(key(i));
        }
        String victim = near.ownerOf(key(0));
        int victimKeys = 0;
        for (int i = 0; i < KEYS; i++) {
            victimKeys += victim.equals(near.ownerOf(key(i))) ? 1 : 0;
        }
        NearCacheStats before = near.nearCacheStats();
        processes.node(victim).kill();
        byte[] changed = ByteBuffer.allocate(VALUE_BYTES).putLong(-1).array();
        for (int i = 0; i < KEYS; i += 10) {
            plain.sync().put(key(i), changed);
        }
        ServerProcesses.awaitEveryPartitionWritable(plain);
        near.refreshMap().join();
        NearCacheStats atStart = near.nearCacheStats();
        long[] first = readPass(near);
        long[] second = readPass(near);
        NearCacheStats after = near.nearCacheStats();
        System.out.printf(Locale.ROOT, "%nkill -9 of %s, the active owner of %d of the %d keys; the writer then rewrote "
                        + "every 10th key:%n", victim, victimKeys, KEYS);
        System.out.printf(Locale.ROOT, "| | entries held | hits | misses | wrong values |%n|---|---|---|---|---|%n");
        System.out.printf(Locale.ROOT, "| before the kill | %d | | | |%n", before.entries());
        System.out.printf(Locale.ROOT, "| after the rewrites, before any read | %d | | | |%n", atStart.entries());
        System.out.printf(Locale.ROOT, "| first read pass over every key | | %d | %d | %d |%n", first[0], first[1], first[2]);
        System.out.printf(Locale.ROOT, "| second read pass over every key | %d | %d | %d | %d |%n", after.entries(),
                second[0], second[1], second[2]);
        System.out.printf(Locale.ROOT, "segment streams resumed: %d, dropped (op log did not reach back): %d%n",
                after.resumedStreams() - before.resumedStreams(), after.droppedStreams() - before.droppedStreams());
    }

    /** Reads every key once: {hits, misses, values that are neither the first nor the rewritten one where due}. */
    private static long[] readPass(ZarisClient near) {
        NearCacheStats start = near.nearCacheStats();
        long wrong = 0;
        for (int i = 0; i < KEYS; i++) {
            long expected = i % 10 == 0 ? -1 : 0;
            if (ByteBuffer.wrap(near.sync().get(key(i)).orElseThrow().value()).getLong() != expected) {
                wrong++;
            }
        }
        NearCacheStats end = near.nearCacheStats();
        return new long[] {end.hits() - start.hits(), end.misses() - start.misses(), wrong};
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
    private static Histogram[] invalidationLatency(BlockingZarisClient writer, ZarisClient near, int rounds) {
        BlockingZarisClient reader = near.sync();
        Histogram put = new Histogram(3);
        Histogram seen = new Histogram(3);
        Histogram invalidated = new Histogram(3);
        String key = key(0);
        for (int round = 1; round <= rounds; round++) {
            reader.get(key);
            reader.get(key); // cached
            long invalidationsBefore = near.nearCacheStats().invalidations();
            byte[] value = ByteBuffer.allocate(VALUE_BYTES).putLong(round).array();
            long start = System.nanoTime();
            writer.put(key, value);
            long acknowledged = System.nanoTime();
            while (near.nearCacheStats().invalidations() == invalidationsBefore) {
                Thread.onSpinWait();
            }
            long pushed = System.nanoTime();
            while (ByteBuffer.wrap(reader.get(key).orElseThrow().value()).getLong() != round) {
                Thread.onSpinWait();
            }
            long read = System.nanoTime();
            put.recordValue(acknowledged - start);
            invalidated.recordValue(Math.max(0, pushed - acknowledged));
            seen.recordValue(Math.max(0, read - acknowledged));
        }
        return new Histogram[] {put, seen, invalidated};
    }

    private static void row(String what, Histogram latencies) {
        System.out.printf(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %.2f |%n", what, latencies.getTotalCount(),
                latencies.getValueAtPercentile(50) / 1000.0, latencies.getValueAtPercentile(99) / 1000.0,
                latencies.getValueAtPercentile(99.9) / 1000.0, latencies.getMean() / 1000.0);
    }
}
