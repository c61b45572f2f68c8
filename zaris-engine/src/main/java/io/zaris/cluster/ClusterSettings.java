package io.zaris.cluster;

import io.zaris.placement.PartitionLayout;
import java.time.Duration;

/**
 * Cluster-wide settings every node must agree on.
 *
 * @param clusterSize       how many nodes the cluster is configured with; the first map waits for all of
 *                          them and leadership needs a majority of them
 * @param layout            segments and partitions
 * @param replicationFactor owners per partition (primary + replicas)
 * @param joinSettleDelay   how long a node that joined a running cluster must stay before the leader
 *                          plans a map that gives it partitions (a node that flaps moves nothing)
 * @param maxConcurrentMoves how many partitions a rebalance moves at once (each copies its data to its new
 *                          owners while the old ones serve)
 */
public record ClusterSettings(int clusterSize, PartitionLayout layout, int replicationFactor, Duration joinSettleDelay,
                              int maxConcurrentMoves) {

    /** Replicas per partition including the primary. */
    public static final int DEFAULT_REPLICATION_FACTOR = 2;
    public static final Duration DEFAULT_JOIN_SETTLE_DELAY = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_CONCURRENT_MOVES = 8;

    public ClusterSettings(int clusterSize, PartitionLayout layout, int replicationFactor) {
        this(clusterSize, layout, replicationFactor, DEFAULT_JOIN_SETTLE_DELAY, DEFAULT_MAX_CONCURRENT_MOVES);
    }

    public ClusterSettings {
        if (joinSettleDelay == null || joinSettleDelay.isNegative()) {
            throw new IllegalArgumentException("joinSettleDelay must be >= 0 but was " + joinSettleDelay);
        }
        if (maxConcurrentMoves < 1) {
            throw new IllegalArgumentException("maxConcurrentMoves must be >= 1 but was " + maxConcurrentMoves);
        }
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

    public ClusterSettings withJoinSettleDelay(Duration delay) {
        return new ClusterSettings(clusterSize, layout, replicationFactor, delay, maxConcurrentMoves);
    }

    public ClusterSettings withMaxConcurrentMoves(int moves) {
        return new ClusterSettings(clusterSize, layout, replicationFactor, joinSettleDelay, moves);
    }
}
