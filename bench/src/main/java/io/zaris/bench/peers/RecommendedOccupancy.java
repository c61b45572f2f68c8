package io.zaris.bench.peers;

/**
 * The share of a node's memory its system recommends filling with data: the rest is the headroom the system
 * needs beside the data (garbage and buffers for a JVM node, fragmentation and replica buffers for Redis, a failed
 * member's share for Hazelcast), so a deployment provides {@code data ÷ fraction}.
 *
 * @param fraction in (0, 1]
 * @param of what the fraction is of (the heap, the memory Redis may use)
 * @param source where the system documents it, as the report cites it
 */
record RecommendedOccupancy(double fraction, String of, String source) {

    RecommendedOccupancy {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("a recommended occupancy is a fraction in (0, 1], not " + fraction);
        }
    }
}
