package io.zaris.security;

/**
 * Who a connection is logged in as, and what that allows.
 *
 * @param readOnly    may only read (GET, MULTI_GET, SCAN, maps); writes are refused
 * @param nodeAccess  may send node-to-node operations (replication, snapshots, partition state): the
 *                    default user (the cluster's shared password), or anyone on a node without
 *                    authentication
 */
public record Principal(String name, boolean readOnly, boolean nodeAccess) {

    /** Every connection of a node that requires no authentication. */
    public static final Principal UNAUTHENTICATED = new Principal("default", false, true);
}
