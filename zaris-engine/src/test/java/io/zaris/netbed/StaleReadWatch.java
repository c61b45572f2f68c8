package io.zaris.netbed;

import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.VersionedValue;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.security.Credentials;
import io.zaris.transport.NodeConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reads the keys a {@link KeyWriters} writes straight from every node, over a connection of its own to each, as a
 * client holding an old map would, and counts stale reads: an answer {@code OK} whose value is older than the last
 * put of that key acknowledged before the read was sent.
 *
 * <p>A node answers a read {@code OK} only while it believes it serves the key's partition (the active owner of its
 * view, owner lease held); otherwise it answers {@code MOVED} or {@code UNAVAILABLE}. Puts go to whichever node the
 * client's map names, so a stale answer here means a node still served a partition after another node had taken it
 * over and acknowledged a newer write: two nodes serving one partition. A cut node that cannot be reached is simply
 * not read; a host-side client could not read it either.
 *
 * <p>Threads: one scheduler thread starts a round every {@value #ROUND_MILLIS} ms; answers complete on the client's
 * event loops and only touch atomics. A node gets the next round only once every read of its previous round was
 * answered or timed out ({@code busy}), so a node that stopped answering never piles up reads.
 */
final class StaleReadWatch implements AutoCloseable {

    /** Pause between rounds: each round reads every key once from every node. */
    private static final long ROUND_MILLIS = 500;
    /** Connect, handshake and answer timeout of one read: a node that takes longer is counted unanswered. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(1);

    private final KeyWriters writers;
    private final List<String> keys;
    private final Credentials credentials;
    private final List<NodeReader> nodes = new ArrayList<>();
    private final ScheduledExecutorService rounds = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "netbed-stale-read-watch");
        thread.setDaemon(true);
        return thread;
    });
    private final LongAdder staleReads = new LongAdder();
    private final AtomicReference<String> firstStaleRead = new AtomicReference<>();

    StaleReadWatch(KeyWriters writers, List<String> keys, Map<String, NodeAddress> nodeAddresses, Credentials credentials) {
        this.writers = writers;
        this.keys = List.copyOf(keys);
        this.credentials = credentials;
        nodeAddresses.forEach((node, address) -> nodes.add(new NodeReader(node, address)));
    }

    void start() {
        rounds.scheduleWithFixedDelay(() -> nodes.forEach(NodeReader::round), 0, ROUND_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Reads answered with a value older than one acknowledged before they were sent. */
    long staleReads() {
        return staleReads.sum();
    }

    /** What the first stale read was (node, key, sequences), or {@code "none"}. */
    String firstStaleRead() {
        String first = firstStaleRead.get();
        return first == null ? "none" : first;
    }

    /** Reads each node answered with a value (it served the key's partition), by node. */
    Map<String, Long> servedReads() {
        Map<String, Long> served = new TreeMap<>();
        nodes.forEach(node -> served.put(node.node, node.served.sum()));
        return served;
    }

    @Override
    public void close() {
        rounds.shutdownNow();
        nodes.forEach(NodeReader::close);
    }

    /** The reads of one node. Fields other than the atomics are touched only on the scheduler thread. */
    private final class NodeReader {

        private final String node;
        private final NodeAddress address;
        private final AtomicBoolean busy = new AtomicBoolean();
        private final LongAdder served = new LongAdder();
        private CompletableFuture<NodeConnection> connection;

        NodeReader(String node, NodeAddress address) {
            this.node = node;
            this.address = address;
        }

        void round() {
            if (!busy.compareAndSet(false, true)) {
                return;
            }
            if (connection == null || connection.isCompletedExceptionally()
                    || (connection.isDone() && !connection.join().isOpen())) {
                connection = NodeConnection.open(address, "netbed-stale-read-watch", credentials, READ_TIMEOUT, READ_TIMEOUT,
                        keys.size(), ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, event -> { }, lost -> { });
                connection.whenComplete((opened, error) -> busy.set(false));
                return;
            }
            if (!connection.isDone()) {
                busy.set(false);
                return;
            }
            NodeConnection open = connection.join();
            List<CompletableFuture<?>> reads = new ArrayList<>();
            for (String key : keys) {
                reads.add(read(open, key));
            }
            CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).whenComplete((done, error) -> busy.set(false));
        }

        private CompletableFuture<Void> read(NodeConnection open, String key) {
            long ackedBeforeSend = writers.lastAcknowledged(key);
            byte[] name = key.getBytes(StandardCharsets.UTF_8);
            return open.send(id -> new Request.Get(id, name),
                    (status, body) -> status == KvStatus.OK ? ResponseCodec.readValue(body) : null,
                    0, 0, System.nanoTime() + READ_TIMEOUT.toNanos()).handle((value, error) -> {
                        if (value != null) {
                            served.increment();
                            long sequence = sequenceOf(value);
                            if (sequence < ackedBeforeSend) {
                                staleReads.increment();
                                firstStaleRead.compareAndSet(null, node + " answered " + key + "@" + sequence
                                        + " after " + key + "@" + ackedBeforeSend + " was acknowledged");
                            }
                        }
                        return null;
                    });
        }

        void close() {
            if (connection != null) {
                connection.thenAccept(NodeConnection::close);
            }
        }
    }

    private static long sequenceOf(VersionedValue value) {
        String text = new String(value.value(), StandardCharsets.UTF_8);
        return Long.parseLong(text.substring(text.indexOf('@') + 1));
    }
}
