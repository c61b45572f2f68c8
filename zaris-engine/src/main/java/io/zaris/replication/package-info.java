/**
 * The active owner's half of replication ({@code Replicator}, one {@code ReplicaLink} per replica), SYNC
 * acknowledgement ({@code ReplicaAcks}: every live replica), epochs as fences, and the takeover gate.
 *
 * <p>Dependencies: imports placement, protocol, store, cluster, security, and client ({@code NodeConnection},
 * the connection it ships over): the last an upward edge to be replaced by a transport package below both.
 */
package io.zaris.replication;
