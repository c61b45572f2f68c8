package io.zaris.bench.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * How much of a server process's CPU time its JVM spent on itself: compiling (the C1 and C2 compiler threads)
 * and collecting (the collector's worker threads and the VM thread that runs its pauses). Read per thread from
 * Linux's {@code /proc/<pid>/task/<tid>/stat}; elsewhere, and for threads that already ended, nothing is counted.
 * A process that is no JVM (Redis) simply has neither kind of thread.
 */
final class ThreadCpu {

    /** Linux reports thread CPU time in clock ticks of this length (USER_HZ, 100 on every mainstream kernel). */
    static final long NANOS_PER_TICK = 10_000_000L;

    private ThreadCpu() {
    }

    enum Kind { COMPILER, COLLECTOR, OTHER }

    /** CPU time in clock ticks spent by compiler and collector threads. */
    record Housekeeping(long compilerTicks, long collectorTicks) {
        static final Housekeeping NONE = new Housekeeping(0, 0);

        Duration compiling() {
            return Duration.ofNanos(compilerTicks * NANOS_PER_TICK);
        }

        Duration collecting() {
            return Duration.ofNanos(collectorTicks * NANOS_PER_TICK);
        }

        Housekeeping plus(Housekeeping other) {
            return new Housekeeping(compilerTicks + other.compilerTicks, collectorTicks + other.collectorTicks);
        }

        /**
         * What was spent since {@code earlier}. A thread that ended in between takes its ticks with it (HotSpot
         * stops idle compiler threads), so a negative difference counts as none.
         */
        Housekeeping since(Housekeeping earlier) {
            return new Housekeeping(Math.max(0, compilerTicks - earlier.compilerTicks),
                    Math.max(0, collectorTicks - earlier.collectorTicks));
        }
    }

    /** One thread's name and CPU time (user + system ticks) from its {@code stat} line. */
    record ThreadStat(String name, long ticks) {
    }

    /**
     * Parses a {@code stat} line: {@code tid (name) state ppid ...}, where the name may itself hold spaces and
     * parentheses, so it ends at the last {@code ')'}; user and system time are the 14th and 15th fields.
     */
    static ThreadStat parse(String statLine) {
        int open = statLine.indexOf('(');
        int close = statLine.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a stat line: " + statLine);
        }
        String[] after = statLine.substring(close + 1).trim().split(" +");
        // after[0] is the 3rd field (state), so the 14th and 15th fields are after[11] and after[12]
        if (after.length < 13) {
            throw new IllegalArgumentException("stat line too short: " + statLine);
        }
        return new ThreadStat(statLine.substring(open + 1, close), Long.parseLong(after[11]) + Long.parseLong(after[12]));
    }

    /**
     * Compiling takes more than this share of the CPU the JVMs spent: they have not settled yet (a compiled JVM
     * under load spends 1-3 % of its CPU in its compiler threads, one still compiling its hot paths a third).
     */
    static final double SETTLED_COMPILER_SHARE = 0.05;

    /** Whether JVMs that spent {@code totalNanos} of CPU, {@code compilerNanos} of it compiling, are still warming up. */
    static boolean stillCompiling(long compilerNanos, long totalNanos) {
        return totalNanos > 0 && compilerNanos > SETTLED_COMPILER_SHARE * totalNanos;
    }

    /** HotSpot's thread names, as the kernel keeps them (cut to 15 characters). */
    static Kind kindOf(String threadName) {
        if (threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")) {
            return Kind.COMPILER;
        }
        if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ") || threadName.equals("VM Thread")) {
            return Kind.COLLECTOR;
        }
        return Kind.OTHER;
    }

    static Housekeeping sum(List<ThreadStat> threads) {
        long compiler = 0;
        long collector = 0;
        for (ThreadStat thread : threads) {
            Kind kind = kindOf(thread.name());
            if (kind == Kind.COMPILER) {
                compiler += thread.ticks();
            } else if (kind == Kind.COLLECTOR) {
                collector += thread.ticks();
            }
        }
        return new Housekeeping(compiler, collector);
    }

    /** The live threads' housekeeping of one process; {@link Housekeeping#NONE} without {@code /proc}. */
    static Housekeeping of(ProcessHandle process) {
        return sum(threadsOf(process));
    }

    /** The process's live threads; none without {@code /proc} or once the process ended. */
    static List<ThreadStat> threadsOf(ProcessHandle process) {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        if (!Files.isDirectory(tasks)) {
            return List.of();
        }
        try (Stream<Path> threads = Files.list(tasks)) {
            return threads.map(ThreadCpu::readQuietly).filter(stat -> stat != null).toList();
        } catch (IOException | RuntimeException e) {
            return List.of(); // the process ended while being read
        }
    }

    /** {@code null} for a thread that ended between listing and reading. */
    private static ThreadStat readQuietly(Path task) {
        try {
            return parse(Files.readString(task.resolve("stat")));
        } catch (IOException e) {
            return null;
        }
    }
}
