package io.zaris.bench.peers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The measured intervals of one system's row, gathered one at a time (the members of a group take turns interval
 * by interval), with what the servers and the client JVM spent during each interval and nothing in between.
 */
final class RowIntervals {

    private final String system;
    private final Workload workload;
    private final List<Double> rates = new ArrayList<>();
    private final Histogram latencies = new Histogram(3);
    private long failures;
    private long misses;
    private long completed;
    private Duration serverCpu = Duration.ZERO;
    private Duration clientCpu = Duration.ZERO;
    private ThreadCpu.Housekeeping housekeeping = ThreadCpu.Housekeeping.NONE;

    RowIntervals(String system, Workload workload) {
        this.system = system;
        this.workload = workload;
    }

    Workload workload() {
        return workload;
    }

    void add(Sample sample, Duration servers, Duration client, ThreadCpu.Housekeeping serverHousekeeping) {
        rates.add(sample.opsPerSecond());
        latencies.add(sample.latencies());
        failures += sample.failures();
        misses += sample.misses();
        completed += sample.completed();
        serverCpu = serverCpu.plus(servers);
        clientCpu = clientCpu.plus(client);
        housekeeping = housekeeping.plus(serverHousekeeping);
    }

    ThroughputRow toRow() {
        double servers = microsPerOp(serverCpu, completed);
        double client = microsPerOp(clientCpu, completed);
        return new ThroughputRow(system, workload, List.copyOf(rates), latencies, failures, misses, servers, client,
                zeroIfUnknown(microsPerOp(housekeeping.compiling(), completed), servers),
                zeroIfUnknown(microsPerOp(housekeeping.collecting(), completed), servers));
    }

    /**
     * No compiler or collector time is a real zero when the servers' CPU time is known (those threads were idle,
     * or the servers are no JVM); it stays unknown ({@code NaN}) with the servers' own figure.
     */
    private static double zeroIfUnknown(double housekeepingMicros, double serverMicros) {
        return Double.isNaN(housekeepingMicros) && !Double.isNaN(serverMicros) ? 0 : housekeepingMicros;
    }

    /** {@code NaN} when the OS gave no CPU time (zero) or nothing completed. */
    private static double microsPerOp(Duration cpu, long completed) {
        return cpu.isZero() || cpu.isNegative() || completed == 0 ? Double.NaN : cpu.toNanos() / 1000.0 / completed;
    }
}
