package io.zaris.bench.peers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a run measures and for how long. The full run fits in about 14 minutes on 2 cores; {@code --quick}
 * is a smoke run of every row in about 5 minutes (one short interval each, a smaller memory row). A
 * focused run ({@code --ops}, {@code --values}, {@code --in-flight}, {@code --seconds}, {@code --no-memory})
 * measures a subset, for profiling one workload; like a quick run it reports under {@code bench/target/}.
 *
 * @param arguments the command line, as the report quotes it
 * @param warmup unmeasured time before each row (and each path of the Spring rows)
 * @param warmupAfterLoad unmeasured 90/10 traffic at the highest in-flight level right after a key set is loaded,
 *                        before its first row: fresh JVMs (servers and client libraries alike) compile their hot
 *                        paths and the collector settles after the load, so the first rows measure the system,
 *                        not its start
 * @param warmupAfterLoadLimit how long that warm-up may go on, in 1 s slices after {@code warmupAfterLoad}, while
 *                        the JVMs still compile (see {@link ThreadCpu#stillCompiling})
 * @param measure length of one measured interval
 * @param iterations measured intervals per row (the table shows their median and spread)
 * @param memoryEntries entries of the memory row; 0 skips it
 * @param springOnly only the {@code @Cacheable} rows and the near-cache {@code ZarisClient.get} row: no workload rows,
 *                   no memory row (a focused run)
 * @param memoryOnly only the memory row, for the memory row's systems among {@code systems} (a focused run)
 */
record BenchSettings(String mode, String arguments, Duration warmup, Duration warmupAfterLoad,
                     Duration warmupAfterLoadLimit, Duration measure, int iterations, int keys, int[] valueSizes,
                     int[] inFlight, Set<Op> ops, int memoryEntries, Set<String> systems, boolean spring,
                     boolean springOnly, boolean memoryOnly, Path serverJar,
                     Path reportDirectory, Path historyDirectory, Path workDirectory) {

    /** What a run measures unless {@code --systems} says otherwise. */
    static final List<String> DEFAULT_SYSTEMS = List.of("zaris-async", "zaris-sync", "redis", "redis-replicas", "hazelcast");
    /** Every system {@code --systems} accepts: the default ones and the opt-in one-copy Zaris variant. */
    static final List<String> KNOWN_SYSTEMS = List.of("zaris-async", "zaris-sync", "zaris-async-1copy", "redis",
            "redis-replicas", "hazelcast");
    /** The systems the memory row measures: one configuration of each product. */
    static final List<String> MEMORY_ROW_SYSTEMS = List.of("zaris-async", "redis", "hazelcast");

    static final String USAGE = """
            usage: bench/run [--quick] [--systems zaris-async,zaris-sync,zaris-async-1copy,redis,redis-replicas,hazelcast]
                             [--no-spring | --spring-only]
                             [--ops GET,PUT,MIX] [--values 100,10240] [--in-flight 1,16,128] [--seconds N] [--keys N]
                             [--no-memory | --memory-only]
              --quick        one short interval per row and a 200k-entry memory row (about 5 minutes);
                             the report goes to bench/target/ instead of docs/benchmarks/
              --systems      measure only these systems (default: all but zaris-async-1copy; redis-replicas, a Redis
                             Cluster with one replica per master, measures only the PUT and 90/10 rows at 16 and 128
                             in flight; zaris-async-1copy, Zaris ASYNC with replication factor 1, every row at 16
                             and 128 in flight)
              --no-spring    skip the @Cacheable rows
              --spring-only  only the @Cacheable rows (Zaris with the near cache off and on, Boot's Redis and
                             Caffeine) and the near-cache ZarisClient.get row, for the systems zaris-async and redis
                             (a focused run: reported under bench/target/)
              --ops, --values, --in-flight
                             measure only these workloads (a focused run: reported under bench/target/)
              --seconds      length of each measured interval (a focused run)
              --keys         keys per value size instead of 100000 (a focused run)
              --no-memory    skip the memory row (a focused run)
              --memory-only  only the memory row (1M entries, 200k with --quick) for zaris-async, redis and
                             hazelcast, or those of them --systems names (a focused run: reported under bench/target/)
            Environment: ZARIS_BENCH_NODE_OPTS adds JVM options to every Zaris node (e.g. a flight recording);
            ZARIS_BENCH_NODE_ARGS adds server arguments to every Zaris node (e.g. --async-flush-delay 4ms).""";

    static BenchSettings parse(String[] args, Path repositoryRoot) {
        boolean quick = false;
        boolean focused = false;
        boolean spring = true;
        boolean springOnly = false;
        boolean memory = true;
        boolean memoryOnly = false;
        Set<String> systems = new LinkedHashSet<>(DEFAULT_SYSTEMS);
        Set<Op> ops = EnumSet.allOf(Op.class);
        int[] valueSizes = {100, 10 * 1024};
        int[] inFlight = {1, 16, 128};
        Duration measure = null;
        int keys = 100_000;
        for (int i = 0; i < args.length; i++) {
            String argument = args[i];
            switch (argument) {
                case "--quick" -> quick = true;
                case "--no-spring" -> spring = false;
                case "--spring-only" -> {
                    springOnly = true;
                    focused = true;
                }
                case "--no-memory" -> {
                    memory = false;
                    focused = true;
                }
                case "--memory-only" -> {
                    memoryOnly = true;
                    focused = true;
                }
                case "--systems" -> {
                    systems = new LinkedHashSet<>(List.of(valueOf(args, ++i, argument).split(",")));
                    if (!KNOWN_SYSTEMS.containsAll(systems)) {
                        throw new IllegalArgumentException("unknown system in " + systems + "; known: " + KNOWN_SYSTEMS);
                    }
                }
                case "--ops" -> {
                    ops = EnumSet.noneOf(Op.class);
                    for (String op : valueOf(args, ++i, argument).split(",")) {
                        ops.add(parseOp(op));
                    }
                    focused = true;
                }
                case "--values" -> {
                    valueSizes = positiveInts(valueOf(args, ++i, argument), argument);
                    focused = true;
                }
                case "--in-flight" -> {
                    inFlight = positiveInts(valueOf(args, ++i, argument), argument);
                    focused = true;
                }
                case "--seconds" -> {
                    measure = Duration.ofSeconds(positiveInts(valueOf(args, ++i, argument), argument)[0]);
                    focused = true;
                }
                case "--keys" -> {
                    keys = positiveInts(valueOf(args, ++i, argument), argument)[0];
                    focused = true;
                }
                default -> throw new IllegalArgumentException("unknown argument " + argument);
            }
        }
        if (springOnly && !spring) {
            throw new IllegalArgumentException("--spring-only and --no-spring exclude each other");
        }
        if (memoryOnly && (!memory || springOnly)) {
            throw new IllegalArgumentException("--memory-only excludes --no-memory and --spring-only");
        }
        if (springOnly) {
            systems.retainAll(List.of("zaris-async", "redis"));
        }
        if (memoryOnly) {
            systems.retainAll(MEMORY_ROW_SYSTEMS);
            if (systems.isEmpty()) {
                throw new IllegalArgumentException("--memory-only measures only " + MEMORY_ROW_SYSTEMS
                        + "; --systems names none of them");
            }
        }
        Path serverJar = Path.of(System.getProperty("zaris.server.jar", "missing"));
        Path target = repositoryRoot.resolve("bench").resolve("target");
        Path history = repositoryRoot.resolve("docs").resolve("benchmarks");
        String mode = quick ? "quick" : focused ? "focused" : "full";
        if (measure == null) {
            measure = quick ? Duration.ofSeconds(1) : Duration.ofSeconds(2);
        }
        int memoryEntries = !memory || springOnly ? 0 : quick ? 200_000 : 1_000_000;
        // Half a second per row is enough once the warm-up after each load has run (the window only has to fill
        // and the previous row's requests to drain); it keeps a full run under 15 minutes on 2 cores.
        return new BenchSettings(mode, String.join(" ", args), Duration.ofMillis(500),
                quick ? Duration.ofSeconds(2) : Duration.ofSeconds(4), quick ? Duration.ofSeconds(4) : Duration.ofSeconds(10),
                measure, quick ? 1 : 3,
                keys, valueSizes, inFlight, ops, memoryEntries, systems, spring && !memoryOnly, springOnly, memoryOnly,
                serverJar,
                mode.equals("full") ? history : target, history, target.resolve("run"));
    }

    /** Only a full run is committed history; quick and focused runs are for the one who runs them. */
    boolean isFull() {
        return mode.equals("full");
    }

    String describe() {
        if (memoryOnly) {
            return String.format(Locale.ROOT, "memory-only run: the memory row, %,d entries of 100 B", memoryEntries);
        }
        return String.format(Locale.ROOT,
                "%s run: %d keys per value size, values %s, in flight %s, ops %s, %s of 90/10 warm-up after each load "
                        + "(longer, up to %s, while the JVMs still compile), %s warm-up per row, %d × %s measured per row",
                mode, keys, Arrays.toString(valueSizes), Arrays.toString(inFlight), ops, warmupAfterLoad,
                warmupAfterLoadLimit, warmup, iterations, measure);
    }

    private static String valueOf(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static Op parseOp(String text) {
        for (Op op : Op.values()) {
            if (op.name().equalsIgnoreCase(text) || op.label().equals(text)) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown op " + text + "; known: GET, PUT, MIX");
    }

    private static int[] positiveInts(String list, String option) {
        try {
            int[] values = Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
            if (Arrays.stream(values).anyMatch(v -> v <= 0)) {
                throw new NumberFormatException();
            }
            return values;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes positive whole numbers separated by commas, not " + list);
        }
    }
}
