package io.zaris.bench.peers;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One system on one workload: the measured intervals' rates, their merged latencies (ns), the CPU time per
 * completed request (µs) the servers and the client spent during them ({@code NaN} when not known), and how
 * much of the servers' went to their JVMs' compiler and collector threads.
 */
record ThroughputRow(String system, Workload workload, List<Double> rates, Histogram latencies, long failures,
                     long misses, double serverCpuMicrosPerOp, double clientCpuMicrosPerOp,
                     double serverCompilerMicrosPerOp, double serverCollectorMicrosPerOp) {

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
