package io.zaris.protocol;

/**
 * The name a node gives in HELLO when it connects to another node's data port (replication, takeover pulls,
 * probes), so that the receiving node can count its peers apart from its clients. It grants nothing: a name
 * is only what the other side says it is.
 */
public final class PeerConnectionName {

    private static final String PREFIX = "zaris-node:";

    private PeerConnectionName() {
    }

    /** The name node {@code nodeId} connects with for {@code purpose}, e.g. {@code zaris-node:replication:n1}. */
    public static String of(String purpose, String nodeId) {
        return PREFIX + purpose + ":" + nodeId;
    }

    /** Whether a connection that introduced itself as {@code clientName} says it is a node. */
    public static boolean isPeer(String clientName) {
        return clientName.startsWith(PREFIX);
    }
}
