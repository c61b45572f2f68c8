/**
 * A node: the data port and its request handler, ownership decisions, takeover catch-up, admin commands, the
 * standalone server's arguments and main.
 *
 * <p>Dependencies: imports every package below it (placement, protocol, store, security, cluster, replication,
 * resp) and client (peer connections).
 */
package io.zaris.server;
