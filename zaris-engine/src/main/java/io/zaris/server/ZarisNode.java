package io.zaris.server;

import io.zaris.cluster.ClusterMember;
import io.zaris.cluster.ClusterView;
import io.zaris.cluster.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.EpochFence;
import io.zaris.replication.ReplicaSegments;
import io.zaris.replication.Replicator;
import io.zaris.store.NodeStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Zaris node: its store, its data port and its seat in the cluster. The same class runs inside an
 * application's JVM ({@code EmbeddedCluster}) and as a standalone process ({@link ZarisServerMain}).
 *
 * <p>Lifecycle: {@link #start()} binds the data port first (so the announced address is real), then joins
 * the cluster; {@link #close()} leaves the cluster first (peers see a clean leave), then closes the port.
 */
public final class ZarisNode implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ZarisNode.class);

    private final NodeConfig config;
    private final NodeStore store;
    private final NodeStats stats = new NodeStats();
    private final EpochFence fence;
    private final ReplicaSegments replicaSegments;
    private final Replicator replicator;
    private NodeServer server;
    /** Set once during start; volatile because the data port reads it from event-loop threads. */
    private volatile ClusterMember member;
    private volatile boolean running;

    public ZarisNode(NodeConfig config) {
        this.config = config;
        PartitionLayout layout = config.clusterSettings().layout();
        this.fence = new EpochFence(layout.partitionCount());
        this.replicaSegments = new ReplicaSegments(layout.segmentCount());
        this.replicator = new Replicator(config.nodeId(), layout, config.replication(), fence);
        this.store = new NodeStore(layout.segmentCount(), config.timeSource(), NodeStore.DEFAULT_LOG_MAX_CHANGES,
                NodeStore.logBytesPerSegment(layout.segmentCount()), replicator);
    }

    public synchronized ZarisNode start() throws Exception {
        if (running) {
            throw new IllegalStateException("node " + config.nodeId() + " is already running");
        }
        SegmentMapper segmentMapper = new SegmentMapper(config.clusterSettings().layout().segmentCount());
        replicator.start(store, this::presentNodeIds);
        server = new NodeServer(config.nodeId(), config.host(), config.port(), config.limits(), segmentMapper, store,
                this::currentView, stats, replicator, fence, replicaSegments, this::inMajority);
        try {
            ClusterMember newMember = new ClusterMember(config.nodeId(), new NodeAddress(config.host(), server.port()),
                    config.clusterSettings(), config.membership(), config.replication(), new DataPortProbe(config.nodeId()));
            NodeServer dataPort = server;
            newMember.onViewAdopted((previous, adopted) -> {
                for (int p = 0; p < adopted.runtimeMap().partitionCount(); p++) {
                    fence.observe(p, adopted.runtimeMap().get(p).epoch());
                }
                replicator.onView(adopted);
                dataPort.push(OwnershipChanges.between(previous, adopted));
            });
            member = newMember;
            newMember.start();
        } catch (Exception e) {
            closeQuietly();
            throw e;
        }
        running = true;
        log.info("node {}: data port {}:{}, cluster '{}'", config.nodeId(), config.host(), server.port(),
                config.membership().clusterName());
        return this;
    }

    /** Waits until the node holds a partition map, i.e. it can route and serve. */
    public ClusterView awaitReady(Duration timeout) throws InterruptedException, TimeoutException {
        return member.awaitFirstView(timeout);
    }

    public String nodeId() {
        return config.nodeId();
    }

    public NodeAddress dataAddress() {
        return new NodeAddress(config.host(), server.port());
    }

    public ClusterView currentView() {
        ClusterMember seat = member;
        return seat == null ? null : seat.currentView();
    }

    /**
     * Leader only: moves the active owner of a partition to another of its assigned owners (an operator
     * and test command; failover and healing use the same runtime-map move).
     */
    public CompletableFuture<Long> handOver(int partition, String target) {
        return member.handOver(partition, target);
    }

    private java.util.Set<String> presentNodeIds() {
        ClusterMember seat = member;
        return seat == null ? java.util.Set.of() : seat.presentNodeIds();
    }

    private boolean inMajority() {
        ClusterMember seat = member;
        return seat != null && seat.inMajority();
    }

    /** Whether this node currently leads the cluster. */
    public boolean isLeader() {
        ClusterMember seat = member;
        return seat != null && seat.isLeading();
    }

    public NodeStats stats() {
        return stats;
    }

    /** Entries this node holds (all segments). */
    public long storedEntries() {
        return store.size();
    }

    public boolean isRunning() {
        return running;
    }

    @Override
    public synchronized void close() {
        if (!running) {
            return;
        }
        running = false;
        closeQuietly();
        log.info("node {}: stopped", config.nodeId());
    }

    private void closeQuietly() {
        if (member != null) {
            member.close();
        }
        replicator.close();
        if (server != null) {
            server.close();
        }
    }
}
