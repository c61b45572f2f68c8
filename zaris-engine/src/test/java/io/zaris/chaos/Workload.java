package io.zaris.chaos;

import io.zaris.model.AckMode;
import io.zaris.model.NodeAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * The operations of a chaos run, each thread with its own {@link ChaosClient} (separate client instances in
 * this JVM, not separate processes), every call recorded in the history:
 * <ul>
 *   <li>writers: unique-value PUTs ({@code w<writer>:<sequence>}) and, under SYNC, some DELETEs, each to one of
 *       the {@value #KEYS_PER_WRITER} keys it alone writes;</li>
 *   <li>readers: GETs of keys chosen at random over the whole key space (single-writer keys, CAS keys,
 *       counters), so reads by other clients spread over the run and fall between a loss and the key's next
 *       write;</li>
 *   <li>CAS: read a shared key, then replace the value read, at the version read, by a unique value;</li>
 *   <li>counters: INCREMENT of shared counters by a random delta, so a lost increment cannot pass for an
 *       indeterminate one of the same size;</li>
 *   <li>near-cache readers: clients with a near cache reading single-writer keys at random, so most reads are
 *       answered locally and the checker sees how stale such a read can be ({@link NearReadStaleness}).</li>
 * </ul>
 * Key watches run beside the workload, on clients of their own ({@link ChaosWatchers}).
 * ASYNC runs issue no DELETE: its acknowledgement returns no revision, so a lost DELETE could never be matched
 * to a loss the client named.
 *
 * <p>Threads run until {@link #stop()}; each call is bounded by the client's own deadline, so they stop
 * promptly. Seeded: the choices of keys, deltas and deletes replay; timing does not.
 */
final class Workload {

    static final int WRITERS = 4;
    static final int KEYS_PER_WRITER = 250;
    static final int READERS = 3;
    static final int CAS_THREADS = 2;
    static final int CAS_KEYS = 4;
    static final int COUNTER_THREADS = 2;
    static final int COUNTERS = 4;
    static final int NEAR_READERS = 2;
    /** Increments add 1 to this much. */
    static final int MAX_DELTA = 1_000_000;
    /** One write in this many is a DELETE (SYNC only). */
    private static final int DELETE_ONE_IN = 10;
    /**
     * A reader's pause after each read. Reads over direct sockets cost far less than SYNC writes; unpaced, three
     * readers read 140 times per write and took the cores from the writers. Paced, a key is still read about
     * once a second.
     */
    private static final long READ_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final List<NodeAddress> seeds;
    /** What the clients log in with; {@code null} for nodes that take no password. */
    private final String password;
    private final HistoryRecorder recorder;
    private final AckMode ackMode;
    private final long seed;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final List<ChaosClient> clients = new ArrayList<>();

    Workload(List<NodeAddress> seeds, String password, HistoryRecorder recorder, AckMode ackMode, long seed) {
        this.seeds = seeds;
        this.password = password;
        this.recorder = recorder;
        this.ackMode = ackMode;
        this.seed = seed;
    }

    /** How many clients the workload runs; client ids are {@code 0} to this minus one. */
    static int clientCount() {
        return WRITERS + READERS + CAS_THREADS + COUNTER_THREADS + NEAR_READERS;
    }

    /** Every key the workload may write. */
    static List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            for (int k = 0; k < KEYS_PER_WRITER; k++) {
                keys.add(writerKey(w, k));
            }
        }
        for (int k = 0; k < CAS_KEYS; k++) {
            keys.add(casKey(k));
        }
        for (int k = 0; k < COUNTERS; k++) {
            keys.add(counterKey(k));
        }
        return keys;
    }

    static String writerKey(int writer, int k) {
        return "w" + writer + "-" + k;
    }

    static String casKey(int k) {
        return "cas-" + k;
    }

    static String counterKey(int k) {
        return "ctr-" + k;
    }

    /** Connects every client, then starts every thread; when a client cannot connect, closes the others. */
    void start() {
        try {
            connect();
        } catch (RuntimeException e) {
            clients.forEach(ChaosClient::close);
            throw e;
        }
        threads.forEach(Thread::start);
    }

    private void connect() {
        int id = 0;
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            add("chaos-writer-" + w, id++, client -> () -> writeLoop(client, writer, new Random(seed + writer)));
        }
        for (int r = 0; r < READERS; r++) {
            int index = r;
            add("chaos-reader-" + r, id++, client -> () -> readLoop(client, new Random(seed + 50 + index)));
        }
        for (int c = 0; c < CAS_THREADS; c++) {
            int index = c;
            add("chaos-cas-" + c, id++, client -> () -> casLoop(client, new Random(seed + 100 + index)));
        }
        for (int c = 0; c < COUNTER_THREADS; c++) {
            int index = c;
            add("chaos-counter-" + c, id++, client -> () -> counterLoop(client, new Random(seed + 200 + index)));
        }
        for (int r = 0; r < NEAR_READERS; r++) {
            int index = r;
            ChaosClient client = ChaosClient.connectWithNearCache(id++, seeds, password, recorder);
            add("chaos-near-reader-" + r, client, () -> nearReadLoop(client, new Random(seed + 300 + index)));
        }
    }

    /** Stops every thread after its current call, then closes the clients. */
    void stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(120_000);
        }
        clients.forEach(ChaosClient::close);
    }

    private void add(String name, int id, Function<ChaosClient, Runnable> body) {
        ChaosClient client = ChaosClient.connect(id, seeds, password, recorder);
        add(name, client, body.apply(client));
    }

    private void add(String name, ChaosClient client, Runnable body) {
        clients.add(client);
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        threads.add(thread);
    }

    private void writeLoop(ChaosClient client, int writer, Random random) {
        long sequence = 0;
        while (running.get()) {
            String key = writerKey(writer, random.nextInt(KEYS_PER_WRITER));
            if (ackMode == AckMode.SYNC && random.nextInt(DELETE_ONE_IN) == 0) {
                client.delete(key);
            } else {
                client.put(key, "w" + writer + ":" + sequence++);
            }
        }
    }

    private void readLoop(ChaosClient client, Random random) {
        while (running.get()) {
            int pick = random.nextInt(10);
            String key = pick == 0 ? casKey(random.nextInt(CAS_KEYS))
                    : pick == 1 ? counterKey(random.nextInt(COUNTERS))
                    : writerKey(random.nextInt(WRITERS), random.nextInt(KEYS_PER_WRITER));
            client.read(key, false);
            LockSupport.parkNanos(READ_PAUSE_NANOS); // pacing the load, not a synchronisation
        }
    }

    /**
     * Single-writer keys only: the near cache keeps what it read, and a key is rewritten every few seconds, so most
     * reads are answered locally, some just after the key changed.
     */
    private void nearReadLoop(ChaosClient client, Random random) {
        while (running.get()) {
            client.read(writerKey(random.nextInt(WRITERS), random.nextInt(KEYS_PER_WRITER)), false);
            LockSupport.parkNanos(READ_PAUSE_NANOS); // pacing the load, not a synchronisation
        }
    }

    /** Read, then replace what was read at the version read; a read that was not answered is tried again. */
    private void casLoop(ChaosClient client, Random random) {
        long sequence = 0;
        while (running.get()) {
            String key = casKey(random.nextInt(CAS_KEYS));
            ChaosClient.VersionedRead current = client.read(key, false);
            if (current != null) {
                client.compareAndSet(key, current.value(), current.version(), "c" + client.id() + ":" + sequence++);
            }
        }
    }

    private void counterLoop(ChaosClient client, Random random) {
        while (running.get()) {
            client.increment(counterKey(random.nextInt(COUNTERS)), 1 + random.nextInt(MAX_DELTA));
        }
    }
}
