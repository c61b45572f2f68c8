package io.zaris.client;

import io.zaris.cluster.ClusterView;
import io.zaris.cluster.PartitionRuntime;
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
            PartitionRuntime runtime = view.runtimeOfSegment(segment);
            if (runtime.health().isServing()) {
                StripedNodeConnections owner = connections.get(runtime.activeNode());
                segmentMap[segment] = owner == null ? null : owner.forSegment(segment);
            }
        }
        return new RoutingTable(view, segmentMap, Map.copyOf(connections));
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
