/**
 * Connections to nodes: {@code NodeConnection} (one multiplexed, pipelined TCP connection per node, correlated
 * by request id), the push listener it feeds and the failures it reports ({@code ZarisException} and its
 * status, transport and timeout kinds). Used by the client, by replication and by the server's peer calls.
 *
 * <p>May import: time (the clock a connection measures its deadlines on), model, protocol (frames and codecs) and
 * security (credentials, TLS).
 */
package io.zaris.transport;
