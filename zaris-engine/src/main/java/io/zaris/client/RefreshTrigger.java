package io.zaris.client;

/** Why the routing table changed. */
public enum RefreshTrigger {
    /** A node pushed a runtime ownership change. */
    PUSH,
    /** A wrong-node answer carried the partition's current runtime entry. */
    HINT,
    /** The periodic backstop poll found a different map. */
    POLL,
    /** The retry brain asked for a fresh map after a wrong-node status or a transport fault. */
    REACT
}
