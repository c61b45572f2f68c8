/**
 * Membership and the decisions about ownership: the JGroups adapter ({@code ClusterMember}), the leader's
 * failover coordinator and its pure decisions, rebalancing. Everything but the adapter runs without JGroups and
 * takes the time as a value: the member's reactions to each event ({@code MemberReactions}), which drive the
 * membership roster, the leases ({@code LeaseRelay} around the pure {@code LeaseKeeper}), the first map, the held
 * view and its merges and an operator's requests; {@code ClusterMember} feeds it from its events thread.
 *
 * <p>May import: time, placement, model (views and runtime entries), protocol, security and replication (its
 * settings).
 */
package io.zaris.cluster;
