package io.zaris.client;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.transport.NodeConnection;
import java.util.Map;

/**
 * An immutable snapshot of where every segment is served: {@code segmentMap[segment]} is already the
 * connection to the active owner of the segment's partition (of the owner's {@link StripedNodeConnections},
 * the one the segment is bound to) ({@code null} when the partition has no
 * serving owner or the client has no connection to it). Routing a request is one hash and one array read.
 * The client publishes a new table with one volatile write; readers never see a partly updated table.
 * A table is never modified: an ownership change builds a new one (a fresh {@code segmentMap} array in
 * which only the changed partition's segments point elsewhere).
 */
final class RoutingTable {

    private final ClusterView view;
    private final NodeConnection[] segmentMap;
    private final Map<String, StripedNodeConnections> connections;

    private RoutingTable(ClusterView view, NodeConnection[] segmentMap, Map<String, StripedNodeConnections> connections) {
        this.view = view;
        this.segmentMap = segmentMap;
        this.connections = connections;
    }

    static RoutingTable build(ClusterView view, Map<String, StripedNodeConnections> connections) {
        int segmentCount = view.layout().segmentCount();
        NodeConnection[] segmentMap = new NodeConnection[segmentCount];
        for (int segment = 0; segment < segmentCount; segment++) {
            StripedNodeConnections owner = servingOwner(view.runtimeOfSegment(segment), connections);
            segmentMap[segment] = owner == null ? null : owner.forSegment(segment);
        }
        return new RoutingTable(view, segmentMap, Map.copyOf(connections));
    }

    /**
     * The table for {@code updated}, a view that differs from this table's only in {@code partition}'s runtime
     * entry (and perhaps the address of its new owner). Copy-on-write: the segment map is cloned and only that
     * partition's segments are retargeted; this table stays as it was for readers still holding it.
     */
    RoutingTable withPartition(int partition, ClusterView updated) {
        NodeConnection[] retargeted = segmentMap.clone();
        PartitionLayout layout = updated.layout();
        StripedNodeConnections owner = servingOwner(updated.runtimeMap().get(partition), connections);
        for (int segment = layout.firstSegmentOf(partition); segment <= layout.lastSegmentOf(partition); segment++) {
            retargeted[segment] = owner == null ? null : owner.forSegment(segment);
        }
        return new RoutingTable(updated, retargeted, connections);
    }

    /**
     * The node requests of {@code partition} go to when that goes to an open connection (the partition has a
     * serving owner and this client is connected to it); otherwise {@code null}.
     */
    String liveOwnerOf(int partition) {
        if (partition < 0 || partition >= view.layout().partitionCount()) {
            return null;
        }
        PartitionRuntime runtime = view.runtimeMap().get(partition);
        StripedNodeConnections owner = servingOwner(runtime, connections);
        return owner != null && owner.isOpen() ? runtime.activeNode() : null;
    }

    private static StripedNodeConnections servingOwner(PartitionRuntime runtime, Map<String, StripedNodeConnections> connections) {
        return runtime.health().isServing() && runtime.activeNode() != null ? connections.get(runtime.activeNode()) : null;
    }

    NodeConnection connectionFor(int segment) {
        return segmentMap[segment];
    }

    /** The epoch of the segment's partition this table routes by. */
    long epochOf(int segment) {
        return view.runtimeOfSegment(segment).epoch();
    }

    ClusterView view() {
        return view;
    }

    Map<String, StripedNodeConnections> connections() {
        return connections;
    }
}
