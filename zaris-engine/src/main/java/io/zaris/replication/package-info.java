/**
 * The active owner's half of replication ({@code Replicator}, one {@code ReplicaLink} per replica), SYNC
 * acknowledgement ({@code ReplicaAcks}: every live replica), epochs as fences, and the takeover gate.
 *
 * <p>May import: time (the node's clock), placement, model, protocol, store, security and transport (the
 * connection it ships over).
 * Not cluster: membership sits above replication and reads its settings.
 */
package io.zaris.replication;
