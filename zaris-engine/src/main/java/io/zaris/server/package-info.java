/**
 * A node: the data port and its request handler, ownership decisions, takeover catch-up, admin commands, the
 * standalone server's arguments and main. {@code ServerOption} is the catalog of a node's options (type, default,
 * variable, help, where each lands on {@code NodeConfig}) that the server's parsing and help derive from.
 *
 * <p>May import: every package below it (time, placement, model, protocol, store, security, transport for peer
 * connections, replication, cluster, resp); not client or embedded.
 */
package io.zaris.server;
