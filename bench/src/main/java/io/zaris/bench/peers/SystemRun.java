package io.zaris.bench.peers;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * What is measured on one running cluster through one client: the memory row (on a fresh cluster that
 * measures nothing else), or the steps of the workloads ({@link SideBySide} orders them): a value size's load,
 * the warm-up after it, and each row one measured interval at a time.
 */
final class SystemRun {

    private static final int MEMORY_VALUE_BYTES = 100;

    private final PeerCluster cluster;
    private final KvClient client;
    private final BenchSettings settings;

    SystemRun(PeerCluster cluster, KvClient client, BenchSettings settings) {
        this.cluster = cluster;
        this.client = client;
        this.settings = settings;
    }

    MemoryRow measureMemory() throws IOException, InterruptedException {
        log("memory row: loading %,d entries of %d B", settings.memoryEntries(), MEMORY_VALUE_BYTES);
        MemoryReading before = cluster.memory(client);
        byte[] value = new Keyspace(1, MEMORY_VALUE_BYTES, 7).value();
        BulkLoader.load(client, settings.memoryEntries(), i -> "mem:" + i, value);
        MemoryReading after = cluster.memory(client);
        String measuredAs = cluster.system().startsWith("Redis") ? "used_memory" : "heap after full GC";
        return new MemoryRow(cluster.system(), settings.memoryEntries(), MEMORY_VALUE_BYTES, cluster.copiesPerEntry(),
                before, after, measuredAs, cluster.recommendedOccupancy());
    }

    /** Loads every key of the value size (unmeasured); warm up before measuring ({@link #warmUpAfterLoad}). */
    Keyspace load(int valueBytes) throws InterruptedException {
        Keyspace keyspace = new Keyspace(settings.keys(), valueBytes, valueBytes);
        log("loading %,d keys of %d B", keyspace.size(), valueBytes);
        BulkLoader.load(client, keyspace.size(), keyspace::key, keyspace.value());
        return keyspace;
    }

    /** The system's name in the tables. */
    String system() {
        return cluster.system();
    }

    /** Whether this system has a row for the workload (see {@link PeerCluster#measures}). */
    boolean measures(Workload workload) {
        return cluster.measures(workload);
    }

    /** The cluster's servers' CPU time since they started: what an idle neighbour costs while another is measured. */
    Duration serverCpuTime() {
        return cluster.serverCpuTime();
    }

    /**
     * The same for every system: 90/10 at the run's highest in-flight level, unmeasured, then on in 1 s slices
     * (up to the limit) while the servers' and the client's JVMs spend more than a twentieth of their CPU compiling.
     * The slices take the run's in-flight levels in turn, so that one request at a time (each client's blocking
     * API) is compiled before the rows that measure it. A system that is no JVM has only the client to wait for.
     */
    void warmUpAfterLoad(Keyspace keyspace) throws InterruptedException {
        int inFlight = Arrays.stream(settings.inFlight()).max().orElse(1);
        Workload workload = new Workload(Op.MIX, keyspace.valueBytes(), inFlight);
        log("warming up: %s %s at %d in flight for %s", workload.op().label(), workload.valueLabel(), inFlight,
                settings.warmupAfterLoad());
        ClosedLoop.run(client, workload, keyspace, settings.warmupAfterLoad());
        Duration slice = Duration.ofSeconds(1);
        Duration spent = settings.warmupAfterLoad();
        for (int k = 0; spent.compareTo(settings.warmupAfterLoadLimit()) < 0; k++) {
            long compilerBefore = compilerNanos();
            long cpuBefore = cpuNanos();
            int sliceInFlight = settings.inFlight()[k % settings.inFlight().length];
            ClosedLoop.run(client, new Workload(Op.MIX, keyspace.valueBytes(), sliceInFlight), keyspace, slice);
            spent = spent.plus(slice);
            long compiler = compilerNanos() - compilerBefore;
            long cpu = cpuNanos() - cpuBefore;
            if (!ThreadCpu.stillCompiling(compiler, cpu)) {
                return;
            }
            log("still compiling (%.0f %% of the JVMs' CPU in the last %s, at %d in flight): warming up %s more",
                    100.0 * compiler / cpu, slice, sliceInFlight, slice);
        }
    }

    /** Servers and client together. */
    private long compilerNanos() {
        return cluster.serverHousekeeping().plus(ThreadCpu.of(ProcessHandle.current())).compiling().toNanos();
    }

    private long cpuNanos() {
        return cluster.serverCpuTime().plus(LocalProcesses.cpuTimeOf(ProcessHandle.current())).toNanos();
    }

    /** A row's intervals, to be measured one at a time ({@link #measureInterval}) and then {@link #finish}ed. */
    RowIntervals startRow(Workload workload) {
        return new RowIntervals(cluster.system(), workload);
    }

    /**
     * One measured interval of the row, after {@code warmup} of its workload unmeasured (to fill the window, and let
     * the previous row or the other member's interval drain). Only the interval itself counts towards CPU per request.
     */
    void measureInterval(RowIntervals row, Keyspace keyspace, Duration warmup) throws InterruptedException {
        if (!warmup.isZero()) {
            ClosedLoop.run(client, row.workload(), keyspace, warmup);
        }
        Duration serversBefore = cluster.serverCpuTime();
        ThreadCpu.Housekeeping housekeepingBefore = cluster.serverHousekeeping();
        Duration clientBefore = LocalProcesses.cpuTimeOf(ProcessHandle.current());
        Sample sample = ClosedLoop.run(client, row.workload(), keyspace, settings.measure());
        row.add(sample, cluster.serverCpuTime().minus(serversBefore),
                LocalProcesses.cpuTimeOf(ProcessHandle.current()).minus(clientBefore),
                cluster.serverHousekeeping().since(housekeepingBefore));
    }

    /** The row from its measured intervals, logged as it is. */
    ThroughputRow finish(RowIntervals intervals) {
        ThroughputRow row = intervals.toRow();
        Workload workload = row.workload();
        long failures = row.failures();
        long misses = row.misses();
        log("%-5s %6s in flight %3d: %,9.0f ops/s  p50 %7.1f µs  p99 %8.1f µs  CPU µs/op %.1f servers (JIT %.1f, GC %.1f) %.1f client%s",
                workload.op().label(), workload.valueLabel(), workload.inFlight(), row.medianOpsPerSecond(), row.micros(50),
                row.micros(99), row.serverCpuMicrosPerOp(), row.serverCompilerMicrosPerOp(),
                row.serverCollectorMicrosPerOp(), row.clientCpuMicrosPerOp(),
                failures + misses > 0 ? "  FAILURES " + failures + " MISSES " + misses : "");
        return row;
    }

    private void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[%s] " + format + "%n", prepend(cluster.system(), args));
    }

    private static Object[] prepend(Object first, Object[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
