package io.zaris.bench.peers;

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
    /** System name → how it was configured. */
    final Map<String, String> configurations = new LinkedHashMap<>();

    /** The fastest row of another product on the same workload. */
    Optional<ThroughputRow> bestPeer(ThroughputRow row) {
        return throughput.stream()
                .filter(other -> other.workload().equals(row.workload()) && !other.product().equals(row.product()))
                .max((a, b) -> Double.compare(a.medianOpsPerSecond(), b.medianOpsPerSecond()));
    }

    /** The cheapest other cache manager on the same path. */
    Optional<SpringRow> bestPeer(SpringRow row) {
        return spring.stream().filter(other -> other.path().equals(row.path()) && !other.provider().equals(row.provider()))
                .min((a, b) -> Double.compare(a.medianMicros(), b.medianMicros()));
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
