package io.zaris.bench.peers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Everything one run measured, and the peer comparisons drawn from it. */
final class BenchResults {

    final List<ThroughputRow> throughput = new ArrayList<>();
    final List<MemoryRow> memory = new ArrayList<>();
    final List<SpringRow> spring = new ArrayList<>();
    /** Near-cache hits through {@code ZarisClient.get}, no Spring in between ({@link NearClientGetBench}). */
    final List<SpringRow> nearClientGets = new ArrayList<>();
    /** System name → how it was configured. */
    final Map<String, String> configurations = new LinkedHashMap<>();
    /** The systems the run was asked for, by id ({@code zaris-async}), in the order asked: a workload's rows' order. */
    final List<String> systemIds = new ArrayList<>();
    /** System id → its name in the tables, once started. */
    final Map<String, String> labels = new LinkedHashMap<>();
    /** System name → what its servers spent while the other system of its pair was measured beside it. */
    final Map<String, IdleBeside> idleBeside = new LinkedHashMap<>();

    /** Servers' CPU time of an idle system, over the wall time the other system of its pair was measured. */
    record IdleBeside(Duration serverCpu, Duration wall) {

        IdleBeside plus(Duration cpu, Duration elapsed) {
            return new IdleBeside(serverCpu.plus(cpu), wall.plus(elapsed));
        }

        /** Percent of one core. */
        double percentOfCore() {
            return wall.isZero() ? 0 : 100.0 * serverCpu.toNanos() / wall.toNanos();
        }
    }

    void recordIdleBeside(String system, Duration serverCpu, Duration wall) {
        idleBeside.merge(system, new IdleBeside(serverCpu, wall), (sum, more) -> sum.plus(more.serverCpu(), more.wall()));
    }

    /** Position of the system (by its name in the tables) in {@link #systemIds}; systems not in it last. */
    int orderOf(String system) {
        for (int i = 0; i < systemIds.size(); i++) {
            if (system.equals(labels.get(systemIds.get(i)))) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    /** The fastest row of another product on the same workload. */
    Optional<ThroughputRow> bestPeer(ThroughputRow row) {
        return throughput.stream()
                .filter(other -> other.workload().equals(row.workload()) && !other.product().equals(row.product()))
                .max((a, b) -> Double.compare(a.medianOpsPerSecond(), b.medianOpsPerSecond()));
    }

    /** The cheapest other product's cache manager on the same path. */
    Optional<SpringRow> bestPeer(SpringRow row) {
        String product = SpringCacheProvider.productOf(row.provider());
        return spring.stream().filter(other -> other.path().equals(row.path())
                        && !SpringCacheProvider.productOf(other.provider()).equals(product))
                .min((a, b) -> Double.compare(a.medianMicros(), b.medianMicros()));
    }

    /** The Caffeine row of {@code path}, the in-process lower bound. */
    Optional<SpringRow> caffeine(String path) {
        return spring.stream().filter(other -> other.path().equals(path)
                && other.provider().equals(SpringCacheProvider.CAFFEINE.label())).findFirst();
    }

    /** The system with the fewest bytes per stored copy among the others. */
    Optional<MemoryRow> bestPeer(MemoryRow row) {
        return memory.stream().filter(other -> !other.system().split(" ")[0].equals(row.system().split(" ")[0]))
                .min((a, b) -> Double.compare(a.bytesPerCopy(), b.bytesPerCopy()));
    }

    Optional<ThroughputRow> row(String system, Workload workload) {
        return throughput.stream().filter(r -> r.system().equals(system) && r.workload().equals(workload)).findFirst();
    }
}
