package io.zaris.transport;

/**
 * A request was not sent because the node at the other end of its connection speaks an older protocol version, which
 * lacks the request's frame or collection op (see {@code ProtocolVersions}): during a rolling upgrade, an operation
 * that only the newer release has, aimed at a node not yet upgraded. Nothing was sent, so nothing changed; repeating
 * the operation gives the same answer until that node is upgraded. Not retried by the client.
 */
public final class ZarisProtocolVersionException extends ZarisException {

    private final int nodeVersion;
    private final String operation;

    public ZarisProtocolVersionException(String node, int nodeVersion, String operation) {
        super("the node at " + node + " speaks protocol " + nodeVersion + ", which lacks " + operation + "; upgrade it");
        this.nodeVersion = nodeVersion;
        this.operation = operation;
    }

    /** The protocol version the connection to the node negotiated. */
    public int nodeVersion() {
        return nodeVersion;
    }

    /** The frame or collection op that version lacks, e.g. {@code HASH_READ} or {@code hash op LMOVE}. */
    public String operation() {
        return operation;
    }
}
