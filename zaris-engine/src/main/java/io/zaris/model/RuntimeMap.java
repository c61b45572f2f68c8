package io.zaris.model;

import io.zaris.placement.PartitionMap;
import java.util.ArrayList;
import java.util.List;

/**
 * Partition → {@link PartitionRuntime}. Immutable: a change produces a new map, so a reader holding one
 * instance never sees a half-applied update.
 */
public final class RuntimeMap {

    private final List<PartitionRuntime> partitions;

    public RuntimeMap(List<PartitionRuntime> partitions) {
        this.partitions = List.copyOf(partitions);
    }

    /** The runtime map of a freshly computed partition map: every preferred primary active, HEALTHY. */
    public static RuntimeMap initial(PartitionMap partitionMap, long epoch) {
        List<PartitionRuntime> runtimes = new ArrayList<>(partitionMap.partitionCount());
        for (int p = 0; p < partitionMap.partitionCount(); p++) {
            runtimes.add(new PartitionRuntime(partitionMap.primaryOf(p), epoch, PartitionHealth.HEALTHY));
        }
        return new RuntimeMap(runtimes);
    }

    public int partitionCount() {
        return partitions.size();
    }

    public PartitionRuntime get(int partition) {
        return partitions.get(partition);
    }

    public List<PartitionRuntime> partitions() {
        return partitions;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RuntimeMap that && partitions.equals(that.partitions);
    }

    @Override
    public int hashCode() {
        return partitions.hashCode();
    }

    @Override
    public String toString() {
        return "RuntimeMap" + partitions;
    }
}
