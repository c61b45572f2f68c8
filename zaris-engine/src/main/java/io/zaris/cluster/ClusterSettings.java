package io.zaris.cluster;

import io.zaris.placement.PartitionLayout;

/**
 * Cluster-wide settings every node must agree on.
 *
 * @param clusterSize       how many nodes the cluster is configured with; the first map waits for all of
 *                          them and leadership needs a majority of them
 * @param layout            segments and partitions
 * @param replicationFactor owners per partition (primary + replicas)
 */
public record ClusterSettings(int clusterSize, PartitionLayout layout, int replicationFactor) {

    /** Replicas per partition including the primary. */
    public static final int DEFAULT_REPLICATION_FACTOR = 2;

    public ClusterSettings {
        if (clusterSize < 1) {
            throw new IllegalArgumentException("clusterSize must be >= 1 but was " + clusterSize);
        }
        if (replicationFactor < 1 || replicationFactor > 255) {
            throw new IllegalArgumentException("replicationFactor must be in 1..255 but was " + replicationFactor);
        }
        if (layout == null) {
            throw new IllegalArgumentException("layout must not be null");
        }
    }
}
