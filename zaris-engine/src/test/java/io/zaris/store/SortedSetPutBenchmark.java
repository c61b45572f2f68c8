package io.zaris.store;

import io.zaris.model.SortedSetScores;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;

/**
 * CPU time this thread spends per ZADD's store step on a large sorted set ({@link SortedSetEntry#put}: the member's
 * score in the fields and its place in the order), as redis-benchmark's ZADD row drives it: random 12-digit scores
 * and members {@code element:<12 digits>} over {@code range} (its {@code -r}), from a fixed seed, so the set grows to
 * about {@code range} members and then mostly moves members to new scores. Thread CPU time, not wall time, so other
 * work on the machine moves it less; still only a comparison within one run, or of runs at a similar load.
 *
 * <p>Usage: {@code SortedSetPutBenchmark [puts per round] [rounds] [range]} (defaults 1,000,000, 5 and 100,000);
 * prints nanoseconds of CPU per put in each round and the set's size.
 */
public final class SortedSetPutBenchmark {

    private SortedSetPutBenchmark() {
    }

    public static void main(String[] args) {
        int puts = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int range = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
        Random random = new Random(1);
        int prepared = 1 << 20;
        ByteKey[] members = new ByteKey[prepared];
        byte[][] scores = new byte[prepared][];
        for (int i = 0; i < prepared; i++) {
            members[i] = new ByteKey(String.format(Locale.ROOT, "element:%012d", random.nextInt(range))
                    .getBytes(StandardCharsets.US_ASCII));
            scores[i] = SortedSetScores.encode(random.nextInt(range));
        }
        SortedSetEntry set = new SortedSetEntry(1, 0, 0);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long checksum = 0;
        int next = 0;
        for (int round = 0; round < rounds; round++) {
            long before = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < puts; i++) {
                int at = next++ & (prepared - 1);
                checksum += set.put(members[at], scores[at]);
            }
            long after = threads.getCurrentThreadCpuTime();
            System.out.printf(Locale.ROOT, "round %d: %.0f ns of CPU per put, %d members%n", round + 1,
                    (after - before) / (double) puts, set.size());
        }
        System.out.println("(checksum " + checksum + ")");
    }
}
