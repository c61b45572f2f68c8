package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.PartitionState;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The leader's questions to other nodes over the data transport (not the membership channel): is a node
 * that membership says left really gone, and what does a node hold of some partitions. Implementations
 * time out quickly and never complete exceptionally.
 */
public interface PeerProbe {

    /** Whether the node's data port accepts a connection and a handshake. */
    CompletableFuture<Boolean> isReachable(NodeAddress address);

    /** What the node holds of each partition; partitions it could not answer for are absent. */
    CompletableFuture<Map<Integer, PartitionState>> partitionStates(NodeAddress address, Collection<Integer> partitions);

    /**
     * Asks the node, the active owner of each partition under the given epoch, to stop taking writes of that epoch
     * before a planned hand-over is published (see {@code HandOverFence}); completes with the partitions it fenced
     * and settled. Partitions it refused, did not settle or did not answer for in time are absent. The default, for
     * probes that cannot ask, fences nothing.
     */
    default CompletableFuture<Set<Integer>> fenceForHandOver(NodeAddress address, Map<Integer, Long> epochs) {
        return CompletableFuture.completedFuture(Set.of());
    }

    /** The cluster view the node holds, or {@code null} when it did not answer (or has none yet). */
    default CompletableFuture<ClusterView> clusterView(NodeAddress address) {
        return CompletableFuture.completedFuture(null);
    }
}
