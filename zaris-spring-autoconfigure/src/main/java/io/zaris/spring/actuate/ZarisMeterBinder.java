package io.zaris.spring.actuate;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.zaris.client.ZarisClient;
import io.zaris.cluster.RebalanceStatus;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.server.ZarisNode;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster and node meters (the client's own {@code zaris.client.*} meters come from the engine's
 * {@code MicrometerClientMetrics}):
 * <ul>
 * <li>{@code zaris.partitions{state}} — partitions per state in the client's routing view;</li>
 * <li>{@code zaris.cluster.nodes} — nodes in that view;</li>
 * <li>{@code zaris.rebalance.partitions.moving} — partitions in that view not HEALTHY on their preferred
 * primary: moving in a rebalance, or degraded by a failure;</li>
 * <li>embedded mode only, from the leading node's {@link ZarisNode#rebalanceStatus()}:
 * {@code zaris.rebalance.partitions.remaining} (partitions whose owners still differ from the planned map,
 * the moving ones included; 0 when no rebalance runs) and {@code zaris.rebalance.eta} (seconds until the
 * rebalance is estimated to finish; NaN when none runs or its pace is not known yet). Both read NaN while no
 * running embedded node leads;</li>
 * <li>embedded mode only: {@code zaris.memory.entries} (entries held by all running embedded nodes,
 * replica copies included) and {@code zaris.memory.estimated} (bytes, an estimate: those entries times the
 * mean key-plus-value size of the entries this application wrote ({@link EntrySizeSample}) plus
 * {@link #ENTRY_OVERHEAD_BYTES} each — the store's own count per node is {@code zaris.node.memory.used});</li>
 * <li>embedded mode only, per node ({@code node} tag): {@code zaris.node.keys} (entries held),
 * {@code zaris.node.requests.served}, {@code zaris.node.requests.wrong.node},
 * {@code zaris.node.requests.rejected}, {@code zaris.node.requests.expired}, {@code zaris.node.memory.used},
 * {@code zaris.node.memory.budget}, {@code zaris.node.evictions}, {@code zaris.node.expirations},
 * {@code zaris.node.writes.refused.memory}, {@code zaris.node.snapshot.bytes.sent} (bytes of segment
 * snapshots the node sent to replicas: new owners in a rebalance, restarted or lagging replicas),
 * {@code zaris.node.writes.reduced.redundancy} (writes acknowledged on fewer copies than assigned, e.g. while a
 * lost node's partitions get their replacement replicas).</li>
 * </ul>
 * Meters are read on scrape; a closed client or stopped node (for the rebalance gauges: no running leader)
 * reads as NaN rather than failing the scrape.
 * Per-node meters follow the nodes: those of a node added after start-up ({@code EmbeddedCluster#addNode})
 * are registered within {@link #NODE_WATCH_INTERVAL} by a watcher thread, and a restarted node (a new
 * instance under the same id) is read through the same meters. Nodes never leave the embedded cluster's list
 * (a stopped one stays, to be restarted), so meters are never removed; a stopped node's gauges read NaN.
 *
 * <p><b>Threads.</b> {@code registries}, {@code boundNodes}, {@code nodeWatcher} and {@code closed} are guarded by
 * this binder's monitor: {@code bindTo} runs on the thread that binds (Boot's, at start-up), {@code bindNewNodes}
 * also on the {@code zaris-node-meters} thread; meter reads run on whatever thread scrapes and touch none of them.
 */
public final class ZarisMeterBinder implements MeterBinder, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ZarisMeterBinder.class);

    /** How often the watcher looks for embedded nodes without meters. */
    static final Duration NODE_WATCH_INTERVAL = Duration.ofSeconds(2);

    /**
     * Assumed bookkeeping bytes per stored entry beyond its key and value (map node, entry object with
     * version and expiry, array headers), for the memory estimate. A round figure for a 64-bit JVM with
     * compressed references, not a measurement.
     */
    public static final int ENTRY_OVERHEAD_BYTES = 96;

    private final ZarisClient client;
    private final ZarisEmbeddedClusterLifecycle embeddedCluster;
    private final EntrySizeSample entrySizes;
    private final List<MeterRegistry> registries = new ArrayList<>();
    /** Node ids whose meters each registry has. */
    private final Map<MeterRegistry, Set<String>> boundNodes = new IdentityHashMap<>();
    private ScheduledExecutorService nodeWatcher;
    private boolean closed;

    /**
     * @param embeddedCluster the embedded cluster, or {@code null} in client mode
     * @param entrySizes      sizes of the entries this application writes, for the memory estimate
     */
    public ZarisMeterBinder(ZarisClient client, ZarisEmbeddedClusterLifecycle embeddedCluster,
                            EntrySizeSample entrySizes) {
        this.client = client;
        this.embeddedCluster = embeddedCluster;
        this.entrySizes = entrySizes;
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        for (PartitionHealth state : PartitionHealth.values()) {
            Gauge.builder("zaris.partitions", client, safely(c -> count(c.clusterView(), state)))
                    .description("Partitions per state in the client's routing view")
                    .tag("state", state.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        Gauge.builder("zaris.cluster.nodes", client, safely(c -> c.clusterView().addresses().size()))
                .description("Nodes in the client's routing view")
                .register(registry);
        Gauge.builder("zaris.rebalance.partitions.moving", client, safely(c -> c.clusterView().unsettledPartitions()))
                .description("Partitions not HEALTHY on their preferred primary in the client's routing view:"
                        + " moving in a rebalance or degraded by a failure")
                .register(registry);
        if (client.options().nearCache().enabled()) {
            bindNearCache(registry);
        }
        if (embeddedCluster == null) {
            return;
        }
        Gauge.builder("zaris.rebalance.partitions.remaining", embeddedCluster,
                        leaderStatus(status -> status.remaining()))
                .description("Partitions whose owners still differ from the planned map, the moving ones included"
                        + " (0 when no rebalance runs)")
                .register(registry);
        Gauge.builder("zaris.rebalance.eta", embeddedCluster, leaderStatus(ZarisMeterBinder::etaSeconds))
                .description("Estimated time until the running rebalance finishes (NaN when none runs or its pace"
                        + " is not known yet)")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("zaris.memory.entries", embeddedCluster, ZarisMeterBinder::embeddedEntries)
                .description("Entries held by the running embedded nodes, replica copies included")
                .register(registry);
        Gauge.builder("zaris.memory.estimated", embeddedCluster,
                        cluster -> entrySizes.estimateBytes((long) embeddedEntries(cluster), ENTRY_OVERHEAD_BYTES))
                .description("Estimated bytes held by the embedded nodes: entries times the mean size of the"
                        + " entries this application wrote plus a fixed per-entry overhead")
                .baseUnit("bytes")
                .register(registry);
        registries.add(registry);
        bindNewNodes();
        startWatchingNodes();
    }

    /**
     * Registers the per-node meters of every embedded node that has none yet, in every registry this binder
     * is bound to. Runs at bind time and then every {@link #NODE_WATCH_INTERVAL} on the watcher thread.
     */
    synchronized void bindNewNodes() {
        if (embeddedCluster == null || closed) {
            return;
        }
        for (ZarisNode node : embeddedCluster.cluster().nodes()) {
            for (MeterRegistry registry : registries) {
                if (boundNodes.computeIfAbsent(registry, r -> new HashSet<>()).add(node.nodeId())) {
                    bindNode(registry, node.nodeId());
                }
            }
        }
    }

    /** Stops the node watcher; the meters stay registered and read NaN once their nodes are gone. */
    @Override
    public synchronized void close() {
        closed = true;
        if (nodeWatcher != null) {
            nodeWatcher.shutdownNow();
        }
    }

    private synchronized void startWatchingNodes() {
        if (embeddedCluster == null || nodeWatcher != null || closed) {
            return;
        }
        nodeWatcher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "zaris-node-meters");
            thread.setDaemon(true);
            return thread;
        });
        long interval = NODE_WATCH_INTERVAL.toMillis();
        nodeWatcher.scheduleWithFixedDelay(() -> {
            try {
                bindNewNodes();
            } catch (RuntimeException e) {
                // The cluster may be closing; the next round tries again.
                log.debug("could not bind the meters of new embedded nodes: {}", e.toString());
            }
        }, interval, interval, TimeUnit.MILLISECONDS);
    }

    /**
     * The meters of one node, tagged with its id. They read the node that has this id <em>now</em>, so a
     * restarted node (a new instance under the same id) is measured, not its stopped predecessor. The state
     * object is the cluster bean, which outlives the meters (gauges hold their state weakly).
     */
    private void bindNode(MeterRegistry registry, String nodeId) {
        Tags tags = Tags.of("node", nodeId);
        ZarisEmbeddedClusterLifecycle cluster = embeddedCluster;
        Gauge.builder("zaris.node.keys", cluster, running(nodeId, ZarisNode::storedEntries))
                .description("Entries held by the node").tags(tags).register(registry);
        FunctionCounter.builder("zaris.node.requests.served", cluster, node(nodeId, n -> n.stats().requestsServed()))
                .description("Data requests answered as the active owner").tags(tags).register(registry);
        FunctionCounter.builder("zaris.node.requests.wrong.node", cluster, node(nodeId, n -> n.stats().wrongNodeReplies()))
                .description("Requests answered with MOVED, OWNERSHIP_CHANGING, REPLICA_WRITE_REJECTED"
                        + " or UNAVAILABLE").tags(tags).register(registry);
        FunctionCounter.builder("zaris.node.requests.rejected", cluster, node(nodeId, n -> n.stats().rejectedRequests()))
                .description("Requests answered with a request error").tags(tags).register(registry);
        FunctionCounter.builder("zaris.node.requests.expired", cluster, node(nodeId, n -> n.stats().expiredRequests()))
                .description("Requests dropped because their deadline had passed").tags(tags).register(registry);
        Gauge.builder("zaris.node.memory.used", cluster, running(nodeId, n -> n.memoryStats().usedBytes()))
                .description("Bytes charged for the node's entries (keys, values, per-entry overhead estimate)")
                .baseUnit("bytes").tags(tags).register(registry);
        Gauge.builder("zaris.node.memory.budget", cluster, running(nodeId, n -> n.memoryStats().maxBytes()))
                .description("The node's memory budget").baseUnit("bytes").tags(tags).register(registry);
        FunctionCounter.builder("zaris.node.evictions", cluster, node(nodeId, n -> n.memoryStats().evictions()))
                .description("Keys evicted by the node to stay within its memory budget").tags(tags).register(registry);
        FunctionCounter.builder("zaris.node.expirations", cluster, node(nodeId, n -> n.memoryStats().expirations()))
                .description("Keys removed because their TTL passed (active sweep, or a read of the active owner)")
                .tags(tags).register(registry);
        FunctionCounter.builder("zaris.node.writes.refused.memory", cluster,
                        node(nodeId, n -> n.memoryStats().outOfMemoryRefusals()))
                .description("Writes refused with OUT_OF_MEMORY").tags(tags).register(registry);
        FunctionCounter.builder("zaris.node.snapshot.bytes.sent", cluster, node(nodeId, ZarisNode::snapshotBytesSent))
                .description("Bytes of segment snapshots the node sent to replicas (new owners in a rebalance,"
                        + " restarted or lagging replicas)")
                .baseUnit("bytes").tags(tags).register(registry);
        FunctionCounter.builder("zaris.node.writes.reduced.redundancy", cluster,
                        node(nodeId, ZarisNode::reducedRedundancyWrites))
                .description("Writes the node acknowledged on fewer copies than their partition has assigned (a"
                        + " replica was gone or still syncing)")
                .tags(tags).register(registry);
    }

    /** Reads the node of that id as it is now; NaN when there is none (the cluster closed). */
    private static ToDoubleFunction<ZarisEmbeddedClusterLifecycle> node(String nodeId, ToDoubleFunction<ZarisNode> read) {
        return cluster -> {
            try {
                return read.applyAsDouble(cluster.cluster().node(nodeId));
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        };
    }

    /** Like {@link #node}, but NaN while the node is stopped. */
    private static ToDoubleFunction<ZarisEmbeddedClusterLifecycle> running(String nodeId,
                                                                          ToDoubleFunction<ZarisNode> read) {
        return node(nodeId, n -> n.isRunning() ? read.applyAsDouble(n) : Double.NaN);
    }

    /** Entries held by running nodes; 0 while the cluster is stopped. */
    static double embeddedEntries(ZarisEmbeddedClusterLifecycle cluster) {
        if (!cluster.isRunning()) {
            return 0;
        }
        long entries = 0;
        for (ZarisNode node : cluster.cluster().nodes()) {
            if (node.isRunning()) {
                entries += node.storedEntries();
            }
        }
        return entries;
    }

    /** A running rebalance's ETA in seconds; NaN when none runs or the leader does not know it yet. */
    static double etaSeconds(RebalanceStatus status) {
        return status.running() && status.etaSeconds() >= 0 ? status.etaSeconds() : Double.NaN;
    }

    /** Reads the leading embedded node's rebalance status; NaN while no running node leads. */
    private static ToDoubleFunction<ZarisEmbeddedClusterLifecycle> leaderStatus(ToDoubleFunction<RebalanceStatus> read) {
        return cluster -> {
            try {
                return EmbeddedNodes.leader(cluster)
                        .map(leader -> read.applyAsDouble(leader.rebalanceStatus()))
                        .orElse(Double.NaN);
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        };
    }

    /** The client's near cache: reads answered locally apart from those that went to the owner, and its size. */
    private void bindNearCache(MeterRegistry registry) {
        FunctionCounter.builder("zaris.client.near.cache.requests", client, c -> c.nearCacheStats().hits())
                .description("Reads the client's near cache answered (hit) or passed to the key's owner (miss)")
                .tag("result", "hit").register(registry);
        FunctionCounter.builder("zaris.client.near.cache.requests", client, c -> c.nearCacheStats().misses())
                .description("Reads the client's near cache answered (hit) or passed to the key's owner (miss)")
                .tag("result", "miss").register(registry);
        FunctionCounter.builder("zaris.client.near.cache.invalidations", client, c -> c.nearCacheStats().invalidations())
                .description("Keys dropped from the near cache because their owner pushed a change or this client wrote them")
                .register(registry);
        FunctionCounter.builder("zaris.client.near.cache.evictions", client, c -> c.nearCacheStats().evictions())
                .description("Entries dropped from the near cache to keep its bounds")
                .register(registry);
        FunctionCounter.builder("zaris.client.near.cache.streams", client, c -> c.nearCacheStats().resumedStreams())
                .description("Segment streams that moved to a new owner, epoch or connection: resumed from the last "
                        + "revision heard (entries kept) or dropped (the segment's entries dropped)")
                .tag("result", "resumed").register(registry);
        FunctionCounter.builder("zaris.client.near.cache.streams", client, c -> c.nearCacheStats().droppedStreams())
                .description("Segment streams that moved to a new owner, epoch or connection: resumed from the last "
                        + "revision heard (entries kept) or dropped (the segment's entries dropped)")
                .tag("result", "dropped").register(registry);
        Gauge.builder("zaris.client.near.cache.entries", client, c -> c.nearCacheStats().entries())
                .description("Entries the near cache holds")
                .register(registry);
        Gauge.builder("zaris.client.near.cache.size", client, c -> c.nearCacheStats().bytes())
                .description("Bytes the near cache holds: keys, values and per-entry bookkeeping")
                .baseUnit("bytes").register(registry);
    }

    private static double count(ClusterView view, PartitionHealth state) {
        return view.runtimeMap().partitions().stream().filter(runtime -> runtime.health() == state).count();
    }

    private static ToDoubleFunction<ZarisClient> safely(ToDoubleFunction<ZarisClient> read) {
        return c -> {
            try {
                return read.applyAsDouble(c);
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        };
    }

}
