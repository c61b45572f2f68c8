/**
 * Membership and the decisions about ownership: the JGroups adapter ({@code ClusterMember}), the leader's
 * failover coordinator and its pure decisions, owner leases, the runtime map and cluster views, rebalancing.
 *
 * <p>Dependencies: imports placement, protocol, security and replication (its settings).
 */
package io.zaris.cluster;
