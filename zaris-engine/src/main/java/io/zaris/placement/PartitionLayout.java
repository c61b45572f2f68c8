package io.zaris.placement;

/**
 * How segments group into partitions, the unit of ownership and replication.
 *
 * <p><b>Invariants.</b> {@code 1 <= partitionCount <= segmentCount <= SegmentMapper.SLOT_COUNT}. Segment
 * {@code s} belongs to partition {@code s * partitionCount / segmentCount}, so every partition owns a
 * non-empty, contiguous run of segments {@code firstSegmentOf(p)..lastSegmentOf(p)}, the runs tile
 * {@code 0..segmentCount-1} in order, and run lengths differ by at most one.
 *
 * <p>The layout is fixed for the life of a cluster: changing either count moves keys between partitions.
 * Immutable value; index arguments outside their range throw {@link IndexOutOfBoundsException}.
 */
public final class PartitionLayout {

    /** Segments per cluster unless configured otherwise. */
    public static final int DEFAULT_SEGMENT_COUNT = 1024;

    /** Partitions per cluster unless configured otherwise. */
    public static final int DEFAULT_PARTITION_COUNT = 128;

    private static final PartitionLayout DEFAULTS = new PartitionLayout(DEFAULT_SEGMENT_COUNT, DEFAULT_PARTITION_COUNT);

    private final int segmentCount;
    private final int partitionCount;

    private PartitionLayout(int segmentCount, int partitionCount) {
        this.segmentCount = segmentCount;
        this.partitionCount = partitionCount;
    }

    /**
     * @param segmentCount   {@code partitionCount..SegmentMapper.SLOT_COUNT}
     * @param partitionCount {@code 1..segmentCount}
     */
    public static PartitionLayout of(int segmentCount, int partitionCount) {
        if (segmentCount < 1 || segmentCount > SegmentMapper.SLOT_COUNT) {
            throw new IllegalArgumentException("segmentCount must be between 1 and " + SegmentMapper.SLOT_COUNT
                    + " but was " + segmentCount);
        }
        if (partitionCount < 1 || partitionCount > segmentCount) {
            throw new IllegalArgumentException("partitionCount must be between 1 and segmentCount (" + segmentCount
                    + ") but was " + partitionCount);
        }
        return new PartitionLayout(segmentCount, partitionCount);
    }

    /** {@value #DEFAULT_SEGMENT_COUNT} segments in {@value #DEFAULT_PARTITION_COUNT} partitions. */
    public static PartitionLayout defaults() {
        return DEFAULTS;
    }

    public int segmentCount() {
        return segmentCount;
    }

    public int partitionCount() {
        return partitionCount;
    }

    /** The partition that owns {@code segment}. */
    public int partitionOf(int segment) {
        if (segment < 0 || segment >= segmentCount) {
            throw new IndexOutOfBoundsException("segment " + segment + " is outside 0.." + (segmentCount - 1));
        }
        return (int) ((long) segment * partitionCount / segmentCount);
    }

    /** The smallest segment owned by {@code partition}. */
    public int firstSegmentOf(int partition) {
        checkPartition(partition);
        return firstSegmentUnchecked(partition);
    }

    /** The largest segment owned by {@code partition} (inclusive). */
    public int lastSegmentOf(int partition) {
        checkPartition(partition);
        return firstSegmentUnchecked(partition + 1) - 1;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PartitionLayout layout
                && segmentCount == layout.segmentCount
                && partitionCount == layout.partitionCount;
    }

    @Override
    public int hashCode() {
        return 31 * segmentCount + partitionCount;
    }

    @Override
    public String toString() {
        return "PartitionLayout[segmentCount=" + segmentCount + ", partitionCount=" + partitionCount + "]";
    }

    /** {@code ceil(partition * segmentCount / partitionCount)}: the least s with partitionOf(s) >= partition. */
    private int firstSegmentUnchecked(int partition) {
        return (int) (((long) partition * segmentCount + partitionCount - 1) / partitionCount);
    }

    private void checkPartition(int partition) {
        if (partition < 0 || partition >= partitionCount) {
            throw new IndexOutOfBoundsException("partition " + partition + " is outside 0.." + (partitionCount - 1));
        }
    }
}
