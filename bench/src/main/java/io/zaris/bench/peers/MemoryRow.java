package io.zaris.bench.peers;

/** Memory a system's nodes gained by loading {@code entries} entries of {@code valueBytes}-byte values. */
record MemoryRow(String system, int entries, int valueBytes, int copies, MemoryReading before, MemoryReading after,
                 String measuredAs) {

    /** Bytes per entry over all nodes, all copies included. */
    double bytesPerEntry() {
        return (after.total() - before.total()) / (double) entries;
    }

    /** Bytes per stored copy of an entry: what one replica of one entry costs. */
    double bytesPerCopy() {
        return bytesPerEntry() / copies;
    }

    /** The system's self-reported cost per entry (all copies), or -1. */
    double reportedBytesPerEntry() {
        return after.reportedEntryCost() < 0 ? -1 : (after.reportedEntryCost() - Math.max(0, before.reportedEntryCost()))
                / (double) entries;
    }
}
