package io.zaris.client;

import io.zaris.model.NodeAddress;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.ZarisTransportException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * A fixed number of {@link NodeConnection}s to one node, with every segment bound to one of them:
 * {@code connections[segment % size]}. Spreading a node's traffic over several connections lets the node
 * (whose server hands each accepted connection to one of its event loops, round-robin) and this side work on
 * several threads; binding by segment keeps every request of one segment on one connection, so requests of a
 * segment that a caller issues in order reach the node in that order, as with a single connection.
 *
 * <p>The group is opened and closed as a whole: it {@link #isOpen() is open} only while every member is, and a
 * lost member makes the owner reopen the whole group (a lost connection is rare; partial groups would make
 * the segment binding depend on which member died).
 *
 * <p>Immutable and thread-safe; the members are thread-safe themselves.
 *
 * <p>Public for the engine's own node-to-node links (replication); applications use {@link ZarisClient}.
 */
final class StripedNodeConnections implements AutoCloseable {

    private final NodeConnection[] connections;

    private StripedNodeConnections(NodeConnection[] connections) {
        this.connections = connections;
    }

    /**
     * Opens {@code count} connections with {@code opener} and completes once all are open and answered as the
     * same node. If any fails, the others are closed and the group fails with that failure.
     */
    public static CompletableFuture<StripedNodeConnections> open(int count, Supplier<CompletableFuture<NodeConnection>> opener) {
        if (count < 1) {
            throw new IllegalArgumentException("a node needs at least 1 connection but was given " + count);
        }
        List<CompletableFuture<NodeConnection>> opening = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            opening.add(opener.get());
        }
        return CompletableFuture.allOf(opening.toArray(CompletableFuture[]::new)).handle((ignored, error) -> {
            NodeConnection[] opened = new NodeConnection[count];
            for (int i = 0; i < count; i++) {
                CompletableFuture<NodeConnection> member = opening.get(i);
                opened[i] = member.isCompletedExceptionally() ? null : member.join();
            }
            if (error == null && sameNode(opened)) {
                return new StripedNodeConnections(opened);
            }
            Arrays.stream(opened).filter(Objects::nonNull).forEach(NodeConnection::close);
            if (error != null) {
                throw error instanceof CompletionException completion ? completion : new CompletionException(error);
            }
            throw new ZarisTransportException("connections to " + opened[0].address() + " answered as different nodes ("
                    + opened[0].nodeId() + ", ...); not using them", false);
        });
    }

    private static boolean sameNode(NodeConnection[] opened) {
        for (NodeConnection connection : opened) {
            if (!connection.nodeId().equals(opened[0].nodeId())) {
                return false;
            }
        }
        return true;
    }

    /** The connection every request of {@code segment} to this node goes on. */
    public NodeConnection forSegment(int segment) {
        return connections[segment % connections.length];
    }

    /** The first connection: for requests not bound to a segment (maps, scans, probes). */
    public NodeConnection first() {
        return connections[0];
    }

    public int size() {
        return connections.length;
    }

    public String nodeId() {
        return connections[0].nodeId();
    }

    public NodeAddress address() {
        return connections[0].address();
    }

    /** Whether every member is open: a group missing one is reopened as a whole. */
    public boolean isOpen() {
        for (NodeConnection connection : connections) {
            if (!connection.isOpen()) {
                return false;
            }
        }
        return true;
    }

    /** Requests in flight over all members. */
    public int inFlight() {
        int total = 0;
        for (NodeConnection connection : connections) {
            total += connection.inFlight();
        }
        return total;
    }

    @Override
    public void close() {
        for (NodeConnection connection : connections) {
            connection.close();
        }
    }

    @Override
    public String toString() {
        return "StripedNodeConnections[" + connections.length + " × " + connections[0] + "]";
    }
}
