package io.zaris.bench.peers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which systems are measured side by side, and in what order.
 *
 * <p>The two systems of a pair run at the same time, and each row is measured on one and right after on the
 * other, the order alternating from row to row. This shared machine has minutes in which memory-bound work costs
 * several times what it costs in others (the first ones of fresh JVMs after an idle pause above all); measured one
 * system after the other, that drift fell on whichever ran first, and the ratios of a row moved by 30-50 % between
 * runs. Side by side it falls on both sides of a comparison. The pairs are the comparisons the targets draw: Zaris
 * ASYNC with the Redis Cluster without replicas, Zaris SYNC with the one with replicas. Every other system runs
 * alone, so at most two clusters are up at once, which bounds the run's memory. While one system of a pair is
 * measured the other idles beside it; what its servers spend meanwhile is recorded for the report.
 */
final class SideBySide {

    /** Systems measured side by side, each list one pair. */
    static final List<List<String>> PAIRS = List.of(List.of("zaris-async", "redis"), List.of("zaris-sync", "redis-replicas"));

    private SideBySide() {
    }

    /**
     * The selected systems in the groups that run together: a pair when both of its systems are selected, else
     * one system alone. Groups come in the order of their first system in {@code systems}; within a pair, in the
     * pair's order.
     */
    static List<List<String>> groups(Collection<String> systems) {
        Set<String> placed = new LinkedHashSet<>();
        List<List<String>> groups = new ArrayList<>();
        for (String system : systems) {
            if (placed.contains(system)) {
                continue;
            }
            List<String> group = PAIRS.stream().filter(pair -> pair.contains(system)).findFirst()
                    .map(pair -> pair.stream().filter(systems::contains).toList())
                    .orElse(List.of(system));
            placed.addAll(group);
            groups.add(group);
        }
        return groups;
    }

    /** The members in the order row number {@code row} (counted from 0 over the whole run) measures them. */
    static <T> List<T> orderFor(int row, List<T> members) {
        List<T> ordered = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++) {
            ordered.add(members.get((row + i) % members.size()));
        }
        return ordered;
    }

    /**
     * Every workload on the running group: for each value size, every member loads it and then warms up after its
     * load (so the rows follow the warm-up, not another member's load), then each row is measured on every member
     * that has it, in the order {@link #orderFor} gives.
     */
    static void measureWorkloads(List<SystemRun> group, BenchSettings settings, BenchResults results)
            throws InterruptedException {
        int row = 0;
        for (int valueBytes : settings.valueSizes()) {
            Map<SystemRun, Keyspace> keyspaces = new IdentityHashMap<>();
            for (SystemRun run : group) {
                keyspaces.put(run, run.load(valueBytes));
            }
            for (SystemRun run : group) {
                run.warmUpAfterLoad(keyspaces.get(run));
            }
            for (int inFlight : settings.inFlight()) {
                for (Op op : settings.ops()) {
                    Workload workload = new Workload(op, valueBytes, inFlight);
                    for (SystemRun run : orderFor(row, group)) {
                        if (run.measures(workload)) {
                            results.throughput.add(measureBeside(run, group, workload, keyspaces.get(run), results));
                        }
                    }
                    row++;
                }
            }
        }
    }

    /** Measures the row on {@code run} and records what the group's other members spent meanwhile. */
    private static ThroughputRow measureBeside(SystemRun run, List<SystemRun> group, Workload workload, Keyspace keyspace,
                                               BenchResults results) throws InterruptedException {
        List<SystemRun> idle = group.stream().filter(other -> other != run).toList();
        List<Duration> idleBefore = idle.stream().map(SystemRun::serverCpuTime).toList();
        long started = System.nanoTime();
        ThroughputRow measured = run.measure(workload, keyspace);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        for (int i = 0; i < idle.size(); i++) {
            results.recordIdleBeside(idle.get(i).system(), idle.get(i).serverCpuTime().minus(idleBefore.get(i)), elapsed);
        }
        return measured;
    }
}
