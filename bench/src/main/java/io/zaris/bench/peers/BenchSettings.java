package io.zaris.bench.peers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a run measures and for how long. The full run fits in about 12 minutes on 2 cores; {@code --quick}
 * is a smoke run of every row in about 3 minutes (one short interval each, a smaller memory row).
 *
 * @param warmup unmeasured time before each row
 * @param measure length of one measured interval
 * @param iterations measured intervals per row (the table shows their median and spread)
 * @param memoryEntries entries of the memory row
 */
record BenchSettings(boolean quick, Duration warmup, Duration measure, int iterations, int keys, int[] valueSizes,
                     int[] inFlight, int memoryEntries, Set<String> systems, boolean spring, Path serverJar,
                     Path reportDirectory, Path historyDirectory, Path workDirectory) {

    static final List<String> ALL_SYSTEMS = List.of("zaris-async", "zaris-sync", "redis", "hazelcast");

    static final String USAGE = """
            usage: bench/run [--quick] [--systems zaris-async,zaris-sync,redis,hazelcast] [--no-spring]
              --quick        one short interval per row and a 200k-entry memory row (about 3 minutes);
                             the report goes to bench/target/ instead of docs/benchmarks/
              --systems      measure only these systems (default: all)
              --no-spring    skip the @Cacheable rows""";

    static BenchSettings parse(String[] args, Path repositoryRoot) {
        boolean quick = false;
        boolean spring = true;
        Set<String> systems = new LinkedHashSet<>(ALL_SYSTEMS);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--no-spring" -> spring = false;
                case "--systems" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("--systems needs a list");
                    }
                    systems = new LinkedHashSet<>(List.of(args[++i].split(",")));
                    if (!ALL_SYSTEMS.containsAll(systems)) {
                        throw new IllegalArgumentException("unknown system in " + systems + "; known: " + ALL_SYSTEMS);
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path serverJar = Path.of(System.getProperty("zaris.server.jar", "missing"));
        Path target = repositoryRoot.resolve("bench").resolve("target");
        return new BenchSettings(quick, quick ? Duration.ofMillis(500) : Duration.ofSeconds(1),
                quick ? Duration.ofSeconds(1) : Duration.ofSeconds(2), quick ? 1 : 3, 100_000, new int[] {100, 10 * 1024},
                new int[] {1, 16, 128}, quick ? 200_000 : 1_000_000, systems, spring, serverJar,
                quick ? target : repositoryRoot.resolve("docs").resolve("benchmarks"),
                repositoryRoot.resolve("docs").resolve("benchmarks"), target.resolve("run"));
    }

    String describe() {
        return String.format(java.util.Locale.ROOT,
                "%s run: %d keys per value size, values %s, in flight %s, %s warm-up per row, %d × %s measured per row",
                quick ? "quick" : "full", keys, java.util.Arrays.toString(valueSizes), java.util.Arrays.toString(inFlight),
                warmup, iterations, measure);
    }
}
