package io.zaris.server;

import io.zaris.protocol.PeerConnectionName;
import java.util.concurrent.atomic.LongAdder;

/** Counters of what a node's data port did; read by tests, metrics and operators. Thread-safe. */
public final class NodeStats {

    private final LongAdder requestsServed = new LongAdder();
    private final LongAdder wrongNodeReplies = new LongAdder();
    private final LongAdder rejectedRequests = new LongAdder();
    private final LongAdder connectionsClosedForBadInput = new LongAdder();
    private final LongAdder expiredRequests = new LongAdder();
    private final LongAdder mapRequests = new LongAdder();
    private final LongAdder ownershipPushes = new LongAdder();
    private final LongAdder replicationRefused = new LongAdder();
    private final LongAdder outOfMemoryRefusals = new LongAdder();
    private final LongAdder failedLogins = new LongAdder();
    private final LongAdder slowReadersClosed = new LongAdder();
    private final LongAdder unexpectedErrors = new LongAdder();
    private final LongAdder clientConnectionsOpened = new LongAdder();
    private final LongAdder peerConnectionsOpened = new LongAdder();

    /** A connection completed HELLO; {@code clientName} says whether it is another node or a client. */
    void connectionOpened(String clientName) {
        (PeerConnectionName.isPeer(clientName) ? peerConnectionsOpened : clientConnectionsOpened).increment();
    }

    /** Connections from clients (anything that is not another node) that completed HELLO since the node started. */
    public long clientConnectionsOpened() {
        return clientConnectionsOpened.sum();
    }

    /** Connections from other nodes (replication, takeover pulls, probes) that completed HELLO since the node started. */
    public long peerConnectionsOpened() {
        return peerConnectionsOpened.sum();
    }

    void served() {
        requestsServed.increment();
    }

    void wrongNode() {
        wrongNodeReplies.increment();
    }

    void rejected() {
        rejectedRequests.increment();
    }

    void closedForBadInput() {
        connectionsClosedForBadInput.increment();
    }

    /** Public for the RESP listener. */
    public void failedLogin() {
        failedLogins.increment();
    }

    /** Public for the RESP listener, which closes slow readers of its own. */
    public void slowReaderClosed() {
        slowReadersClosed.increment();
    }

    /** Logins refused (wrong user or password, or throttled) on the data and RESP ports. */
    public long failedLogins() {
        return failedLogins.sum();
    }

    void unexpectedError() {
        unexpectedErrors.increment();
    }

    /**
     * Exceptions that reached the data port's connection handler other than bad input and I/O failures: bugs,
     * each of which cost one request or one connection (and was logged). Zero on a healthy node.
     */
    public long unexpectedErrors() {
        return unexpectedErrors.sum();
    }

    /** Connections closed because the client stopped reading its replies. */
    public long slowReadersClosed() {
        return slowReadersClosed.sum();
    }

    void expired() {
        expiredRequests.increment();
    }

    void mapRequest() {
        mapRequests.increment();
    }

    void refusedForMemory() {
        outOfMemoryRefusals.increment();
    }

    /** Writes refused with OUT_OF_MEMORY: over budget and the eviction policy could not make room. */
    public long outOfMemoryRefusals() {
        return outOfMemoryRefusals.sum();
    }

    void refusedByReplication() {
        replicationRefused.increment();
    }

    /** SYNC writes applied locally but refused because too few replicas applied them in time. */
    public long replicationRefused() {
        return replicationRefused.sum();
    }

    void pushed(int events) {
        ownershipPushes.add(events);
    }

    /** Requests dropped unanswered because their client-side deadline had passed. */
    public long expiredRequests() {
        return expiredRequests.sum();
    }

    /** Full cluster map (CLUSTER_MAP) requests answered. */
    public long mapRequests() {
        return mapRequests.sum();
    }

    /** Ownership change events pushed to clients (one per partition change per connection batch). */
    public long ownershipPushes() {
        return ownershipPushes.sum();
    }

    /** Data requests answered by this node as the active owner (handshakes and map requests excluded). */
    public long requestsServed() {
        return requestsServed.sum();
    }

    /** Requests answered with MOVED, OWNERSHIP_CHANGING, REPLICA_WRITE_REJECTED or UNAVAILABLE. */
    public long wrongNodeReplies() {
        return wrongNodeReplies.sum();
    }

    /** Requests answered with a request error (BAD_REQUEST, TOO_LARGE, WRONG_TYPE…). */
    public long rejectedRequests() {
        return rejectedRequests.sum();
    }

    /** Connections closed because their byte stream could not be trusted. */
    public long connectionsClosedForBadInput() {
        return connectionsClosedForBadInput.sum();
    }
}
