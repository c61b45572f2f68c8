package io.zaris.model;

import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything a client needs to route: the layout (segments → partitions), the versioned partition map,
 * the runtime map and the data address of every node named in them, plus the id of the leader that
 * published it. Nodes publish it; clients fetch it with CLUSTER_MAP. Immutable.
 *
 * @param leader   informational (health, operators): the node that last published or adopted the view as
 *                 leader, {@code null} when unknown. Routing never depends on it, and {@code ViewOrdering}
 *                 ignores it.
 * @param founders the incarnation (one id per process start) of each node the first partition map was
 *                 computed for, carried unchanged ever after: a node whose incarnation differs from its
 *                 founding one restarted, and active roles the map gave it before it did hold data this
 *                 process does not have
 * @param voters   the nodes a majority is counted over: every node of the partition map, plus nodes the map
 *                 no longer names that still vote — a node whose copies were re-homed when it went missing
 *                 keeps its vote while it is present, and for a while after it left
 *                 ({@code VoterRetention}), so re-homing copies does not change who votes. Always a superset
 *                 of the map's nodes (the constructor adds them); views from nodes that predate it carry
 *                 exactly the map's nodes.
 * @param suspended the members the leader counts as serving nothing: still in the membership view, but without an
 *                  owner lease for longer than a lease (a flapping link, lost packets to the leader, a hang). No
 *                  partition is active on them, actives do not wait for them as replicas, takeovers do not wait for
 *                  their answers and promotions pass them over, until the leader confirms their lease again. Changes
 *                  come with a new map version, so views order them like any map change.
 */
public record ClusterView(PartitionLayout layout, PartitionMap partitionMap, RuntimeMap runtimeMap,
                          Map<String, NodeAddress> addresses, String leader, Map<String, String> founders,
                          Set<String> voters, Set<String> suspended) {

    public ClusterView {
        if (partitionMap.partitionCount() != layout.partitionCount()
                || runtimeMap.partitionCount() != layout.partitionCount()) {
            throw new IllegalArgumentException("layout has " + layout.partitionCount() + " partitions but the partition map has "
                    + partitionMap.partitionCount() + " and the runtime map " + runtimeMap.partitionCount());
        }
        addresses = Map.copyOf(new TreeMap<>(addresses));
        founders = Map.copyOf(new TreeMap<>(founders));
        if (leader != null && leader.isEmpty()) {
            leader = null;
        }
        TreeSet<String> allVoters = new TreeSet<>(voters);
        allVoters.addAll(partitionMap.nodes());
        voters = Collections.unmodifiableSortedSet(allVoters);
        suspended = Collections.unmodifiableSortedSet(new TreeSet<>(suspended));
    }

    /** A view with these voters and no suspended member. */
    public ClusterView(PartitionLayout layout, PartitionMap partitionMap, RuntimeMap runtimeMap,
                       Map<String, NodeAddress> addresses, String leader, Map<String, String> founders,
                       Set<String> voters) {
        this(layout, partitionMap, runtimeMap, addresses, leader, founders, voters, Set.of());
    }

    /** A view whose voters are the partition map's nodes. */
    public ClusterView(PartitionLayout layout, PartitionMap partitionMap, RuntimeMap runtimeMap,
                       Map<String, NodeAddress> addresses, String leader, Map<String, String> founders) {
        this(layout, partitionMap, runtimeMap, addresses, leader, founders, Set.of(), Set.of());
    }

    /** A view whose leader and founders are not known. */
    public ClusterView(PartitionLayout layout, PartitionMap partitionMap, RuntimeMap runtimeMap,
                       Map<String, NodeAddress> addresses) {
        this(layout, partitionMap, runtimeMap, addresses, null, Map.of(), Set.of(), Set.of());
    }

    public PartitionRuntime runtimeOfSegment(int segment) {
        return runtimeMap.get(layout.partitionOf(segment));
    }

    public ClusterView withRuntimeMap(RuntimeMap newRuntimeMap) {
        return new ClusterView(layout, partitionMap, newRuntimeMap, addresses, leader, founders, voters, suspended);
    }

    public ClusterView withAddresses(Map<String, NodeAddress> newAddresses) {
        return new ClusterView(layout, partitionMap, runtimeMap, newAddresses, leader, founders, voters, suspended);
    }

    /** The same view stamped with the node that leads ({@code null} = unknown). */
    public ClusterView withLeader(String newLeader) {
        return new ClusterView(layout, partitionMap, runtimeMap, addresses, newLeader, founders, voters, suspended);
    }

    /** The same view with partition map {@code newMap} and these voters (the map's nodes are added). */
    public ClusterView withMapAndVoters(PartitionMap newMap, RuntimeMap newRuntimeMap, Set<String> newVoters) {
        return new ClusterView(layout, newMap, newRuntimeMap, addresses, leader, founders, newVoters, suspended);
    }

    /** The same view with partition map {@code newMap} and runtime map {@code newRuntimeMap}, these members suspended. */
    public ClusterView withSuspended(PartitionMap newMap, RuntimeMap newRuntimeMap, Set<String> newSuspended) {
        return new ClusterView(layout, newMap, newRuntimeMap, addresses, leader, founders, voters, newSuspended);
    }

    /** Whether {@code nodeId} is in the membership view and serves: neither absent from {@code present} nor suspended. */
    public boolean serves(String nodeId, Set<String> present) {
        return present.contains(nodeId) && !suspended.contains(nodeId);
    }

    /**
     * Whether {@code incarnation} of {@code nodeId} is the one the first map was computed for: its active
     * roles in this view are its own. {@code true} when the view records no founders (it was not built by
     * a cluster member).
     */
    public boolean isFoundingIncarnation(String nodeId, String incarnation) {
        return founders.isEmpty() || incarnation.equals(founders.get(nodeId));
    }

    /**
     * Partitions not HEALTHY on their preferred primary: moving (a rebalance or heal in progress) or
     * degraded by a failure.
     */
    public int unsettledPartitions() {
        int unsettled = 0;
        for (int p = 0; p < runtimeMap.partitionCount(); p++) {
            PartitionRuntime runtime = runtimeMap.get(p);
            if (runtime.health() != PartitionHealth.HEALTHY
                    || !java.util.Objects.equals(runtime.activeNode(), partitionMap.primaryOf(p))) {
                unsettled++;
            }
        }
        return unsettled;
    }
}
