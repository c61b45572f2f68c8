package io.zaris.client;

import io.zaris.model.NodeAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connections the client is opening for installed maps, and the nodes that lately did not answer. A map install
 * opens at most one connection to an address at a time, and waits ({@link TopologyKeeper#INSTALL_CONNECT_WAIT}) only
 * for a node not known to be silent; the others join the table when they open. Without this, every refresh while a
 * node hung opened one more connection to it and held the maps thread for the whole wait, and every retry that asked
 * for a refresh waited behind it, a second or more at a time, after the cluster had already moved the hung node's
 * partitions.
 *
 * <p>Threads: the maps thread starts openings; they end, and connections are lost, on I/O threads. Both structures
 * are concurrent and every update is a single call on one of them. Bounded: an opening is forgotten when it ends (the
 * connect timeout ends it), and the silent nodes are kept only while the map names them.
 */
final class ConnectionOpenings {

    private final Map<NodeAddress, CompletableFuture<StripedNodeConnections>> opening = new ConcurrentHashMap<>();
    private final Set<String> silent = ConcurrentHashMap.newKeySet();

    /** Whether a connection to {@code address} is being opened now: another must not be opened beside it. */
    boolean inProgress(NodeAddress address) {
        return opening.containsKey(address);
    }

    /** Remembers {@code connecting} as the opening to {@code address} until it ends; returns it. */
    CompletableFuture<StripedNodeConnections> track(NodeAddress address, CompletableFuture<StripedNodeConnections> connecting) {
        opening.put(address, connecting);
        connecting.whenComplete((connection, error) -> opening.remove(address, connecting));
        return connecting;
    }

    /**
     * {@code node} did not answer: its connection closed for silence, or an opening failed or was not open within
     * the install's wait.
     */
    void unanswered(String node) {
        silent.add(node);
    }

    /** A connection to {@code node} opened. */
    void answered(String node) {
        silent.remove(node);
    }

    /** Whether an install should wait for a new connection to {@code node}: not when it lately did not answer. */
    boolean worthWaitingFor(String node) {
        return !silent.contains(node);
    }

    /** Forgets the nodes the map no longer names. */
    void retainOnly(Set<String> nodes) {
        silent.retainAll(nodes);
    }
}
