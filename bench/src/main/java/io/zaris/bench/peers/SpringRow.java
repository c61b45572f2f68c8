package io.zaris.bench.peers;

import java.util.List;
import org.HdrHistogram.Histogram;

/** One cache manager on one {@code @Cacheable} path (hit or miss): µs per call per interval, latencies (ns). */
record SpringRow(String provider, String path, List<Double> microsPerOp, Histogram latencies) {

    double medianMicros() {
        return Stats.median(microsPerOp);
    }
}
