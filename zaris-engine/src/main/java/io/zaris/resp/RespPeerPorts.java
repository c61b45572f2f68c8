package io.zaris.resp;

import io.zaris.model.NodeAddress;

/**
 * Where another node's RESP listener is, so {@code MOVED} and {@code CLUSTER SLOTS} can name it. Nodes do
 * not exchange RESP ports over membership; instead the mapping is configured cluster-wide:
 * {@link #offset(int)} (a standalone cluster: every node's RESP port is its data port plus the same
 * offset) or a lookup the embedded cluster provides from its own nodes.
 */
@FunctionalInterface
public interface RespPeerPorts {

    /** The RESP port of {@code nodeId} whose data port is {@code dataAddress}, or -1 when unknown. */
    int respPortOf(String nodeId, NodeAddress dataAddress);

    /** Every node's RESP port is its data port plus {@code offset}. */
    static RespPeerPorts offset(int offset) {
        return (nodeId, dataAddress) -> {
            int port = dataAddress.port() + offset;
            return port >= 1 && port <= 65535 ? port : -1;
        };
    }
}
