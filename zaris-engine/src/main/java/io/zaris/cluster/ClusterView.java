package io.zaris.cluster;

import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a client needs to route: the layout (segments → partitions), the versioned partition map,
 * the runtime map and the data address of every node named in them. Nodes publish it; clients fetch it
 * with CLUSTER_MAP. Immutable.
 *
 * @param founders the incarnation (one id per process start) of each node the first partition map was
 *                 computed for, carried unchanged ever after: a node whose incarnation differs from its
 *                 founding one restarted, and active roles the map gave it before it did hold data this
 *                 process does not have
 */
public record ClusterView(PartitionLayout layout, PartitionMap partitionMap, RuntimeMap runtimeMap,
                          Map<String, NodeAddress> addresses, Map<String, String> founders) {

    public ClusterView(PartitionLayout layout, PartitionMap partitionMap, RuntimeMap runtimeMap,
                       Map<String, NodeAddress> addresses) {
        this(layout, partitionMap, runtimeMap, addresses, Map.of());
    }

    public ClusterView {
        founders = Map.copyOf(new TreeMap<>(founders));
        if (partitionMap.partitionCount() != layout.partitionCount()
                || runtimeMap.partitionCount() != layout.partitionCount()) {
            throw new IllegalArgumentException("layout has " + layout.partitionCount() + " partitions but the partition map has "
                    + partitionMap.partitionCount() + " and the runtime map " + runtimeMap.partitionCount());
        }
        addresses = Map.copyOf(new TreeMap<>(addresses));
    }

    public PartitionRuntime runtimeOfSegment(int segment) {
        return runtimeMap.get(layout.partitionOf(segment));
    }

    public ClusterView withRuntimeMap(RuntimeMap newRuntimeMap) {
        return new ClusterView(layout, partitionMap, newRuntimeMap, addresses, founders);
    }

    public ClusterView withAddresses(Map<String, NodeAddress> newAddresses) {
        return new ClusterView(layout, partitionMap, runtimeMap, newAddresses, founders);
    }

    /**
     * Whether {@code incarnation} of {@code nodeId} is the one the first map was computed for: its active
     * roles in this view are its own. {@code true} when the view records no founders (it was not built by
     * a cluster member).
     */
    public boolean isFoundingIncarnation(String nodeId, String incarnation) {
        return founders.isEmpty() || incarnation.equals(founders.get(nodeId));
    }
}
