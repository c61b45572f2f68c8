package io.zaris.bench;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.NodeAddress;
import io.zaris.server.ServerProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory soak: churns keys against a 3-process cluster (each node {@code -Xmx128m}, serial GC, a 32 MiB
 * budget, allkeys-lru) far beyond its budget, and every sample interval measures each node's live heap: the
 * bytes of reachable objects that {@code jcmd <pid> GC.class_histogram} counts right after the full GC it
 * forces, in one safepoint, so garbage the ongoing load allocates is never counted. Each row also shows the
 * node's last memory report (bytes charged, evictions, expirations). Flat live-heap rows mean eviction and
 * expiry keep up with the churn. At the end it prints a {@link SoakVerdict} and throws when the run failed,
 * so the command exits non-zero.
 *
 * <p>Workload: 64 requests in flight; 80% puts of 1 KiB values over 10 million keys (a third of them with
 * a 5 s TTL), 20% gets. Run with {@code bench/soak --minutes M} (or {@code --seconds S}).
 */
public final class MemorySoakBenchmark {

    private static final int IN_FLIGHT = 64;
    private static final int KEY_SPACE = 10_000_000;
    private static final int VALUE_BYTES = 1024;
    private static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(15);
    private static final String BUDGET = "32m";
    private static final double BUDGET_MIB = 32;
    /**
     * Heap after GC allowed beyond the budget: an idle node holds about 10 MiB, the op logs at most 8 MiB at
     * {@code -Xmx128m}, and connection buffers and in-flight requests a few MiB more.
     */
    private static final double SLACK_MIB = 24;
    /** How far the last third's mean live heap may exceed the first third's (once full). */
    private static final double TOLERANCE = 0.15;
    /** The last line of {@code GC.class_histogram}: instances and bytes of all live objects. */
    private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");
    private static final Pattern MEMORY_REPORT = Pattern.compile(
            "memory used (\\d+) of (\\d+) bytes \\(([a-z-]+)\\), (\\d+) evictions, (\\d+) expirations, (\\d+) writes refused");

