package io.zaris.chaos;

import io.zaris.model.SegmentDigest;
import java.util.List;
import java.util.Map;

/**
 * What every owner of every partition held after healing, as segment digests fetched from the nodes
 * themselves (the data port's {@code SEGMENT_DIGESTS}). The checker compares them with {@link ReplicaCheck}.
 *
 * @param partitions one entry per partition of the cluster's map, in partition order
 */
record ReplicaCopies(List<PartitionCopies> partitions) {

    ReplicaCopies {
        partitions = List.copyOf(partitions);
    }

    /** For synthetic histories that test other checks: nothing to compare. A chaos run always fetches copies. */
    static ReplicaCopies none() {
        return new ReplicaCopies(List.of());
    }

    /**
     * The copies of one partition.
     *
     * @param active the node serving the partition when the digests were taken; its copy is the reference
     * @param owners every node the partition map assigns the partition to (active first when it is one)
     * @param byNode each owner's digests, one per segment in segment order; an owner that did not answer is absent
     */
    record PartitionCopies(int partition, String active, List<String> owners, Map<String, List<SegmentDigest>> byNode) {

        PartitionCopies {
            owners = List.copyOf(owners);
            byNode = Map.copyOf(byNode);
        }
    }
}
