package io.zaris.netbed;

import java.lang.management.ManagementFactory;

/**
 * The machine's load, for the bed tests whose bounds are wall-clock gaps: such a bound measures the cluster only
 * when the machine can run it. On a two-core machine running other builds beside the bed (load 25-35), a node's
 * threads went unscheduled for seconds at a time, which no cluster setting can make up for.
 */
final class MachineLoad {

    /** Runnable threads per core, on average over the last minute, above which a gap measures the machine. */
    static final double OVERLOAD_PER_CORE = 3.0;

    private MachineLoad() {
    }

    /** The system load average over the last minute; negative where the platform does not report it. */
    static double now() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** Whether {@code load} (a one-minute load average) was more than {@link #OVERLOAD_PER_CORE} per core. */
    static boolean overloaded(double load) {
        return load > OVERLOAD_PER_CORE * cores();
    }
}
