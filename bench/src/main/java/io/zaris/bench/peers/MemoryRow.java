package io.zaris.bench.peers;

/**
 * Memory a system's nodes gained by loading {@code entries} entries of {@code valueBytes}-byte values, and what a
 * deployment of the system provides for them with the headroom the system recommends ({@code occupancy}).
 */
record MemoryRow(String system, int entries, int valueBytes, int copies, MemoryReading before, MemoryReading after,
                 String measuredAs, RecommendedOccupancy occupancy) {

    /** Bytes per entry over all nodes, all copies included. */
    double bytesPerEntry() {
        return (after.total() - before.total()) / (double) entries;
    }

    /** Bytes per stored copy of an entry: what one replica of one entry costs. */
    double bytesPerCopy() {
        return bytesPerEntry() / copies;
    }

    /**
     * Memory a deployment provides per stored copy: {@link #bytesPerCopy()} ÷ the recommended occupancy. NaN when
     * the nodes did not grow (nothing measured to size from).
     */
    double deploymentBytesPerCopy() {
        double perCopy = bytesPerCopy();
        return perCopy > 0 ? DeploymentMemory.needed(perCopy, occupancy) : Double.NaN;
    }

    /** The system's self-reported cost per entry (all copies), or -1. */
    double reportedBytesPerEntry() {
        return after.reportedEntryCost() < 0 ? -1 : (after.reportedEntryCost() - Math.max(0, before.reportedEntryCost()))
                / (double) entries;
    }
}
