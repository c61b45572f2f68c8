/**
 * A node: the data port and its request handler, ownership decisions, takeover catch-up, admin commands, the
 * standalone server's arguments and main.
 *
 * <p>May import: every package below it (placement, model, protocol, store, security, transport for peer
 * connections, replication, cluster, resp); not client or embedded.
 */
package io.zaris.server;
