package io.zaris.bench.peers;

import java.util.List;

/**
 * Memory a cluster's nodes use at one moment, per node, and the entry cost the system reports about
 * itself where it has one ({@code -1} otherwise).
 *
 * @param perNode bytes per node (heap after a full GC for JVM nodes, {@code used_memory} for Redis)
 * @param reportedEntryCost bytes the system itself reports for the map's entries, all copies
 */
record MemoryReading(List<Long> perNode, long reportedEntryCost) {

    long total() {
        return perNode.stream().mapToLong(Long::longValue).sum();
    }
}
