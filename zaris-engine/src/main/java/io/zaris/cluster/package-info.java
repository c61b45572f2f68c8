/**
 * Membership and the decisions about ownership: the JGroups adapter ({@code ClusterMember}), the leader's
 * failover coordinator and its pure decisions, rebalancing. The owner and leader leases are kept by the pure
 * {@code LeaseKeeper} (no clock, no channel), which {@code ClusterMember} drives from its events thread.
 *
 * <p>May import: time, placement, model (views and runtime entries), protocol, security and replication (its
 * settings).
 */
package io.zaris.cluster;
