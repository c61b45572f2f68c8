package io.zaris.model;

/**
 * The fast-moving state of one partition: who serves it now, under which epoch, in which health.
 * {@code activeNode} is {@code null} only when {@code health} is {@link PartitionHealth#UNAVAILABLE}.
 */
public record PartitionRuntime(String activeNode, long epoch, PartitionHealth health) {

    public PartitionRuntime {
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0 but was " + epoch);
        }
        if (health == null) {
            throw new IllegalArgumentException("health must not be null");
        }
        if (activeNode == null && health != PartitionHealth.UNAVAILABLE) {
            throw new IllegalArgumentException("a partition without an active node must be UNAVAILABLE, not " + health);
        }
    }

    public boolean isServedBy(String nodeId) {
        return health.isServing() && nodeId.equals(activeNode);
    }
}
