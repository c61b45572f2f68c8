package io.zaris.bench.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** Renders a run as Markdown and writes it under a dated name that never overwrites an earlier report. */
final class MarkdownReport {

    static final String THROUGHPUT_HEADING = "## Throughput and latency";
    /** The Zaris rows the targets are judged on (replication factor 2), and the one-copy variant. */
    private static final String ZARIS_SYNC = "Zaris SYNC";
    private static final String ZARIS_ASYNC = "Zaris ASYNC";
    private static final String ZARIS_ONE_COPY = "Zaris ASYNC, 1 copy";
    /** The peer keeping two copies of an entry, as Zaris with replication factor 2 does. */
    private static final String REDIS_SAME_COPIES = "Redis Cluster + replicas";

    private MarkdownReport() {
    }

    /** What names a throughput row across reports: system, op, value size, in flight. */
    static String rowKey(ThroughputRow row) {
        return String.join(" | ", row.system(), row.workload().op().label(), row.workload().valueLabel(),
                Integer.toString(row.workload().inFlight()));
    }

    static Path write(String report, Path directory, LocalDate date) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(date + ".md");
        for (int n = 2; Files.exists(file); n++) {
            file = directory.resolve(date + "-" + n + ".md");
        }
        return Files.writeString(file, report);
    }

    static String render(BenchResults results, BenchSettings settings, Duration took, Path previous,
                         List<String> regressions) {
        StringBuilder out = new StringBuilder();
        line(out, "# Zaris side by side: %s", LocalDate.now());
        line(out, "");
        line(out, "- Command: `bench/run%s`; the run took %d min %d s.",
                settings.arguments().isEmpty() ? "" : " " + settings.arguments(),
                took.toMinutes(), took.toSecondsPart());
        line(out, "- Machine: %d cores, %s %s, Java %s (%s). A shared build machine: other builds ran at the same "
                        + "time, so figures are noisy; compare ratios within one run.",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), System.getProperty("os.arch"),
                System.getProperty("java.version"), System.getProperty("java.vm.name"));
        line(out, "- Settings: %s. Every system is a cluster of 3 nodes on loopback, started for the run and then stopped, "
                + "measured from one client JVM; one request in flight uses each client's blocking API on one thread, more "
                + "use its async API in a closed loop.", settings.describe());
        if (!results.throughput.isEmpty()) { // a --spring-only or --memory-only run measured no workload side by side
            line(out, "- Side by side: %s. The systems of a group (each keeping as many copies of an entry) run at the same "
                    + "time and take turns interval by interval: each measured interval of a row on one is followed by one on "
                    + "the next (after half a row's warm-up), the order rotating from one interval to the next, so that the machine's drift in speed falls on "
                    + "every member; the ones not measured idle meanwhile%s. Every other system runs alone.",
                    pairsDescription(results), idleDescription(results));
        }
        line(out, "");
        line(out, "## Configurations");
        line(out, "");
        results.configurations.entrySet().stream().sorted(Comparator.comparingInt(e -> results.orderOf(e.getKey())))
                .forEach(e -> line(out, "- **%s**: %s.", e.getKey(), e.getValue()));
        line(out, "");
        if (!results.throughput.isEmpty()) { // a --spring-only run has none
            renderThroughput(out, results);
            renderTargets(out, results);
        }
        renderMemory(out, results);
        renderSpring(out, results);
        line(out, "## Regression check");
        line(out, "");
        if (previous == null) {
            line(out, "No earlier report to compare with.");
        } else if (regressions.isEmpty()) {
            line(out, "No throughput row dropped more than 10 %% against `%s`.", previous.getFileName());
        } else {
            line(out, "Rows whose median ops/s dropped more than 10 %% against `%s`:", previous.getFileName());
            line(out, "");
            regressions.forEach(r -> line(out, "- %s", r));
        }
        return out.toString();
    }

    private static String pairsDescription(BenchResults results) {
        List<String> pairs = SideBySide.groups(results.systemIds).stream().filter(group -> group.size() > 1)
                .map(group -> group.stream().map(results.labels::get).collect(Collectors.joining(" with "))).toList();
        return pairs.isEmpty() ? "no pair in this run" : String.join("; ", pairs);
    }

    private static String idleDescription(BenchResults results) {
        if (results.idleBeside.isEmpty()) {
            return "";
        }
        return " (its servers used " + results.idleBeside.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%.1f %% of one core for %s", e.getValue().percentOfCore(), e.getKey()))
                .collect(Collectors.joining(", ")) + ")";
    }

    private static void renderThroughput(StringBuilder out, BenchResults results) {
        line(out, THROUGHPUT_HEADING);
        line(out, "");
        line(out, "ops/s is the median of the measured intervals (spread: slowest–fastest); latencies cover every "
                + "measured request. *vs best peer*: ops/s ÷ the fastest other product on the same workload, and "
                + "p99 ÷ that product's p99 (below 1 is better). *CPU µs/op*: CPU time (user + system, as the OS "
                + "accounts it) per completed request during the measured intervals, of the system's server processes "
                + "together and of the benchmark's client JVM; on this machine's cores their sum bounds the throughput "
                + "both can reach together, and it moves far less than ops/s between runs. *of which JIT + GC*: the part "
                + "of the servers' CPU µs/op their JVMs' compiler threads and collector threads (and the VM thread that "
                + "runs the collector's pauses) spent, read per thread from /proc; a large share marks a row measured "
                + "while the servers were still compiling or collecting, not serving.");
        line(out, "");
        line(out, "| system | op | value | in flight | ops/s | spread | p50 µs | p99 µs | p99.9 µs | CPU µs/op servers | of which JIT + GC | CPU µs/op client | vs best peer | p99 vs peer | errors |");
        line(out, "|---|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---|");
        results.throughput.stream()
                .sorted(Comparator.comparing((ThroughputRow r) -> r.workload().valueBytes())
                        .thenComparing(r -> r.workload().inFlight()).thenComparing(r -> r.workload().op())
                        .thenComparing(r -> results.orderOf(r.system())))
                .forEach(row -> {
                    Optional<ThroughputRow> peer = results.bestPeer(row);
                    String ratio = peer.map(p -> String.format(Locale.ROOT, "%.2f× %s",
                            row.medianOpsPerSecond() / p.medianOpsPerSecond(), p.system())).orElse("–");
                    String p99Ratio = peer.map(p -> String.format(Locale.ROOT, "%.2f", row.micros(99) / p.micros(99)))
                            .orElse("–");
                    String errors = row.failures() + row.misses() == 0 ? ""
                            : row.failures() + " failed, " + row.misses() + " misses";
                    line(out, "| %s | %,.0f | %,.0f–%,.0f | %.0f | %.0f | %.0f | %s | %s | %s | %s | %s | %s |", rowKey(row),
                            row.medianOpsPerSecond(), Stats.min(row.rates()), Stats.max(row.rates()), row.micros(50),
                            row.micros(99), row.micros(99.9), cpuCell(row.serverCpuMicrosPerOp()), housekeepingCell(row),
                            cpuCell(row.clientCpuMicrosPerOp()), ratio, p99Ratio, errors);
                });
        line(out, "");
    }

    /**
     * The targets, each as the worst ratio over the rows it covers, judged twice: on Zaris SYNC (the default)
     * and on Zaris ASYNC, each against the peer that keeps as many copies and was measured in the same group.
     */
    private static void renderTargets(StringBuilder out, BenchResults results) {
        line(out, "## Targets");
        line(out, "");
        line(out, "Every target is judged on Zaris SYNC (the default acknowledgement) and on Zaris ASYNC, each against "
                + "the peer that keeps as many copies of an entry, measured in the same group (taking turns interval "
                + "by interval): Zaris with replication factor 2 against the Redis Cluster with one replica per master "
                + "and against Hazelcast (one backup); when the run includes it, Zaris with replication factor 1 "
                + "against the Redis Cluster without replicas. "
                + "*By CPU per request* (throughput targets): on the worst row, the peer's CPU time per request, servers "
                + "and client together, ÷ Zaris': the ratio both would reach if the cores were all they waited for. It "
                + "moves far less between runs than ops/s; *met* is judged on the measured ops/s.");
        line(out, "");
        line(out, "| target | worst row | measured | by CPU per request | met |");
        line(out, "|---|---|---:|---:|---|");
        for (String zaris : List.of(ZARIS_SYNC, ZARIS_ASYNC)) {
            redisBounds(out, results, zaris, REDIS_SAME_COPIES);
            target(out, results, zaris, zaris + " ops/s ≥ 2× Hazelcast at 16 and 128 in flight", "Hazelcast",
                    w -> w.inFlight() > 1, 2.0, false);
            getLatencyTarget(out, results, zaris, REDIS_SAME_COPIES);
        }
        redisBounds(out, results, ZARIS_ONE_COPY, "Redis Cluster");
        Optional<MemoryRow> zarisMemory = results.memory.stream().filter(m -> m.system().startsWith("Zaris")).findFirst();
        Optional<MemoryRow> redisMemory = results.memory.stream().filter(m -> m.system().startsWith("Redis")).findFirst();
        if (zarisMemory.isPresent() && redisMemory.isPresent()) {
            double ratio = zarisMemory.get().bytesPerCopy() / redisMemory.get().bytesPerCopy();
            line(out, "| bytes per stored copy ≤ 1.5× Redis' | memory row | %.2f× | – | %s |", ratio,
                    ratio <= 1.5 ? "yes" : "**no**");
            // No bound has been set for this one: it is reported beside the target above, not judged.
            double deployment = DeploymentMemory.ratio(zarisMemory.get().deploymentBytesPerCopy(),
                    redisMemory.get().deploymentBytesPerCopy());
            line(out, "| memory a deployment needs per stored copy, with each system's recommended headroom "
                    + "(see Memory; no bound set) | memory row | %s | – | – |", ratioCell(deployment));
        }
        line(out, "");
    }

    /** Single-thread blocking GET of 100 B: Zaris' p50 at most 0.8× the peer's (Lettuce's, for a Redis Cluster). */
    private static void getLatencyTarget(StringBuilder out, BenchResults results, String zaris, String peer) {
        Workload syncGet = new Workload(Op.GET, 100, 1);
        Optional<ThroughputRow> zarisGet = results.row(zaris, syncGet);
        Optional<ThroughputRow> peerGet = results.row(peer, syncGet);
        if (zarisGet.isPresent() && peerGet.isPresent()) {
            double ratio = zarisGet.get().micros(50) / peerGet.get().micros(50);
            line(out, "| %s single-thread sync GET p50 ≤ 0.8× Lettuce's on the %s | GET 100 B 1 | %.2f× | – | %s |", zaris,
                    peer, ratio, ratio <= 0.8 ? "yes" : "**no**");
        }
    }

    /** The three bounds against a Redis Cluster: 1.5× at 128 in flight, 1.2× at 16, p99 no worse. */
    private static void redisBounds(StringBuilder out, BenchResults results, String zaris, String redis) {
        String possessive = redis.endsWith("s") ? redis + "'" : redis + "'s";
        target(out, results, zaris, zaris + " ops/s ≥ 1.5× " + redis + " at 128 in flight", redis,
                w -> w.inFlight() == 128, 1.5, false);
        target(out, results, zaris, zaris + " ops/s ≥ 1.2× " + redis + " at 16 in flight", redis,
                w -> w.inFlight() == 16, 1.2, false);
        target(out, results, zaris, zaris + " p99 ≤ " + possessive + " at 16 and 128 in flight", redis,
                w -> w.inFlight() > 1, 1.0, true);
    }

    private static void target(StringBuilder out, BenchResults results, String zaris, String name, String peer,
                               Predicate<Workload> covers, double bound, boolean latency) {
        ThroughputRow worst = null;
        ThroughputRow worstPeer = null;
        double worstRatio = latency ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        for (ThroughputRow row : results.throughput) {
            if (!row.system().equals(zaris) || !covers.test(row.workload())) {
                continue;
            }
            Optional<ThroughputRow> other = results.row(peer, row.workload());
            if (other.isEmpty()) {
                continue;
            }
            double ratio = latency ? row.micros(99) / other.get().micros(99)
                    : row.medianOpsPerSecond() / other.get().medianOpsPerSecond();
            if (latency ? ratio > worstRatio : ratio < worstRatio) {
                worstRatio = ratio;
                worst = row;
                worstPeer = other.get();
            }
        }
        if (worst != null) {
            boolean met = latency ? worstRatio <= bound : worstRatio >= bound;
            String byCpu = latency ? "–" : cpuRatioCell(worst, worstPeer);
            line(out, "| %s | %s %s %d | %.2f× | %s | %s |", name, worst.workload().op().label(), worst.workload().valueLabel(),
                    worst.workload().inFlight(), worstRatio, byCpu, met ? "yes" : "**no**");
        }
    }

    /** The peer's CPU per request (servers + client) ÷ Zaris'; "–" when either side has no CPU figure. */
    private static String cpuRatioCell(ThroughputRow zaris, ThroughputRow peer) {
        double zarisCpu = zaris.serverCpuMicrosPerOp() + zaris.clientCpuMicrosPerOp();
        double peerCpu = peer.serverCpuMicrosPerOp() + peer.clientCpuMicrosPerOp();
        if (Double.isNaN(zarisCpu) || Double.isNaN(peerCpu) || zarisCpu <= 0) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.2f×", peerCpu / zarisCpu);
    }

    private static void renderMemory(StringBuilder out, BenchResults results) {
        if (results.memory.isEmpty()) {
            return;
        }
        MemoryRow first = results.memory.get(0);
        line(out, "## Memory");
        line(out, "");
        line(out, "%,d entries of %d-byte values loaded into a fresh cluster of its own (stopped before the throughput "
                + "rows); growth of every node between before and after. *bytes/copy* divides by the copies each system keeps (Zaris: replication factor, "
                + "Hazelcast: owner + backup, Redis Cluster here: no replicas). *vs best peer* compares bytes/copy. "
                + "*system-reported*: Hazelcast's own entry cost; for Zaris, the bytes its nodes charge against their "
                + "memory budgets (what the budget's share of the heap is sized against). "
                + "*RSS*: each server process's resident memory after the load (from /proc; the JVMs' heaps are fixed "
                + "and pre-touched, so theirs is the whole heap, used or not; for Redis it is what `used_memory_rss` "
                + "reports). *max occupancy*: the share of a node's memory the system recommends filling with data "
                + "(sources below); *deployment bytes/copy* = the data per stored copy ÷ that share, the memory a "
                + "deployment provides per stored copy with the system's recommended headroom, where the data is "
                + "bytes/copy or, when larger, the system-reported figure per copy (a Zaris node evicts once the "
                + "bytes it charges pass its budget, so its heap is sized from them); *vs Redis*: its ratio to "
                + "Redis Cluster's.",
                first.entries(), first.valueBytes());
        line(out, "");
        line(out, "| system | measured as | per node after load (MiB) | RSS per node after load (MiB) | bytes/entry | copies "
                + "| bytes/copy | system-reported bytes/entry | vs best peer | max occupancy | deployment bytes/copy | vs Redis |");
        line(out, "|---|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|");
        Optional<MemoryRow> redis = results.memory.stream().filter(m -> m.system().startsWith("Redis")).findFirst();
        for (MemoryRow row : results.memory) {
            String reported = row.reportedBytesPerEntry() < 0 ? "–" : String.format(Locale.ROOT, "%.0f", row.reportedBytesPerEntry());
            String ratio = results.bestPeer(row).map(p -> String.format(Locale.ROOT, "%.2f× %s",
                    row.bytesPerCopy() / p.bytesPerCopy(), p.system())).orElse("–");
            String deployment = Double.isNaN(row.deploymentBytesPerCopy()) ? "–"
                    : String.format(Locale.ROOT, "%.0f", row.deploymentBytesPerCopy());
            String vsRedis = redis.map(r -> ratioCell(DeploymentMemory.ratio(row.deploymentBytesPerCopy(),
                    r.deploymentBytesPerCopy()))).orElse("–");
            line(out, "| %s | %s | %s | %s | %.0f | %d | %.0f | %s | %s | %.0f %% | %s | %s |", row.system(),
                    row.measuredAs(), mebibytes(row.after().perNode()), mebibytes(row.after().residentPerNode()),
                    row.bytesPerEntry(), row.copies(), row.bytesPerCopy(), reported, ratio,
                    row.occupancy().fraction() * 100, deployment, vsRedis);
        }
        line(out, "");
        line(out, "Recommended maximum occupancy:");
        line(out, "");
        for (MemoryRow row : results.memory) {
            line(out, "- **%s**: %.0f %% of %s: %s.", row.system(), row.occupancy().fraction() * 100,
                    row.occupancy().of(), row.occupancy().source());
        }
        line(out, "");
    }

    private static String mebibytes(List<Long> perNode) {
        return perNode.stream().map(b -> String.format(Locale.ROOT, "%.0f", b / 1048576.0))
                .collect(Collectors.joining(" / "));
    }

    private static String ratioCell(double ratio) {
        return Double.isNaN(ratio) ? "–" : String.format(Locale.ROOT, "%.2f×", ratio);
    }

    private static void renderSpring(StringBuilder out, BenchResults results) {
        if (results.spring.isEmpty()) {
            return;
        }
        line(out, "## Spring `@Cacheable`");
        line(out, "");
        line(out, "One thread calling a `@Cacheable` method returning a 100-character String (default serialization "
                + "of each cache manager). *hit*: the key is cached; *miss*: a new key, so the method runs and its value "
                + "is stored. *vs best peer*: µs/op ÷ the cheapest other product's cache manager's (below 1 is better). "
                + "*vs Caffeine*: µs/op ÷ Caffeine's on the same path (the near cache's target for a hit: at most 2×).");
        line(out, "");
        line(out, "| cache manager | path | µs/op | spread | p50 µs | p99 µs | vs best peer | vs Caffeine |");
        line(out, "|---|---|---:|---|---:|---:|---|---:|");
        results.spring.stream().sorted(Comparator.comparing(SpringRow::path)).forEach(row -> {
            String ratio = results.bestPeer(row).map(p -> String.format(Locale.ROOT, "%.2f× %s",
                    row.medianMicros() / p.medianMicros(), p.provider())).orElse("–");
            String caffeine = results.caffeine(row.path()).map(c -> String.format(Locale.ROOT, "%.2f×",
                    row.medianMicros() / c.medianMicros())).orElse("–");
            line(out, "| %s | %s | %.2f | %.2f–%.2f | %.1f | %.1f | %s | %s |", row.provider(), row.path(),
                    row.medianMicros(), Stats.min(row.microsPerOp()), Stats.max(row.microsPerOp()),
                    row.latencies().getValueAtPercentile(50) / 1000.0, row.latencies().getValueAtPercentile(99) / 1000.0,
                    ratio, caffeine);
        });
        line(out, "");
        if (!results.nearClientGets.isEmpty()) {
            line(out, "Below the cache manager: the same 1,000 keys read in turn through `ZarisClient.get(key).join()` on "
                    + "a client with a near cache, every call a near-cache hit (target: under 1 µs).");
            line(out, "");
            line(out, "| call | µs/op | spread | p50 µs | p99 µs | p99.9 µs |");
            line(out, "|---|---:|---|---:|---:|---:|");
            for (SpringRow row : results.nearClientGets) {
                line(out, "| %s | %.3f | %.3f–%.3f | %.2f | %.2f | %.2f |", row.provider(), row.medianMicros(),
                        Stats.min(row.microsPerOp()), Stats.max(row.microsPerOp()),
                        row.latencies().getValueAtPercentile(50) / 1000.0,
                        row.latencies().getValueAtPercentile(99) / 1000.0,
                        row.latencies().getValueAtPercentile(99.9) / 1000.0);
            }
            line(out, "");
        }
    }

    /** {@code JIT + GC} µs/op, e.g. {@code 0.4 + 1.2}; a dash when the servers' CPU time is not known. */
    static String housekeepingCell(ThroughputRow row) {
        if (Double.isNaN(row.serverCompilerMicrosPerOp()) || Double.isNaN(row.serverCollectorMicrosPerOp())) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.1f + %.1f", row.serverCompilerMicrosPerOp(), row.serverCollectorMicrosPerOp());
    }

    private static String cpuCell(double micros) {
        return Double.isNaN(micros) ? "–" : String.format(Locale.ROOT, "%.1f", micros);
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
