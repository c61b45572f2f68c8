package io.zaris.cluster;

import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a client needs to route: the layout (segments → partitions), the versioned partition map,
 * the runtime map and the data address of every node named in them. Nodes publish it; clients fetch it
 * with CLUSTER_MAP. Immutable.
 */
public record ClusterView(PartitionLayout layout, PartitionMap partitionMap, RuntimeMap runtimeMap,
                          Map<String, NodeAddress> addresses) {

    public ClusterView {
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
        return new ClusterView(layout, partitionMap, newRuntimeMap, addresses);
    }

    public ClusterView withAddresses(Map<String, NodeAddress> newAddresses) {
        return new ClusterView(layout, partitionMap, runtimeMap, newAddresses);
    }
}
