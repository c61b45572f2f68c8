package io.zaris.cluster;

import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a client needs to route: the layout (segments → partitions), the versioned partition map,
 * the runtime map and the data address of every node named in them, plus the id of the leader that
 * published it. Nodes publish it; clients fetch it with CLUSTER_MAP. Immutable.
 *
 * <p>{@code leader} is informational (health, operators): it is the node that last published or adopted
 * the view as leader, {@code null} when unknown (a view from a node that does not stamp it, or one built
 * before any leader published). Routing never depends on it, and {@link ViewOrdering} ignores it.
 */
public record ClusterView(PartitionLayout layout, PartitionMap partitionMap, RuntimeMap runtimeMap,
                          Map<String, NodeAddress> addresses, String leader) {

    public ClusterView {
        if (partitionMap.partitionCount() != layout.partitionCount()
                || runtimeMap.partitionCount() != layout.partitionCount()) {
            throw new IllegalArgumentException("layout has " + layout.partitionCount() + " partitions but the partition map has "
                    + partitionMap.partitionCount() + " and the runtime map " + runtimeMap.partitionCount());
        }
        addresses = Map.copyOf(new TreeMap<>(addresses));
        if (leader != null && leader.isEmpty()) {
            leader = null;
        }
    }

    /** A view whose leader is not known. */
    public ClusterView(PartitionLayout layout, PartitionMap partitionMap, RuntimeMap runtimeMap,
                       Map<String, NodeAddress> addresses) {
        this(layout, partitionMap, runtimeMap, addresses, null);
    }

    public PartitionRuntime runtimeOfSegment(int segment) {
        return runtimeMap.get(layout.partitionOf(segment));
    }

    public ClusterView withRuntimeMap(RuntimeMap newRuntimeMap) {
        return new ClusterView(layout, partitionMap, newRuntimeMap, addresses, leader);
    }

    public ClusterView withAddresses(Map<String, NodeAddress> newAddresses) {
        return new ClusterView(layout, partitionMap, runtimeMap, newAddresses, leader);
    }

    /** The same view stamped with the node that leads ({@code null} = unknown). */
    public ClusterView withLeader(String newLeader) {
        return new ClusterView(layout, partitionMap, runtimeMap, addresses, newLeader);
    }
}
