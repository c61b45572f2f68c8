package io.zaris.bench.peers;

import java.util.List;
import org.HdrHistogram.Histogram;

/** One system on one workload: the measured intervals' rates and their merged latencies (ns). */
record ThroughputRow(String system, Workload workload, List<Double> rates, Histogram latencies, long failures,
                     long misses) {

    double medianOpsPerSecond() {
        return Stats.median(rates);
    }

    double micros(double percentile) {
        return latencies.getValueAtPercentile(percentile) / 1000.0;
    }

    /** The product (Zaris ASYNC and Zaris SYNC are one product, not each other's peers). */
    String product() {
        return system.split(" ")[0];
    }
}
