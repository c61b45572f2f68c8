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
     * The data size a deployment is sized from, per stored copy: the measured growth, or the system's own figure
     * where that is larger, since a system that enforces its limit on its own accounting (a Zaris node evicts once
     * the bytes it charges pass its budget) needs room for that figure whatever the heap holds.
     */
    double sizingBytesPerCopy() {
        double reportedPerCopy = reportedBytesPerEntry() < 0 ? 0 : reportedBytesPerEntry() / copies;
        return Math.max(bytesPerCopy(), reportedPerCopy);
    }

    /**
     * Memory a deployment provides per stored copy: {@link #sizingBytesPerCopy()} ÷ the recommended occupancy. NaN
     * when the nodes did not grow (nothing measured to size from).
     */
    double deploymentBytesPerCopy() {
        double perCopy = sizingBytesPerCopy();
        return bytesPerCopy() > 0 ? DeploymentMemory.needed(perCopy, occupancy) : Double.NaN;
    }

    /** The system's self-reported cost per entry (all copies), or -1. */
    double reportedBytesPerEntry() {
        return after.reportedEntryCost() < 0 ? -1 : (after.reportedEntryCost() - Math.max(0, before.reportedEntryCost()))
                / (double) entries;
    }
}
