package io.zaris.bench.peers;

/**
 * The node a failover run kills, once a target has chosen it.
 *
 * @param handle the target's own reference to the node (a node index, or a port for Redis)
 * @param name   how the report names the node, e.g. {@code n3} or {@code 127.0.0.1:7002}
 * @param role   what the node was when it was chosen, e.g. {@code not the leader (n1 leads)}
 */
record Victim(int handle, String name, String role) {

    /** No node: what a target is asked about before the kill. */
    static final Victim NONE = new Victim(-1, "none", "");

    @Override
    public String toString() {
        return role.isEmpty() ? name : name + ", " + role;
    }
}
