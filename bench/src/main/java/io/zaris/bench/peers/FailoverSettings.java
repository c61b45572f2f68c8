package io.zaris.bench.peers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a failover run ({@code bench/failover}) does: which systems, how many keys written how often, how long before
 * and after the kill, which node it kills, and where the report goes.
 *
 * @param arguments the command line, as the report quotes it
 * @param interval  the pace of each key's chain of writes: at most one put per interval
 * @param warm      writes before the kill
 * @param recovery  writes after the kill, and how long the run waits for full redundancy
 * @param record    whether the report goes to {@code docs/benchmarks/} (else {@code bench/target/})
 */
record FailoverSettings(String arguments, List<String> systems, int keys, Duration interval, Duration warm, Duration recovery,
                        VictimChoice victim, boolean record, Path serverJar, Path reportDirectory, Path workDirectory,
                        int preload) {

    /** Bytes of each preloaded value: the "1,000,000 keys of 100 B" redundancy figure. */
    static final int PRELOAD_VALUE_BYTES = 100;

    /** Every system the command knows, in the order it runs them by default. */
    static final List<String> SYSTEMS = List.of("zaris-sync", "zaris-async", "redis-replicas", "hazelcast");
    static final int DEFAULT_KEYS = 512;
    /** 512 keys at one put per 100 ms each: about 5,000 puts/s, light enough for 2 cores to leave room for the failover. */
    static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);
    static final Duration DEFAULT_WARM = Duration.ofSeconds(8);
    static final Duration DEFAULT_RECOVERY = Duration.ofSeconds(30);
    /**
     * The heap of every JVM node (Zaris nodes and Hazelcast members alike). A run holds 512 small entries; the fixed,
     * pre-touched 1.5 GB heaps {@code bench/run} gives its nodes made three JVMs take 5-20 s to reach their main
     * method on a busy 2-core machine, and a Zaris cluster's owner leases then expired while it formed.
     */
    static final ZarisServerCluster.Heap NODE_HEAP = new ZarisServerCluster.Heap(List.of("-Xmx512m"), "-Xmx512m");
    /**
     * The heap of every JVM node when keys are preloaded: after the kill each of the two survivors holds every key
     * (about 270 MB for 1,000,000 keys of 100 B in a Zaris node), which must fit in a node's memory budget (40 % of
     * the heap by default) or the survivors evict data while they restore redundancy.
     */
    static final ZarisServerCluster.Heap PRELOAD_NODE_HEAP = new ZarisServerCluster.Heap(List.of("-Xmx1536m"), "-Xmx1536m");

    /** The heap every node of this run gets. */
    ZarisServerCluster.Heap nodeHeap() {
        return preload == 0 ? NODE_HEAP : PRELOAD_NODE_HEAP;
    }

    static final String USAGE = """
            usage: bench/failover [--systems zaris-sync,zaris-async,redis-replicas,hazelcast] [--keys N] [--interval-ms M]
                                  [--warm-seconds S] [--recovery-seconds S] [--kill non-leader|leader|N] [--record]
                                  [--preload N]
              --systems           which systems, in this order (default: all four; redis-replicas is a Redis Cluster of
                                  3 masters with a replica each)
              --keys              keys written, each by its own chain of sequential puts (default 512)
              --interval-ms       each key sends at most one put per this many ms (default 100)
              --warm-seconds      writes before the kill (default 8)
              --recovery-seconds  writes after the kill; also how long full redundancy may take (default 30)
              --kill              the node killed with SIGKILL: non-leader (default: not the Zaris leader, not the
                                  Hazelcast master, the last Redis master), leader (Redis: its first master), or a
                                  node's number from 1 (Zaris nodes and Hazelcast members in start order, Redis
                                  masters in start order)
              --record            write the report to docs/benchmarks/failover-<date>.md instead of bench/target/
              --preload           keys of 100 B written before the load starts (default 0), so that the time back to
                                  full redundancy includes copying them to the replacement replicas""";

    static FailoverSettings parse(String[] args, Path repositoryRoot) {
        Set<String> systems = new LinkedHashSet<>(SYSTEMS);
        int keys = DEFAULT_KEYS;
        Duration interval = DEFAULT_INTERVAL;
        Duration warm = DEFAULT_WARM;
        Duration recovery = DEFAULT_RECOVERY;
        VictimChoice victim = VictimChoice.NON_LEADER;
        boolean record = false;
        int preload = 0;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--systems" -> {
                    systems = new LinkedHashSet<>(Arrays.asList(valueOf(args, ++i, option).split(",")));
                    if (!SYSTEMS.containsAll(systems)) {
                        throw new IllegalArgumentException("unknown system in " + systems + "; known: " + SYSTEMS);
                    }
                }
                case "--keys" -> keys = positive(valueOf(args, ++i, option), option);
                case "--interval-ms" -> interval = Duration.ofMillis(positive(valueOf(args, ++i, option), option));
                case "--warm-seconds" -> warm = Duration.ofSeconds(positive(valueOf(args, ++i, option), option));
                case "--recovery-seconds" -> recovery = Duration.ofSeconds(positive(valueOf(args, ++i, option), option));
                case "--kill" -> victim = VictimChoice.parse(valueOf(args, ++i, option));
                case "--record" -> record = true;
                case "--preload" -> preload = positive(valueOf(args, ++i, option), option);
                default -> throw new IllegalArgumentException("unknown argument " + option);
            }
        }
        Path target = repositoryRoot.resolve("bench").resolve("target");
        return new FailoverSettings(String.join(" ", args), List.copyOf(systems), keys, interval, warm, recovery, victim,
                record, Path.of(System.getProperty("zaris.server.jar", "missing")),
                record ? repositoryRoot.resolve("docs").resolve("benchmarks") : target, target.resolve("failover"), preload);
    }

    /** The steady period the latency threshold comes from: the second half of the warm period. */
    Duration steadyPeriod() {
        return warm.dividedBy(2);
    }

    String describe() {
        return String.format(Locale.ROOT, "%d keys, each a chain of sequential puts of %d B at most every %d ms (up to %,d puts/s);"
                        + " %d s of writes, then SIGKILL of %s, then %d s more, then every key read back",
                keys, SequenceValue.BYTES, interval.toMillis(), keys * 1000L / Math.max(1, interval.toMillis()),
                warm.toSeconds(), victim.describe(), recovery.toSeconds())
                + (preload == 0 ? "" : String.format(Locale.ROOT, "; %,d more keys of %d B loaded first", preload,
                        PRELOAD_VALUE_BYTES));
    }

    private static String valueOf(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static int positive(String text, String option) {
        try {
            int value = Integer.parseInt(text);
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // refused below
        }
        throw new IllegalArgumentException(option + " takes a positive whole number, not " + text);
    }
}
