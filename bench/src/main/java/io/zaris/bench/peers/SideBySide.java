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
 * <p>The systems of a group run at the same time, and they take turns interval by interval: each measured interval
 * of a row on one is followed by one on the next, the order rotating from one interval to the next. This shared
 * machine has minutes in which memory-bound work costs several times what it costs in others (the first ones of
 * fresh JVMs after an idle pause above all), and stretches of seconds in which everything on it slows; measured one
 * system after the other, such drift fell on whichever ran then, and the ratios of a row moved by 30-50 % between
 * runs. Taking turns, it falls on every side of a comparison.
 *
 * <p>The groups are the comparisons the targets draw, each between systems that keep as many copies of an entry:
 * two copies — Zaris ASYNC and Zaris SYNC (replication factor 2), the Redis Cluster with one replica per master,
 * and Hazelcast (one backup) — and one copy — Zaris ASYNC with replication factor 1 and the Redis Cluster without
 * replicas. So no target compares systems measured at different times. At most four clusters are up at once. While
 * one member is measured the others idle beside it; what their servers spend meanwhile is recorded for the report.
 */
final class SideBySide {

    /** Systems measured side by side, each list one group of systems keeping as many copies as each other. */
    static final List<List<String>> PAIRS = List.of(List.of("zaris-async", "zaris-sync", "redis-replicas", "hazelcast"),
            List.of("zaris-async-1copy", "redis"));

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
     * load (so the rows follow the warm-up, not another member's load), then each row's intervals are measured on the
     * members that have it in turns, interval {@code i} in the order {@link #orderFor} gives for {@code row + i}.
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
                    List<SystemRun> members = group.stream().filter(run -> run.measures(workload)).toList();
                    Map<SystemRun, RowIntervals> rows = new IdentityHashMap<>();
                    for (int interval = 0; interval < settings.iterations(); interval++) {
                        Duration warmup = warmupBefore(interval, members.size(), settings.warmup());
                        for (SystemRun run : orderFor(row + interval, members)) {
                            RowIntervals intervals = rows.computeIfAbsent(run, r -> r.startRow(workload));
                            measureBeside(run, group, intervals, keyspaces.get(run), warmup, results);
                        }
                    }
                    for (SystemRun run : members) {
                        results.throughput.add(run.finish(rows.get(run)));
                    }
                    row++;
                }
            }
        }
    }

    /**
     * Unmeasured time before a member's interval: the row's whole warm-up before its first (it follows another
     * workload), half of it before a later one when another member ran in between (it only refills the window), and
     * none when the member runs alone (it ran the same workload just before).
     */
    static Duration warmupBefore(int interval, int members, Duration rowWarmup) {
        if (interval == 0) {
            return rowWarmup;
        }
        return members > 1 ? rowWarmup.dividedBy(2) : Duration.ZERO;
    }

    /** Measures one interval of the row on {@code run} and records what the group's other members spent meanwhile. */
    private static void measureBeside(SystemRun run, List<SystemRun> group, RowIntervals intervals, Keyspace keyspace,
                                      Duration warmup, BenchResults results) throws InterruptedException {
        List<SystemRun> idle = group.stream().filter(other -> other != run).toList();
        List<Duration> idleBefore = idle.stream().map(SystemRun::serverCpuTime).toList();
        long started = System.nanoTime();
        run.measureInterval(intervals, keyspace, warmup);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        for (int i = 0; i < idle.size(); i++) {
            results.recordIdleBeside(idle.get(i).system(), idle.get(i).serverCpuTime().minus(idleBefore.get(i)), elapsed);
        }
    }
}
