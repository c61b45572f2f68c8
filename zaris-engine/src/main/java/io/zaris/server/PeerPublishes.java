package io.zaris.server;

import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.PeerConnectionName;
import io.zaris.protocol.ProtocolVersions;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.security.Credentials;
import io.zaris.security.TlsOptions;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relays a RESP {@code PUBLISH} made on this node to every other node of the view, over one data-port connection per
 * peer kept for this purpose alone (not the replication links, not the membership channel), so Redis Cluster's
 * "a message published on any node reaches subscribers on every node" holds across Zaris nodes.
 *
 * <p><b>At most once, never waiting.</b> A relay is one {@link Request.Publish} handed to the peer's connection; it is
 * dropped (and counted) when {@link #MAX_WAITING_FOR_CONNECTION} relays already wait for that connection to open, when
 * it has {@link #MAX_IN_FLIGHT} relays unanswered, or when it fails. A peer that is down or cut off misses the messages published meanwhile; nothing is retried or buffered.
 * A peer whose connection could not be opened is not tried again for {@link #RECONNECT_PAUSE}, so publishing while a
 * node is down costs no connection attempt per message.
 *
 * <p><b>Threads.</b> {@link #publish} runs on publishers' event loops; the connections map is concurrent and each
 * entry is replaced with a compare-and-set style {@code compute}, so two publishers never open two connections to one
 * peer. Connection futures complete on their own event loops.
 */
final class PeerPublishes implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PeerPublishes.class);
    /** Relays to one peer that may wait for its answer; more are dropped. */
    static final int MAX_IN_FLIGHT = 10_000;
    /** Bound on connecting and on each answer. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** How long a peer whose connection failed is left alone before the next publish tries again. */
    static final Duration RECONNECT_PAUSE = Duration.ofSeconds(1);

    /** Relays to one peer that may wait for its connection to open; more are dropped. */
    static final int MAX_WAITING_FOR_CONNECTION = 1_000;

    /**
     * One peer's connection: being opened, open, or failed (tried at {@code openedAtNanos}). Relays made while it opens
     * wait in {@code waiting}, in publish order, and are sent by the one completion of the connection before any later
     * relay: so one publisher's messages reach the peer in the order they were published. {@code waiting} and
     * {@code ready} are guarded by the link's monitor.
     */
    private static final class Link {
        final CompletableFuture<NodeConnection> connection;
        final NodeAddress address;
        final long openedAtNanos;
        final ArrayDeque<byte[][]> waiting = new ArrayDeque<>();
        boolean ready;

        Link(CompletableFuture<NodeConnection> connection, NodeAddress address, long openedAtNanos) {
            this.connection = connection;
            this.address = address;
            this.openedAtNanos = openedAtNanos;
        }
    }

    private final String nodeId;
    private final Supplier<ClusterView> view;
    private final Credentials credentials;
    private final TlsOptions tls;
    private final TimeSource time;
    private final Map<String, Link> links = new ConcurrentHashMap<>();
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closed;

    PeerPublishes(String nodeId, Supplier<ClusterView> view, Credentials credentials, TlsOptions tls, TimeSource time) {
        this.nodeId = nodeId;
        this.view = view;
        this.credentials = credentials;
        this.tls = tls;
        this.time = time;
    }

    /** Any thread: relays {@code message} on {@code channel} to every other node of the current view. Never blocks. */
    void publish(byte[] channel, byte[] message) {
        ClusterView current = view.get();
        if (current == null || closed) {
            return;
        }
        Map<String, NodeAddress> addresses = current.addresses();
        for (Map.Entry<String, NodeAddress> peer : addresses.entrySet()) {
            if (!peer.getKey().equals(nodeId)) {
                relay(peer.getKey(), peer.getValue(), channel, message);
            }
        }
        if (links.size() >= addresses.size()) {
            forgetDeparted(addresses);
        }
    }

    /** Closes the links of nodes the view no longer names, so the map holds at most one link per present peer. */
    private void forgetDeparted(Map<String, NodeAddress> addresses) {
        links.entrySet().removeIf(entry -> {
            if (addresses.containsKey(entry.getKey())) {
                return false;
            }
            entry.getValue().connection.thenAccept(NodeConnection::close);
            return true;
        });
    }

    private void relay(String peer, NodeAddress address, byte[] channel, byte[] message) {
        Link link = links.compute(peer, (id, current) -> usable(current, address) ? current : open(peer, address));
        synchronized (link) {
            if (!link.ready) {
                if (link.waiting.size() < MAX_WAITING_FOR_CONNECTION && !link.connection.isCompletedExceptionally()) {
                    link.waiting.add(new byte[][] {channel, message});
                } else {
                    dropped.incrementAndGet();
                }
                return;
            }
        }
        NodeConnection connection = link.connection.getNow(null);
        if (connection == null) {
            dropped.incrementAndGet(); // the connection failed: ready is set only after a successful open
            return;
        }
        send(connection, peer, channel, message);
    }

    /** The connection's completion: sends what waited for it, in order, then lets relays go straight to it. */
    private void opened(Link link, String peer, NodeConnection connection, Throwable error) {
        synchronized (link) {
            if (connection != null) {
                for (byte[][] relay : link.waiting) {
                    send(connection, peer, relay[0], relay[1]);
                }
            } else {
                dropped.addAndGet(link.waiting.size());
                log.debug("node {}: cannot reach {} to relay published messages: {}", nodeId, peer, error.toString());
            }
            link.waiting.clear();
            link.ready = connection != null;
        }
    }

    private void send(NodeConnection connection, String peer, byte[] channel, byte[] message) {
        if (!ProtocolVersions.knows(connection.protocolVersion(), OpCode.PUBLISH)) {
            dropped.incrementAndGet(); // a peer of an older release (mid-upgrade) has no pub/sub to deliver to
            return;
        }
        connection.send(id -> new Request.Publish(id, channel, message), (status, body) -> status, 0, 0,
                        time.nanoTime() + TIMEOUT.toNanos())
                .whenComplete((status, error) -> {
                    if (error != null || status != KvStatus.OK) {
                        dropped.incrementAndGet();
                        log.debug("node {}: a message relayed to {} was lost: {}", nodeId, peer,
                                error != null ? error.toString() : status);
                    }
                });
    }

    /** Keep {@code link}: it is open or opening to {@code address}, or failed too recently to try again. */
    private boolean usable(Link link, NodeAddress address) {
        if (link == null || !link.address.equals(address)) {
            return false;
        }
        CompletableFuture<NodeConnection> connection = link.connection;
        if (!connection.isDone()) {
            return true;
        }
        if (connection.isCompletedExceptionally()) {
            return time.nanoTime() - link.openedAtNanos < RECONNECT_PAUSE.toNanos();
        }
        return connection.join().isOpen();
    }

    private Link open(String peer, NodeAddress address) {
        CompletableFuture<NodeConnection> connection = NodeConnection.open(address,
                PeerConnectionName.of("publish", nodeId), credentials, tls, TIMEOUT, TIMEOUT, MAX_IN_FLIGHT,
                ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, event -> { }, lost -> { }, time);
        // The pause after a failure runs from when the attempt started: at least the connect timeout has passed by then.
        Link link = new Link(connection, address, time.nanoTime());
        connection.whenComplete((opened, error) -> opened(link, peer, opened, error));
        return link;
    }

    /** Relays dropped so far (the peer's connection was not ready, was full, or failed). */
    long dropped() {
        return dropped.get();
    }

    @Override
    public void close() {
        closed = true;
        for (Link link : links.values()) {
            link.connection.thenAccept(NodeConnection::close);
        }
        links.clear();
    }
}
