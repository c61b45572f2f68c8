package io.zaris.placement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The slow, versioned partition map: for each partition, the ordered owners
 * {@code [preferred primary, replica, ...]}.
 *
 * <p><b>Invariants.</b> {@code version >= 1}; {@code replicationFactor >= 1}; at least one partition; every
 * partition has between 1 and {@code 2 × replicationFactor} owners, each a non-blank node id, with no id
 * twice in the same partition. A partition may hold fewer owners than the replication factor when the
 * cluster has fewer members, and more while it moves: a rebalance lists its planned owners first and keeps
 * the previous ones, which hold its data, after them until the planned ones are in sync (see
 * {@code io.zaris.cluster.Rebalancer}). {@link PartitionPlanner} plans only ever {@code replicationFactor}.
 *
 * <p>This map says where data should live; who serves a partition right now is the runtime map's business.
 * It changes only through a new, higher-versioned map (see {@link PartitionPlanner}). Immutable: the
 * constructor takes a deep copy and every accessor returns an unmodifiable view.
 */
public final class PartitionMap {

    private final long version;
    private final int replicationFactor;
    private final List<List<String>> owners;
    private final SortedSet<String> nodes;

    /**
     * @param version           {@code >= 1}, higher for every newer map of the same cluster
     * @param replicationFactor configured copies per partition, {@code >= 1}
     * @param owners            {@code owners.get(p)} = ordered node ids of partition {@code p}, primary first
     */
    public PartitionMap(long version, int replicationFactor, List<List<String>> owners) {
        if (version < 1) {
            throw new IllegalArgumentException("version must be >= 1 but was " + version);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replicationFactor must be >= 1 but was " + replicationFactor);
        }
        if (owners == null || owners.isEmpty()) {
            throw new IllegalArgumentException("owners must list at least one partition");
        }
        List<List<String>> copy = new ArrayList<>(owners.size());
        SortedSet<String> allNodes = new TreeSet<>();
        for (int p = 0; p < owners.size(); p++) {
            List<String> partitionOwners = owners.get(p);
            if (partitionOwners == null || partitionOwners.isEmpty()) {
                throw new IllegalArgumentException("partition " + p + " has no owners");
            }
            if (partitionOwners.size() > 2L * replicationFactor) {
                throw new IllegalArgumentException("partition " + p + " has " + partitionOwners.size()
                        + " owners but the replication factor is " + replicationFactor + " (at most twice that while moving)");
            }
            Set<String> seen = new HashSet<>();
            for (String nodeId : partitionOwners) {
                if (nodeId == null || nodeId.isBlank()) {
                    throw new IllegalArgumentException("partition " + p + " has a null or blank owner id");
                }
                if (!seen.add(nodeId)) {
                    throw new IllegalArgumentException("partition " + p + " lists owner " + nodeId + " twice");
                }
            }
            copy.add(List.copyOf(partitionOwners));
            allNodes.addAll(partitionOwners);
        }
        this.version = version;
        this.replicationFactor = replicationFactor;
        this.owners = List.copyOf(copy);
        this.nodes = Collections.unmodifiableSortedSet(allNodes);
    }

    public long version() {
        return version;
    }

    /** The configured replication factor; a partition holds {@code min(replicationFactor, members)} owners. */
    public int replicationFactor() {
        return replicationFactor;
    }

    public int partitionCount() {
        return owners.size();
    }

    /** Ordered owners of {@code partition}, preferred primary first. */
    public List<String> ownersOf(int partition) {
        checkPartition(partition);
        return owners.get(partition);
    }

    /** The preferred primary of {@code partition}. */
    public String primaryOf(int partition) {
        return ownersOf(partition).get(0);
    }

    /** Whether {@code nodeId} is primary or replica of {@code partition}. */
    public boolean isAssigned(int partition, String nodeId) {
        return ownersOf(partition).contains(nodeId);
    }

    /** Every node id that owns at least one partition, sorted. */
    public Set<String> nodes() {
        return nodes;
    }

    /** All owner lists, indexed by partition. */
    public List<List<String>> owners() {
        return owners;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PartitionMap map
                && version == map.version
                && replicationFactor == map.replicationFactor
                && owners.equals(map.owners);
    }

    @Override
    public int hashCode() {
        int result = Long.hashCode(version);
        result = 31 * result + replicationFactor;
        return 31 * result + owners.hashCode();
    }

    /** A summary; the owner lists themselves can be long, read them through {@link #owners()}. */
    @Override
    public String toString() {
        return "PartitionMap[version=" + version + ", replicationFactor=" + replicationFactor
                + ", partitions=" + owners.size() + ", nodes=" + nodes + "]";
    }

    private void checkPartition(int partition) {
        if (partition < 0 || partition >= owners.size()) {
            throw new IndexOutOfBoundsException(
                    "partition " + partition + " is outside 0.." + (owners.size() - 1));
        }
    }
}
