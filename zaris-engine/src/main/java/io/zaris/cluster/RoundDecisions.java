package io.zaris.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;

/**
 * A failover round's decisions, logged as one line per kind of change ("fail over from n1 to n2 (DEGRADED)")
 * listing its partitions, each with its epochs and the reasons for the choice. A crash changes a third of the
 * partitions or more: one line per partition cost the leader's events thread a log write each, between the
 * decision and the view's broadcast, which every request to those partitions waits for.
 *
 * <p>Confined to the thread running the round; used once.
 */
final class RoundDecisions {

    private final Map<String, List<String>> partitionsByChange = new TreeMap<>();

    /** Records that a partition changed: {@code change} names the kind, {@code partition} the partition and its details. */
    void add(String change, String partition) {
        partitionsByChange.computeIfAbsent(change, kind -> new ArrayList<>()).add(partition);
    }

    /** Logs each kind of change on one line: how many partitions, then each of them. */
    void log(Logger log, String nodeId) {
        partitionsByChange.forEach((change, partitions) -> log.info("node {}: {} partition(s) {}: {}", nodeId,
                partitions.size(), change, String.join(", ", partitions)));
    }
}
