package io.zaris.spring.actuate;

import io.zaris.client.NearCacheRead;
import io.zaris.client.NearCacheStats;
import io.zaris.client.NearCacheStreams;
import io.zaris.client.ZarisClient;
import io.zaris.cluster.RebalanceStatus;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.server.ZarisNode;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import io.zaris.spring.ZarisRoutingTableWatch;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@code zaris} health component: partitions by state, nodes (and whether this application reaches
 * them), leader, partition-map version, epoch sum, rebalance progress, the client's routing-table age and, when
 * the client has a near cache, its segment streams ({@link #nearCache}).
 *
 * <p>Status ({@link #statusOf}):
 * <pre>
 * no node answers the probe, or any partition UNAVAILABLE     DOWN
 * any partition DEGRADED or RECOVERING                        DEGRADED (custom status, see README)
 * otherwise                                                   UP
 * </pre>
 * A rebalance needs no rule of its own: every partition it moves is DEGRADED (its active owner serves on
 * while the new owners sync) until it is handed over, so a cluster shows DEGRADED while partitions move and
 * UP again once they are settled.
 *
 * <p><b>Rebalance detail.</b> {@code moving}: partitions not HEALTHY on their preferred primary in the view
 * the states come from (moving in a rebalance, or degraded by a failure); in client mode that is all. In
 * embedded mode, while a running node leads: {@code running}, {@code remaining} (partitions whose owners
 * still differ from the plan, the moving ones included), {@code movesStarted} and {@code etaSeconds}
 * ({@code -1} while not known) from the leader's {@link ZarisNode#rebalanceStatus()}; and, while the
 * cluster runs, {@code snapshotBytesSent} summed over the running nodes (what syncing new and lagging
 * replicas cost since each node started).
 *
 * <p><b>Where the data comes from.</b> In embedded mode the partition states come from the map the
 * leading node holds (the authority), and each node reports whether it runs, leads and how many keys it
 * holds. In client mode they come from the client's routing view ({@link ZarisClient#clusterView()}),
 * which lags the cluster by at most one push or poll. The <b>leader</b> is the node the leading embedded
 * node reports (embedded mode), else the leader the cluster map names (client mode: as of the last map
 * fetch or poll, so a new leader shows within one poll interval); absent when not known. <b>Reachability</b> is measured, not assumed: for every node that actively
 * serves a partition the indicator picks a key that node owns and reads it (a miss is a fine answer),
 * all probes in parallel, each bounded by {@link #PROBE_TIMEOUT}.
 *
 * <p>Stateless between checks; a check runs on the caller's thread and waits for the probes
 * ({@link ZarisReactiveHealthIndicator} runs the same check without waiting).
 */
public final class ZarisHealthIndicator extends AbstractHealthIndicator {

    /** Reported while partitions serve without full redundancy or are syncing before they serve. */
    public static final Status DEGRADED = new Status("DEGRADED", "partitions are degraded or recovering");

    /** How long one node may take to answer its probe before it counts as unreachable. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    /** Probe keys tried per check to find one owned by each serving node. */
    static final int PROBE_KEY_CANDIDATES = 4096;
    /** Probe keys are read, never written: nothing is stored under this prefix. */
    static final String PROBE_KEY_PREFIX = "zaris:health-probe:";

    private final ZarisClient client;
    private final ZarisEmbeddedClusterLifecycle embeddedCluster;
    private final ZarisRoutingTableWatch routingTableWatch;

    /**
     * @param embeddedCluster   the embedded cluster, or {@code null} in client mode
     * @param routingTableWatch the client's routing-table watch, or {@code null} when the client is the
     *                          application's own (the age is then not reported)
     */
    public ZarisHealthIndicator(ZarisClient client, ZarisEmbeddedClusterLifecycle embeddedCluster,
                                ZarisRoutingTableWatch routingTableWatch) {
        super("Zaris health check failed");
        this.client = client;
        this.embeddedCluster = embeddedCluster;
        this.routingTableWatch = routingTableWatch;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        describe(builder).join();
    }

    /**
     * Fills {@code builder} once the probes have answered, without blocking the caller: the blocking check
     * waits for the result, {@link ZarisReactiveHealthIndicator} does not. The completion runs on whichever
     * thread finished the last probe (possibly a client network thread) and only reads in-memory state.
     */
    CompletableFuture<Health.Builder> describe(Health.Builder builder) {
        ClusterView view = authoritativeView();
        return probe(view).thenApply(reachable -> describe(builder, view, reachable));
    }

    private Health.Builder describe(Health.Builder builder, ClusterView view, Map<String, Boolean> reachable) {
        Map<PartitionHealth, Integer> partitions = partitionsByState(view);
        long reachableCount = reachable.values().stream().filter(Boolean::booleanValue).count();

        builder.status(statusOf(partitions, (int) reachableCount));
        builder.withDetail("mode", embeddedCluster != null ? "embedded" : "client");
        Map<String, Integer> states = new LinkedHashMap<>();
        partitions.forEach((state, count) -> states.put(state.name(), count));
        builder.withDetail("partitions", states);
        builder.withDetail("nodes", nodes(view, reachable));
        leader(view).ifPresent(leader -> builder.withDetail("leader", leader));
        builder.withDetail("partitionMapVersion", view.partitionMap().version());
        builder.withDetail("epochSum", epochSum(view));
        builder.withDetail("rebalance", rebalance(view));
        if (routingTableWatch != null && routingTableWatch.lastPublication() != null) {
            ZarisRoutingTableWatch.Publication publication = routingTableWatch.lastPublication();
            Map<String, Object> table = new LinkedHashMap<>();
            table.put("partitionMapVersion", publication.mapVersion());
            table.put("epochSum", publication.epochSum());
            table.put("ageSeconds", routingTableWatch.age().toMillis() / 1000.0);
            builder.withDetail("routingTable", table);
        }
        if (client.options().nearCache().enabled()) {
            builder.withDetail("nearCache", nearCache(client.nearCacheStreams(), client.nearCacheStats()));
        }
        return builder;
    }

    /**
     * The near cache's detail: its segment streams by state now, the streams that moved and resumed or dropped
     * since the client connected, and what it holds. Informational: a stream that is down only sends its
     * segment's reads to the owner, so it does not change the status. A pure function.
     */
    static Map<String, Object> nearCache(NearCacheStreams streams, NearCacheStats stats) {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("live", streams.live());
        counts.put("resuming", streams.resuming());
        counts.put("down", streams.down());
        Map<String, Object> near = new LinkedHashMap<>();
        near.put("streams", counts);
        near.put("resumed", streams.resumedTotal());
        near.put("dropped", streams.droppedTotal());
        near.put("entries", stats.entries());
        near.put("bytes", stats.bytes());
        return near;
    }

    /**
     * The status for these partition counts and reachable nodes. A pure function.
     */
    static Status statusOf(Map<PartitionHealth, Integer> partitions, int reachableNodes) {
        if (reachableNodes == 0 || partitions.getOrDefault(PartitionHealth.UNAVAILABLE, 0) > 0) {
            return Status.DOWN;
        }
        if (partitions.getOrDefault(PartitionHealth.DEGRADED, 0) > 0
                || partitions.getOrDefault(PartitionHealth.RECOVERING, 0) > 0) {
            return DEGRADED;
        }
        return Status.UP;
    }

    /** Every state with its count, zeros included, in declaration order. */
    static Map<PartitionHealth, Integer> partitionsByState(ClusterView view) {
        Map<PartitionHealth, Integer> counts = new EnumMap<>(PartitionHealth.class);
        for (PartitionHealth state : PartitionHealth.values()) {
            counts.put(state, 0);
        }
        for (PartitionRuntime runtime : view.runtimeMap().partitions()) {
            counts.merge(runtime.health(), 1, Integer::sum);
        }
        return counts;
    }

    static long epochSum(ClusterView view) {
        long sum = 0;
        for (PartitionRuntime runtime : view.runtimeMap().partitions()) {
            sum += runtime.epoch();
        }
        return sum;
    }

    private ClusterView authoritativeView() {
        if (embeddedCluster != null && embeddedCluster.isRunning()) {
            List<ZarisNode> nodes = embeddedCluster.cluster().nodes();
            for (ZarisNode node : nodes) {
                if (node.isRunning() && node.isLeader() && node.currentView() != null) {
                    return node.currentView();
                }
            }
        }
        return client.clusterView();
    }

    private Optional<String> leader(ClusterView view) {
        if (embeddedCluster != null) {
            Optional<String> leading = EmbeddedNodes.leader(embeddedCluster).map(ZarisNode::nodeId);
            if (leading.isPresent()) {
                return leading;
            }
        }
        return Optional.ofNullable(view.leader());
    }

    /** The {@code rebalance} detail (see the class comment). */
    private Map<String, Object> rebalance(ClusterView view) {
        if (embeddedCluster == null || !embeddedCluster.isRunning()) {
            return rebalanceDetail(view.unsettledPartitions(), null, null);
        }
        RebalanceStatus status = EmbeddedNodes.leader(embeddedCluster).map(ZarisNode::rebalanceStatus).orElse(null);
        return rebalanceDetail(view.unsettledPartitions(), status, EmbeddedNodes.snapshotBytesSent(embeddedCluster));
    }

    /**
     * The {@code rebalance} detail. A pure function.
     *
     * @param leaderStatus      the leading embedded node's status, or {@code null} when none is known
     * @param snapshotBytesSent the running embedded nodes' sum, or {@code null} in client mode or while the embedded
     *                          cluster is stopped
     */
    static Map<String, Object> rebalanceDetail(int moving, RebalanceStatus leaderStatus, Long snapshotBytesSent) {
        Map<String, Object> rebalance = new LinkedHashMap<>();
        rebalance.put("moving", moving);
        if (leaderStatus != null) {
            rebalance.put("running", leaderStatus.running());
            rebalance.put("remaining", leaderStatus.remaining());
            rebalance.put("movesStarted", leaderStatus.movesStarted());
            rebalance.put("etaSeconds", leaderStatus.etaSeconds());
        }
        if (snapshotBytesSent != null) {
            rebalance.put("snapshotBytesSent", snapshotBytesSent);
        }
        return rebalance;
    }

    /** Node id → whether it answered; nodes that serve no partition have no key to probe and are absent. */
    private CompletableFuture<Map<String, Boolean>> probe(ClusterView view) {
        Map<String, String> probeKeys = new TreeMap<>();
        long servingNodes = view.runtimeMap().partitions().stream()
                .filter(runtime -> runtime.health().isServing())
                .map(PartitionRuntime::activeNode)
                .distinct()
                .count();
        for (int i = 0; i < PROBE_KEY_CANDIDATES && probeKeys.size() < servingNodes; i++) {
            String key = PROBE_KEY_PREFIX + i;
            String owner = client.ownerOf(key);
            if (owner != null) {
                probeKeys.putIfAbsent(owner, key);
            }
        }
        Map<String, CompletableFuture<Boolean>> probes = new TreeMap<>();
        // Past the near cache: a probe measures the round trip, and starts no segment stream.
        probeKeys.forEach((node, key) -> probes.put(node, client.read(key, NearCacheRead.BYPASS)
                .orTimeout(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .handle((value, error) -> error == null)));
        return CompletableFuture.allOf(probes.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<String, Boolean> reachable = new TreeMap<>();
            probes.forEach((node, probe) -> reachable.put(node, probe.join()));
            return reachable;
        });
    }

    private Map<String, Object> nodes(ClusterView view, Map<String, Boolean> reachable) {
        Map<String, Object> nodes = new TreeMap<>();
        view.addresses().forEach((nodeId, address) -> {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("address", address.toString());
            node.put("reachable", reachable.containsKey(nodeId) ? reachable.get(nodeId) : "not probed (serves no partition)");
            nodes.put(nodeId, node);
        });
        if (embeddedCluster != null) {
            for (ZarisNode embedded : embeddedCluster.cluster().nodes()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> node = (Map<String, Object>) nodes.computeIfAbsent(embedded.nodeId(),
                        id -> new LinkedHashMap<String, Object>());
                node.put("running", embedded.isRunning());
                if (embedded.isRunning()) {
                    node.put("leader", embedded.isLeader());
                    node.put("keys", embedded.storedEntries());
                }
            }
        }
        return nodes;
    }
}