    private MemorySoakBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Duration duration = parseDuration(args);
        try (ServerProcesses processes = new ServerProcesses(Path.of(System.getProperty("java.io.tmpdir"), "zaris-soak-logs"))) {
            List<NodeAddress> seeds = processes.start(3, 2, "--max-memory", BUDGET, "--eviction-policy", "allkeys-lru");
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(90)).build())) {
                awaitWritable(client);
                System.out.printf(Locale.ROOT, "%nsoak: %s, 3 nodes (-Xmx128m, budget %s each, allkeys-lru), %d in flight%n%n",
                        duration, BUDGET, IN_FLIGHT);
                System.out.println("| t (s) | writes total | failed ops | node | live heap (MiB) | charged (MiB) | evictions | expirations |");
                System.out.println("|---|---|---|---|---|---|---|---|");
                LongAdder operations = new LongAdder();
                LongAdder writes = new LongAdder();
                LongAdder failures = new LongAdder();
                // Written by the sampler thread only while it runs; read here once it has terminated.
                List<SoakVerdict.Sample> samples = new ArrayList<>();
                Semaphore inFlight = new Semaphore(IN_FLIGHT);
                long start = System.nanoTime();
                long end = start + duration.toNanos();
                // Sampling (six jcmd calls) runs on its own thread so the load never pauses for it; with a fixed
                // delay, a slow sample on a busy machine delays the next one instead of bunching them up.
                ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "soak-sampler"));
                sampler.scheduleWithFixedDelay(() -> {
                    try {
                        samples.addAll(sample(processes, (System.nanoTime() - start) / 1_000_000_000L, writes, failures));
                    } catch (IOException e) {
                        // Keep sampling: a node that stays unreadable shows up as missing samples in the verdict.
                        System.err.println("soak: a sample failed: " + e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, 0, SAMPLE_INTERVAL.toSeconds(), TimeUnit.SECONDS);
                while (System.nanoTime() < end) {
                    if (!inFlight.tryAcquire(1, TimeUnit.SECONDS)) {
                        continue;
                    }
                    operations.increment();
                    issue(client, writes, failures).whenComplete((ignored, error) -> inFlight.release());
                }
                sampler.shutdown();
                if (!sampler.awaitTermination(5, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("the last sample did not finish within 5 minutes");
                }
                inFlight.acquire(IN_FLIGHT);
                samples.addAll(sample(processes, (System.nanoTime() - start) / 1_000_000_000L, writes, failures));
                SoakVerdict.Result verdict = SoakVerdict.judge(samples, duration.toSeconds(), BUDGET_MIB, SLACK_MIB,
                        TOLERANCE, operations.sum(), failures.sum());
                System.out.println();
                verdict.lines().forEach(System.out::println);
                if (!verdict.passed()) {
                    throw new IllegalStateException("memory soak failed: " + String.join("; ", verdict.lines()));
                }
            }
        }
    }

    private static CompletableFuture<?> issue(ZarisClient client, LongAdder writes, LongAdder failures) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String key = "soak:" + random.nextInt(KEY_SPACE);
        CompletableFuture<?> op;
        if (random.nextInt(100) < 80) {
            byte[] value = new byte[VALUE_BYTES];
            random.nextBytes(value);
            op = random.nextInt(3) == 0 ? client.put(key, value, Duration.ofSeconds(5)) : client.put(key, value);
            op = op.thenRun(writes::increment);
        } else {
            op = client.get(key);
        }
        return op.exceptionally(error -> {
            failures.increment();
            return null;
        });
    }

    private static List<SoakVerdict.Sample> sample(ServerProcesses processes, long seconds, LongAdder writes,
                                                   LongAdder failures) throws IOException, InterruptedException {
        List<SoakVerdict.Sample> samples = new ArrayList<>();
        for (ServerProcesses.Node node : processes.nodes()) {
            long pid = node.process().pid();
            Matcher live = HISTOGRAM_TOTAL.matcher(jcmd(pid, "GC.class_histogram"));
            double heapMiB = live.find() ? Long.parseLong(live.group(1)) / 1048576.0 : Double.NaN;
            Matcher report = lastMemoryReport(node.log());
            System.out.printf(Locale.ROOT, "| %d | %d | %d | %s | %.1f | %s | %s | %s |%n", seconds, writes.sum(), failures.sum(),
                    node.nodeId(), heapMiB,
                    report == null ? "-" : String.format(Locale.ROOT, "%.1f", Long.parseLong(report.group(1)) / 1048576.0),
                    report == null ? "-" : report.group(4), report == null ? "-" : report.group(5));
            samples.add(new SoakVerdict.Sample(seconds, node.nodeId(), heapMiB,
                    report == null ? 0 : Long.parseLong(report.group(4))));
        }
        return samples;
    }

    private static Matcher lastMemoryReport(Path log) throws IOException {
        Matcher last = null;
        for (String line : Files.readAllLines(log)) {
            Matcher matcher = MEMORY_REPORT.matcher(line);
            if (matcher.find()) {
                last = matcher;
            }
        }
        return last;
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        process.waitFor(30, TimeUnit.SECONDS);
        return output;
    }

    /** A fresh cluster refuses SYNC writes until its replication links are up: retry a probe write for a while. */
    private static void awaitWritable(ZarisClient client) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                client.sync().put("soak:probe", new byte[1]);
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static Duration parseDuration(String[] args) {
        Duration duration = Duration.ofMinutes(10);
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--minutes" -> duration = Duration.ofMinutes(Long.parseLong(args[i + 1]));
                case "--seconds" -> duration = Duration.ofSeconds(Long.parseLong(args[i + 1]));
                default -> throw new IllegalArgumentException("usage: bench/soak [--minutes M | --seconds S], not " + args[i]);
            }
        }
        return duration;
    }
}
