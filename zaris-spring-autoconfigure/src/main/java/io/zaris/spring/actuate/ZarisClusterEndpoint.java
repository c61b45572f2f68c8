package io.zaris.spring.actuate;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionMap;
import io.zaris.server.ZarisNode;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/zaris}: the cluster as a live page draws it. Nodes with their primary and replica partitions,
 * operations per second and (embedded mode) whether they run and lead; every partition with its health, epoch,
 * active node and owners; the partition-map version and epoch sum; and the recent ownership changes the
 * {@link ZarisClusterMonitor} saw. Reads only the monitor's last sample and in-memory node state: cheap enough
 * to poll every second.
 */
@Endpoint(id = "zaris")
public final class ZarisClusterEndpoint {

    private final ZarisClusterMonitor monitor;
    private final ZarisEmbeddedClusterLifecycle embeddedCluster;

    /** @param embeddedCluster the embedded cluster, or {@code null} in client mode */
    public ZarisClusterEndpoint(ZarisClusterMonitor monitor, ZarisEmbeddedClusterLifecycle embeddedCluster) {
        this.monitor = monitor;
        this.embeddedCluster = embeddedCluster;
    }

    @ReadOperation
    public Map<String, Object> cluster() {
        ClusterView view = monitor.latestView();
        PartitionMap map = view.partitionMap();
        List<PartitionRuntime> runtimes = view.runtimeMap().partitions();
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("mode", embeddedCluster != null ? "embedded" : "client");
        state.put("partitionMapVersion", map.version());
        state.put("epochSum", ZarisHealthIndicator.epochSum(view));
        state.put("leader", view.leader());
        state.put("nodes", nodes(view, runtimes));
        List<Map<String, Object>> partitions = new ArrayList<>();
        for (int partition = 0; partition < runtimes.size(); partition++) {
            PartitionRuntime runtime = runtimes.get(partition);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("partition", partition);
            entry.put("health", runtime.health().name());
            entry.put("epoch", runtime.epoch());
            entry.put("active", runtime.activeNode());
            entry.put("owners", map.ownersOf(partition));
            partitions.add(entry);
        }
        state.put("partitions", partitions);
        state.put("recentChanges", monitor.recentChanges());
        return state;
    }

    private Map<String, Object> nodes(ClusterView view, List<PartitionRuntime> runtimes) {
        Map<String, Double> ops = monitor.opsPerSecond();
        Map<String, Map<String, Object>> nodes = new TreeMap<>();
        view.addresses().forEach((id, address) -> node(nodes, id).put("address", address.toString()));
        if (embeddedCluster != null) {
            for (ZarisNode node : embeddedCluster.cluster().nodes()) {
                Map<String, Object> entry = node(nodes, node.nodeId());
                entry.put("running", node.isRunning());
                entry.put("leader", node.isRunning() && node.isLeader());
            }
        }
        nodes.forEach((id, entry) -> {
            List<Integer> primary = new ArrayList<>();
            List<Integer> replica = new ArrayList<>();
            for (int partition = 0; partition < runtimes.size(); partition++) {
                if (id.equals(runtimes.get(partition).activeNode())) {
                    primary.add(partition);
                } else if (view.partitionMap().ownersOf(partition).contains(id)) {
                    replica.add(partition);
                }
            }
            entry.put("primary", primary);
            entry.put("replica", replica);
            entry.put("opsPerSecond", ops.get(id));
        });
        return new LinkedHashMap<>(nodes);
    }

    private static Map<String, Object> node(Map<String, Map<String, Object>> nodes, String id) {
        return nodes.computeIfAbsent(id, key -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", key);
            return entry;
        });
    }
}
