package io.zaris.chaos;

import io.zaris.model.AckMode;
import io.zaris.model.NodeAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
 *       answered locally and the checker sees how stale such a read can be ({@link NearReadStaleness});</li>
 *   <li>a hash's counter field: the counter threads also HINCRBY it, checked like the counters (under ASYNC too:
 *       {@code hashIncrementVersioned} names each change's revision);</li>
 *   <li>collections (SYNC only): the counter threads also ZINCRBY a sorted-set member's score, checked like the
 *       counters; set adders SADD members they never repeat, two adders to the same
 *       sets, a set taking {@value #MEMBERS_PER_SET} members before the adders move on to the next, and the readers
 *       read the latest sets with SMEMBERS ({@link SetCheck}); one producer RPUSHes unique elements onto
 *       {@value #QUEUES} lists which one consumer LPOPs ({@link QueueCheck}).</li>
 * </ul>
 * Key watches run beside the workload, on clients of their own ({@link ChaosWatchers}).
 * ASYNC runs issue no DELETE and no collection operation but HINCRBY: their acknowledgements return no revision, so
 * a lost one could never be matched to a loss the client named.
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
    static final int HASH_COUNTERS = 4;
    /** The field of each counter hash that HINCRBY increments. */
    static final String HASH_FIELD = "n";
    static final int SCORE_COUNTERS = 4;
    /** The member of each counter sorted set whose score ZINCRBY increments. */
    static final String SCORE_MEMBER = "m";
    static final int SET_ADDERS = 2;
    /** Members a set takes before the adders move on to the next set, which keeps every SMEMBERS answer small. */
    static final int MEMBERS_PER_SET = 64;
    /** Readers read one of the sets this many sets back from the one being filled, or that one. */
    private static final int RECENT_SETS = 4;
    static final int QUEUES = 4;
    /** Clients of the collection threads, which run under SYNC only: the set adders, the producer and the consumer. */
    static final int COLLECTION_CLIENTS = SET_ADDERS + 2;
    /** A push that leaves a list this long makes the producer pause, so a slow consumer leaves lists short. */
    private static final int QUEUE_BOUND = 64;
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
    /**
     * Set adds handed out so far, by both adders: add {@code n} goes to set {@code n / MEMBERS_PER_SET}. Written by
     * the adders, read by the readers and, once the threads stopped, by the final reads.
     */
    private final AtomicLong setSlots = new AtomicLong();

    Workload(List<NodeAddress> seeds, String password, HistoryRecorder recorder, AckMode ackMode, long seed) {
        this.seeds = seeds;
        this.password = password;
        this.recorder = recorder;
        this.ackMode = ackMode;
        this.seed = seed;
    }

    /** How many clients the workload runs; client ids are {@code 0} to this minus one. */
    static int clientCount() {
        return WRITERS + READERS + CAS_THREADS + COUNTER_THREADS + NEAR_READERS + COLLECTION_CLIENTS;
    }

    /** Whether the run issues collection operations other than HINCRBY: under SYNC only (see the class comment). */
    boolean collections() {
        return ackMode == AckMode.SYNC;
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

    static String hashCounterKey(int k) {
        return "hctr-" + k;
    }

    static String scoreCounterKey(int k) {
        return "zctr-" + k;
    }

    static String setKey(long k) {
        return "set-" + k;
    }

    static String queueKey(int k) {
        return "queue-" + k;
    }

    /**
     * Reads back every collection key the workload may have written, with {@code reader}, each tried until answered
     * or {@link FinalReads#TRIES} times. Call after {@link #stop()}.
     */
    void readCollectionsBack(ChaosClient reader) throws InterruptedException {
        for (int k = 0; k < HASH_COUNTERS; k++) {
            String key = hashCounterKey(k);
            FinalReads.untilAnswered(() -> reader.readHashCounter(key, true));
        }
        if (!collections()) {
            return;
        }
        for (int k = 0; k < SCORE_COUNTERS; k++) {
            String key = scoreCounterKey(k);
            FinalReads.untilAnswered(() -> reader.readScore(key, true));
        }
        long sets = (setSlots.get() + MEMBERS_PER_SET - 1) / MEMBERS_PER_SET;
        for (long k = 0; k < sets; k++) {
            String key = setKey(k);
            FinalReads.untilAnswered(() -> reader.readSet(key, true));
        }
        for (int k = 0; k < QUEUES; k++) {
            String key = queueKey(k);
            FinalReads.untilAnswered(() -> reader.readList(key));
        }
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
        if (!collections()) {
            return;
        }
        for (int a = 0; a < SET_ADDERS; a++) {
            add("chaos-set-adder-" + a, id++, client -> () -> setAddLoop(client));
        }
        add("chaos-queue-producer", id++, client -> () -> produceLoop(client, new Random(seed + 400)));
        add("chaos-queue-consumer", id++, client -> () -> consumeLoop(client, new Random(seed + 500)));
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
            int pick = random.nextInt(collections() ? 13 : 11);
            if (pick == 10) {
                client.readHashCounter(hashCounterKey(random.nextInt(HASH_COUNTERS)), false);
            } else if (pick == 11) {
                client.readScore(scoreCounterKey(random.nextInt(SCORE_COUNTERS)), false);
            } else if (pick == 12) {
                long filling = setSlots.get() / MEMBERS_PER_SET;
                client.readSet(setKey(Math.max(0, filling - random.nextInt(RECENT_SETS + 1))), false);
            } else {
                String key = pick == 0 ? casKey(random.nextInt(CAS_KEYS))
                        : pick == 1 ? counterKey(random.nextInt(COUNTERS))
                        : writerKey(random.nextInt(WRITERS), random.nextInt(KEYS_PER_WRITER));
                client.read(key, false);
            }
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
            int pick = random.nextInt(collections() ? 3 : 2);
            long delta = 1 + random.nextInt(MAX_DELTA);
            if (pick == 0) {
                client.increment(counterKey(random.nextInt(COUNTERS)), delta);
            } else if (pick == 1) {
                client.hashIncrement(hashCounterKey(random.nextInt(HASH_COUNTERS)), delta);
            } else {
                client.scoreIncrement(scoreCounterKey(random.nextInt(SCORE_COUNTERS)), delta);
            }
        }
    }

    /** SADD of members this adder never repeats, into the set the shared slot counter names. */
    private void setAddLoop(ChaosClient client) {
        long sequence = 0;
        while (running.get()) {
            client.setAdd(setKey(setSlots.getAndIncrement() / MEMBERS_PER_SET), "s" + client.id() + ":" + sequence++);
        }
    }

    /** The only producer of every queue: RPUSH of unique elements, one call at a time, so each list's order is known. */
    private void produceLoop(ChaosClient client, Random random) {
        long sequence = 0;
        while (running.get()) {
            if (client.push(queueKey(random.nextInt(QUEUES)), "q" + client.id() + ":" + sequence++) >= QUEUE_BOUND) {
                LockSupport.parkNanos(READ_PAUSE_NANOS); // pacing the producer, not a synchronisation
            }
        }
    }

    /** The only consumer of every queue: LPOP of one element, one call at a time. */
    private void consumeLoop(ChaosClient client, Random random) {
        while (running.get()) {
            if (!client.pop(queueKey(random.nextInt(QUEUES)))) {
                LockSupport.parkNanos(READ_PAUSE_NANOS); // an empty or failed pop: pacing, not a synchronisation
            }
        }
    }
}
