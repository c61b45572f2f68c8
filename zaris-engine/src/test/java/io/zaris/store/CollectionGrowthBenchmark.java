package io.zaris.store;

import io.zaris.model.HashOp;
import io.zaris.time.FakeTime;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * What growing one hash (HSET of a new field) and one set (SADD of a new member) to {@code size} elements costs through
 * the store, as a client's writes reach it ({@link NodeStore#hash}: the segment's lock, the element's table, the op
 * log): the worst single write (a write that grows the table at once stalls every request of the segment that long)
 * and the thread CPU per write. Fields and members are {@code field:<9 digits>}, prepared before the clock starts;
 * each round grows them in a new store, so later rounds run compiled code.
 *
 * <p>Thread CPU time, not wall time, judges the worst write, so a preempted thread on a busy machine does not pass for
 * a slow write; cache misses still vary with load, so compare runs at a similar load.
 *
 * <p>Usage: {@code CollectionGrowthBenchmark [size] [rounds]} (defaults 200,000 and 5); prints per round and type the
 * nanoseconds of CPU per write, the worst write's CPU and wall time and at which element; then the heap a hash and a
 * set of {@code size} elements hold per element beside what they are charged.
 */
public final class CollectionGrowthBenchmark {

    private CollectionGrowthBenchmark() {
    }

    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        byte[][] elements = new byte[size][];
        for (int i = 0; i < size; i++) {
            elements[i] = String.format(Locale.ROOT, "field:%09d", i).getBytes(StandardCharsets.US_ASCII);
        }
        byte[] value = "value-of-sixteen".getBytes(StandardCharsets.US_ASCII);
        byte[] hashKey = "hash".getBytes(StandardCharsets.US_ASCII);
        byte[] setKey = "set".getBytes(StandardCharsets.US_ASCII);
        for (int round = 1; round <= rounds; round++) {
            System.out.printf(Locale.ROOT, "round %d HSET: %s%n", round, measure(size,
                    (store, i) -> store.hash(0, hashKey, HashOp.HSET, List.of(elements[i], value), 1)));
            System.out.printf(Locale.ROOT, "round %d SADD: %s%n", round, measure(size,
                    (store, i) -> store.hash(0, setKey, HashOp.SADD, List.of(elements[i]), 1)));
        }
        reportHeld(elements, value);
    }

    /**
     * The heap a hash and a set of every element hold beyond the elements' own arrays (made before, shared by both,
     * the hash's fields all sharing one value), measured as the used heap after collections, with the bytes charged
     * per element beyond them beside it (the overhead figure less the headers of arrays the measure does not see).
     */
    private static void reportHeld(byte[][] elements, byte[] value) {
        long before = usedHeapAfterCollection();
        HashEntry hash = new HashEntry(1, 0, 0);
        for (byte[] element : elements) {
            hash.put(new ByteKey(element), value);
        }
        long hashHeld = usedHeapAfterCollection() - before;
        SetEntry set = new SetEntry(1, 0, 0);
        for (byte[] element : elements) {
            set.add(new ByteKey(element));
        }
        long setHeld = usedHeapAfterCollection() - before - hashHeld;
        byte[] key = {'k'};
        long hashCharged = hash.sizeBytes(new ByteKey(key)) - EntrySize.OVERHEAD_BYTES - key.length;
        long setCharged = set.sizeBytes(new ByteKey(key)) - EntrySize.OVERHEAD_BYTES - key.length;
        long elementBytes = 0;
        for (byte[] element : elements) {
            elementBytes += element.length;
        }
        int n = elements.length;
        System.out.printf(Locale.ROOT, "held beyond the elements' arrays: hash %.1f bytes per field, set %.1f per member; "
                        + "charged beyond the element bytes and two (set: one) array headers of 20: hash %.1f, set %.1f%n",
                hashHeld / (double) n, setHeld / (double) n,
                (hashCharged - elementBytes - (long) n * value.length) / (double) n - 40,
                (setCharged - elementBytes) / (double) n - 20);
    }

    private static long usedHeapAfterCollection() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** One write of element {@code i} to {@code store}; answers the store's reply. */
    @FunctionalInterface
    private interface Write {
        HashReply of(NodeStore store, int i);
    }

    /**
     * Grows the key twice, each time in a new store: once under the thread's CPU clock alone, once reading the clocks
     * around every write (leaving out the writes during which a garbage collection ran: those measure the collector,
     * not the table). The worst write is judged by its CPU time, which the machine's other work barely moves; its wall
     * time is printed beside it.
     */
    private static String measure(int size, Write write) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        NodeStore store = newStore();
        long added = 0;
        long cpuBefore = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < size; i++) {
            added += write.of(store, i).count();
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
        store = newStore();
        long worstCpu = 0;
        long worstWall = 0;
        int worstAt = 0;
        int skipped = 0;
        for (int i = 0; i < size; i++) {
            long collections = collections();
            long startCpu = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            write.of(store, i);
            long wall = System.nanoTime() - start;
            long took = threads.getCurrentThreadCpuTime() - startCpu;
            if (collections() != collections) {
                skipped++;
            } else if (took > worstCpu) {
                worstCpu = took;
                worstWall = wall;
                worstAt = i + 1;
            }
        }
        return String.format(Locale.ROOT, "%.0f ns of CPU per write (%d added); worst write %.3f ms of CPU (%.3f ms wall)"
                + " at element %d (%d writes during a collection left out)", cpu / (double) size, added, worstCpu / 1e6,
                worstWall / 1e6, worstAt, skipped);
    }

    private static NodeStore newStore() {
        return new NodeStore(1, FakeTime.followingMillis(() -> 1_000_000));
    }

    private static long collections() {
        long count = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += collector.getCollectionCount();
        }
        return count;
    }
}
