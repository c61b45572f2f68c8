package io.zaris.server;

import io.zaris.cluster.PartitionHealth;
import io.zaris.cluster.PartitionRuntime;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.KvStatus;

/**
 * Whether this node may answer a request for a segment, as one pure function of the maps.
 *
 * <table>
 *   <caption>Decision</caption>
 *   <tr><th>this node is…</th><th>segment handing off</th><th>answer</th></tr>
 *   <tr><td>active owner, serving health</td><td>no</td><td>{@code OK} (serve)</td></tr>
 *   <tr><td>active owner, serving health</td><td>yes</td><td>{@code OWNERSHIP_CHANGING}</td></tr>
 *   <tr><td>active owner, RECOVERING</td><td>—</td><td>{@code UNAVAILABLE}</td></tr>
 *   <tr><td>anything, partition UNAVAILABLE</td><td>—</td><td>{@code UNAVAILABLE}</td></tr>
 *   <tr><td>not active</td><td>yes</td><td>{@code OWNERSHIP_CHANGING}</td></tr>
 *   <tr><td>not active, assigned replica, write</td><td>no</td><td>{@code REPLICA_WRITE_REJECTED}</td></tr>
 *   <tr><td>not active, otherwise</td><td>no</td><td>{@code MOVED}</td></tr>
 * </table>
 *
 * Replicas do not serve reads: a read answered by a replica could miss an acknowledged ASYNC write.
 */
public final class OwnershipDecision {

    private OwnershipDecision() {
    }

    /**
     * @param self          this node's id
     * @param partitionMap  the assigned owners
     * @param runtime       the partition's runtime entry
     * @param partition     the partition the request's segment belongs to
     * @param write         whether the request changes data
     * @param transitioning whether a handoff of the segment is in progress
     * @return {@link KvStatus#OK} to serve, otherwise the status to answer with
     */
    public static KvStatus decide(String self, PartitionMap partitionMap, PartitionRuntime runtime, int partition,
                                  boolean write, boolean transitioning) {
        if (runtime.health() == PartitionHealth.UNAVAILABLE) {
            return KvStatus.UNAVAILABLE;
        }
        if (self.equals(runtime.activeNode())) {
            if (!runtime.health().isServing()) {
                return KvStatus.UNAVAILABLE;
            }
            return transitioning ? KvStatus.OWNERSHIP_CHANGING : KvStatus.OK;
        }
        if (transitioning) {
            return KvStatus.OWNERSHIP_CHANGING;
        }
        if (write && partitionMap.isAssigned(partition, self)) {
            return KvStatus.REPLICA_WRITE_REJECTED;
        }
        return KvStatus.MOVED;
    }
}
