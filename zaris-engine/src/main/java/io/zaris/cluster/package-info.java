/**
 * Membership and the decisions about ownership: the JGroups adapter ({@code ClusterMember}), the leader's
 * failover coordinator and its pure decisions, owner leases, rebalancing.
 *
 * <p>May import: placement, model (views and runtime entries), protocol, security and replication (its
 * settings).
 */
package io.zaris.cluster;
