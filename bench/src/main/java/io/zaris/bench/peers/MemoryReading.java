package io.zaris.bench.peers;

import java.util.List;

/**
 * Memory a cluster's nodes use at one moment, per node, and the entry cost the system reports about
 * itself where it has one ({@code -1} otherwise).
 *
 * @param perNode bytes per node (heap after a full GC for JVM nodes, {@code used_memory} for Redis)
 * @param residentPerNode resident bytes of each node's process ({@link ResidentMemory}), in the same order
 * @param reportedEntryCost bytes the system itself reports for the map's entries, all copies (Hazelcast: its entry
 *                          cost; Zaris: what its nodes charge against their memory budgets)
 */
record MemoryReading(List<Long> perNode, List<Long> residentPerNode, long reportedEntryCost) {

    MemoryReading {
        perNode = List.copyOf(perNode);
        residentPerNode = List.copyOf(residentPerNode);
        if (perNode.size() != residentPerNode.size()) {
            throw new IllegalArgumentException("a reading has " + perNode.size() + " nodes' memory but "
                    + residentPerNode.size() + " nodes' resident memory");
        }
    }

    long total() {
        return perNode.stream().mapToLong(Long::longValue).sum();
    }

    long residentTotal() {
        return residentPerNode.stream().mapToLong(Long::longValue).sum();
    }
}
