/**
 * Membership and the decisions about ownership: the JGroups adapter ({@code ClusterMember}), the leader's
 * failover coordinator and its pure decisions, rebalancing. Everything but the adapter runs without JGroups and
 * takes the time as a value: the membership roster, the leases ({@code LeaseRelay} around the pure
 * {@code LeaseKeeper}), the first map, the held view and its merges, an operator's requests; {@code ClusterMember}
 * drives them from its events thread.
 *
 * <p>May import: time, placement, model (views and runtime entries), protocol, security and replication (its
 * settings).
 */
package io.zaris.cluster;
