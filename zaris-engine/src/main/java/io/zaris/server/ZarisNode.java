package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.cluster.ClusterMember;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.TakeoverRevisions;
import io.zaris.replication.EpochFence;
import io.zaris.replication.FellowCopies;
import io.zaris.replication.ReplicaSegments;
import io.zaris.replication.ReplicationException;
import io.zaris.replication.Replicator;
import io.zaris.replication.TakeoverGate;
import io.zaris.resp.RespBackend;
import io.zaris.resp.RespOptions;
import io.zaris.resp.RespSecurity;
import io.zaris.resp.RespServer;
import io.zaris.model.Change;
import io.zaris.store.ChangeSink;
import io.zaris.resp.RespTracking;
import io.zaris.store.MemoryReclaimer;
import io.zaris.store.NodeStore;
import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Zaris node: its store, its data port and its seat in the cluster. The same class runs inside an
 * application's JVM ({@code EmbeddedCluster}) and as a standalone process ({@link ZarisServerMain}).
 *
 * <p>Lifecycle: {@link #start()} binds the data port first (so the announced address is real), then joins
 * and the RESP listener when configured (so the announced addresses are real), then joins the cluster;
 * {@link #close()} closes the RESP listener, leaves the cluster (peers see a clean leave), then closes the port.
 */
public final class ZarisNode implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ZarisNode.class);

    /** How often a node logs its memory figures. */
    static final Duration MEMORY_REPORT_INTERVAL = Duration.ofSeconds(15);

    private final NodeConfig config;
    private final NodeStore store;
    private final NodeStats stats = new NodeStats();
    private final EpochFence fence;
    private final ReplicaSegments replicaSegments;
    private final TakeoverGate takeoverGate = new TakeoverGate();
    /**
     * Per partition, the newest takeover this node published (written by catch-up completions, read by event
     * loops welcoming clients; a concurrent map, one entry per partition at most).
     */
    private final Map<Integer, TakeoverRevisions> publishedTakeovers = new ConcurrentHashMap<>();
    private final OrphanedCopies orphanedCopies;
    private final TakeoverCatchUp takeoverCatchUp;
    private final Replicator replicator;
    private final MemoryGuard memoryGuard;
    /** The one thread that runs active expiry and background eviction ({@link MemoryGuard#maintain}). */
    private final ScheduledExecutorService memoryMaintenance;
    private NodeServer server;
    /** Volatile: read by {@link #respAddress()} from any thread. */
    private volatile RespServer respServer;
    /** Set once during start; volatile because the data port reads it from event-loop threads. */
    private volatile ClusterMember member;
    private volatile boolean running;
    /** Near-cache trackers of this node's segments; fed by the store's change sink. */
    private final SegmentSubscriptions subscriptions;
    /** RESP connections' {@code CLIENT TRACKING}; fed by the store's change sink and by installed views. */
    private final RespTracking respTracking;
    /** Relays RESP {@code PUBLISH}es made here to the other nodes' subscribers. */
    private final PeerPublishes peerPublishes;

    public ZarisNode(NodeConfig config) {
        this.orphanedCopies = new OrphanedCopies(config.nodeId());
        this.config = config;
        PartitionLayout layout = config.clusterSettings().layout();
        this.fence = new EpochFence(layout.partitionCount());
        this.replicaSegments = new ReplicaSegments(layout.segmentCount());
        this.subscriptions = new SegmentSubscriptions(config.nodeId(), layout.segmentCount());
        this.respTracking = RespTracking.create(config.nodeId(), layout.segmentCount(), this::currentView);
        this.peerPublishes = new PeerPublishes(config.nodeId(), this::currentView, config.security().nodeCredentials(),
                config.security().tls(), config.timeSource());
        FellowCopies fellowCopies = new FellowCopies();
        this.replicator = new Replicator(config.nodeId(), layout, config.replication(), fence,
                config.security().nodeCredentials(), config.security().tls(), takeoverGate, fellowCopies,
                config.timeSource());
        this.store = new NodeStore(layout.segmentCount(), config.timeSource(), NodeStore.DEFAULT_LOG_MAX_CHANGES,
                NodeStore.logBytesPerSegment(layout.segmentCount()),
                listPushes(subscriptions.before(respTracking.before(replicator))));
        subscriptions.bind(store);
        this.memoryGuard = new MemoryGuard(config.nodeId(), new MemoryReclaimer(store, config.memory()), store.memory(),
                this::currentView, fence, takeoverGate, () -> standing.inMajority() && standing.holdsLease());
        this.takeoverCatchUp = new TakeoverCatchUp(config.nodeId(), store, replicaSegments, takeoverGate, fellowCopies,
                config.security().nodeCredentials(), config.security().tls(), config.limits(), this::presentNodeIds,
                this::currentView, config.timeSource());
        this.memoryMaintenance = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "zaris-memory-" + config.nodeId());
            thread.setDaemon(true);
            return thread;
        });
    }

    public synchronized ZarisNode start() throws Exception {
        if (running) {
            throw new IllegalStateException("node " + config.nodeId() + " is already running");
        }
        SegmentMapper segmentMapper = new SegmentMapper(config.clusterSettings().layout().segmentCount());
        replicator.start(store, this::presentNodeIds, this::confirmMajority);
        RequestHandler.Builder requests = RequestHandler.builder(config.nodeId())
                .time(config.timeSource())
                .store(store, segmentMapper, stats)
                .cluster(this::currentView, standing)
                .replication(replicator, fence, replicaSegments, takeoverGate)
                .memoryGuard(memoryGuard)
                .admin(adminActions)
                .relayedPublishes(this::deliverRelayed);
        server = NodeServer.builder(config.nodeId())
                .listenOn(config.host(), config.port())
                .protocol(config.limits(), config.security(), config.outboundLimits())
                .requests(requests.build())
                .pushes(this::standingTakeovers, subscriptions)
                .bind();
        long interval = config.memory().maintenanceInterval().toMillis();
        memoryMaintenance.scheduleWithFixedDelay(this::maintainMemoryQuietly, interval, interval, TimeUnit.MILLISECONDS);
        long report = MEMORY_REPORT_INTERVAL.toMillis();
        memoryMaintenance.scheduleAtFixedRate(this::reportMemory, report, report, TimeUnit.MILLISECONDS);
        try {
            // Every listening port is bound before the node joins: peers may name it as soon as it is a member.
            startResp(requests, segmentMapper);
            ClusterMember newMember = new ClusterMember(config.nodeId(), config.advertisedAddress(server.port()),
                    config.clusterSettings(), config.membership(), config.replication(), new DataPortProbe(config.nodeId(),
                    config.security().nodeCredentials(), config.security().tls(), config.timeSource()),
                    config.security().clusterSecret(),
                    config.timeSource());
            NodeServer dataPort = server;
            newMember.onPresenceChanged(replicator::reconcileSoon);
            newMember.onViewAdopted(new ViewAdoption(config.nodeId(), fence, takeoverGate, replicaSegments,
                    takeoverCatchUp, replicator, newMember::inheritedActives,
                    (partition, adopted) -> publishTakeover(dataPort, partition, adopted), dataPort::push,
                    this::currentView));
            newMember.onViewInstalled((previous, adopted) -> {
                respTracking.viewInstalled(previous, adopted);
                RespServer resp = respServer;
                if (resp != null) {
                    resp.viewInstalled(previous, adopted);
                }
            });
            member = newMember;
            newMember.start();
        } catch (Exception e) {
            closeQuietly();
            throw e;
        }
        running = true;
        log.info("node {}: data port {}:{} (announced as {}), cluster '{}'", config.nodeId(), config.host(),
                server.port(), config.advertisedAddress(server.port()), config.membership().clusterName());
        return this;
    }

    /**
     * Opens the RESP listener. It runs every command through a {@link RequestHandler} of its own (the
     * handler holds no state; its collaborators are this node's), so a Redis client's request takes exactly
     * the data port's path. A port the options do not require is given up with a warning when taken.
     */
    private void startResp(RequestHandler.Builder requests, SegmentMapper segmentMapper) throws Exception {
        RespOptions options = config.resp();
        if (options == null) {
            return;
        }
        RequestHandler handler = requests.build();
        try {
            respServer = RespServer.start(options, new LocalBackend(handler, segmentMapper), new RespSecurity(
                    config.security(), config.outboundLimits(), stats::failedLogin, stats::slowReaderClosed), respTracking);
            log.info("node {}: Redis protocol on {}:{}", config.nodeId(), options.host(), respServer.port());
        } catch (RuntimeException e) {
            if (options.required()) {
                throw new IllegalStateException("node " + config.nodeId() + ": RESP port " + options.host() + ":"
                        + options.port() + " cannot be bound: " + e.getMessage(), e);
            }
            log.warn("node {}: RESP port {}:{} cannot be bound ({}); running without the Redis protocol",
                    config.nodeId(), options.host(), options.port(), e.toString());
        }
    }

    /**
     * Publishes what this node inherited of a partition it took over, after the catch-up (what that recovered
     * was not lost, so the revisions include it) and before the partition opens (a client learns what was lost
     * before it can read). Completes once the push is queued to every client; a push that failed is logged and
     * completes too, since the partition must not stay closed for want of it.
     */
    private CompletableFuture<Void> publishTakeover(NodeServer dataPort, int partition, ClusterView adopted) {
        try {
            List<TakeoverRevisions> inherited = inherited(List.of(partition), adopted);
            inherited.forEach(takeover -> publishedTakeovers.put(takeover.partition(), takeover));
            return dataPort.pushTakeovers(inherited).exceptionally(error -> {
                log.warn("node {}: pushing the takeover of partition {} to clients failed: {}", config.nodeId(),
                        partition, error.toString());
                return null;
            });
        } catch (RuntimeException e) {
            log.warn("node {}: publishing the takeover of partition {} failed: {}", config.nodeId(), partition,
                    e.toString());
            return CompletableFuture.completedFuture(null);
        }
    }

    /**
     * The newest takeover of each partition this node is active owner of now: what a client that connects
     * later must learn before it reads there. An older takeover than the current epoch's start is still a
     * true statement of what was lost then; a client ignores one it already knows.
     */
    private List<TakeoverRevisions> standingTakeovers() {
        ClusterView view = currentView();
        if (view == null || publishedTakeovers.isEmpty()) {
            return List.of();
        }
        List<TakeoverRevisions> standing = new ArrayList<>();
        for (TakeoverRevisions takeover : publishedTakeovers.values()) {
            int partition = takeover.partition();
            if (partition < view.runtimeMap().partitionCount()
                    && config.nodeId().equals(view.runtimeMap().get(partition).activeNode())) {
                standing.add(takeover);
            }
        }
        return standing;
    }

    /**
     * Per taken-over partition, the revision each segment held when this node's epoch began there: exact
     * even if writes of the new epoch already landed, because the store remembers where each epoch started.
     */
    private List<TakeoverRevisions> inherited(List<Integer> partitions, ClusterView adopted) {
        List<TakeoverRevisions> takeovers = new ArrayList<>(partitions.size());
        PartitionLayout layout = adopted.layout();
        for (int p : partitions) {
            long epoch = adopted.runtimeMap().get(p).epoch();
            int first = layout.firstSegmentOf(p);
            long[] revisions = new long[layout.lastSegmentOf(p) - first + 1];
            for (int i = 0; i < revisions.length; i++) {
                revisions[i] = store.segmentStartOfEpoch(first + i, epoch);
            }
            takeovers.add(new TakeoverRevisions(p, epoch, first, revisions));
            log.debug("node {}: inherited segment revisions of partition {} (epoch {}) published to clients",
                    config.nodeId(), p, epoch);
        }
        return takeovers;
    }

    /** A RESP message another node relayed: to this node's subscribers, if it has a RESP listener. */
    private void deliverRelayed(io.zaris.protocol.Request.Publish publish) {
        RespServer resp = respServer;
        if (resp != null) {
            resp.deliverRelayed(publish.channel(), publish.message());
        }
    }

    /** Where this node's RESP listener listens, or {@code null} when it has none. */
    public NodeAddress respAddress() {
        RespServer resp = respServer;
        return resp == null ? null : resp.address();
    }

    /** The RESP listener's view of this node: the data port's request path, this node's view and limits. */
    /**
     * The store's sink: tells the RESP port of every element a local write inserted into a list or scored in a sorted
     * set (clients blocked in BLPOP, BZPOPMIN and kin on its key retry), then hands the changes to {@code next}. Runs under the segment's write lock;
     * {@link RespServer#listPushed} only wakes waiters and never blocks.
     */
    private ChangeSink listPushes(ChangeSink next) {
        return next.after((segment, changes) -> {
            RespServer resp = respServer;
            if (resp != null) {
                for (int i = 0; i < changes.size(); i++) { // indexed: no iterator per write (random-access lists)
                    Change change = changes.get(i);
                    if (change.kind() == Change.Kind.LIST_INSERT || change.kind() == Change.Kind.SCORE_PUT) {
                        resp.listPushed(change.key());
                    } else if (change.kind() == Change.Kind.RENAME) { // a list or sorted set may arrive at its destination
                        resp.listPushed(change.field());
                    }
                }
            }
        });
    }

    private final class LocalBackend implements RespBackend {

        /** First capacity of a GET's response: status, version, TTL and a value of up to about 220 bytes. */
        private static final int READ_RESPONSE_BYTES = 256;
        /**
         * First capacity of any other response: a successful write's header (10 bytes), version (8) and acknowledgement
         * (9) fit; longer answers (errors with a message, multi-key results) grow it.
         */
        private static final int WRITE_RESPONSE_BYTES = 32;
        /**
         * First capacity of a collection write's response: header (10), count (8), item count (4), version (8) and
         * acknowledgement (9), so an HSET, SADD, ZADD or LPUSH answer does not grow it (a pop starts larger).
         */
        private static final int COLLECTION_WRITE_RESPONSE_BYTES = 64;
        /**
         * First capacity of a read of many items (a range, a whole collection): ZRANGE 0 9 WITHSCORES of short members
         * (about 360 bytes) fits, which from a GET's 256 grew to 512 and copied, allocating both; larger answers grow.
         */
        private static final int RANGE_RESPONSE_BYTES = 512;
        /** What {@link #executeInto} answers for a request answered at once: one shared completed future. */
        private static final CompletableFuture<Void> ANSWERED = CompletableFuture.completedFuture(null);

        private final RequestHandler handler;
        private final SegmentMapper segmentMapper;

        LocalBackend(RequestHandler handler, SegmentMapper segmentMapper) {
            this.handler = handler;
            this.segmentMapper = segmentMapper;
        }

        @Override
        public String nodeId() {
            return config.nodeId();
        }

        @Override
        public ClusterView currentView() {
            return ZarisNode.this.currentView();
        }

        @Override
        public void publishToPeers(byte[] channel, byte[] message) {
            peerPublishes.publish(channel, message);
        }

        @Override
        public long publishRelaysDropped() {
            return peerPublishes.dropped();
        }

        @Override
        public CompletableFuture<ByteBuf> execute(Request request) {
            // Sized so a read of a small value (header, version, TTL, 100-byte value) does not grow and copy it.
            ByteBuf out = Unpooled.buffer(firstCapacity(request));
            CompletableFuture<Void> outcome = handle(request, out);
            if (outcome.isDone() && !outcome.isCompletedExceptionally()) {
                return CompletableFuture.completedFuture(out);
            }
            return outcome.handle((ignored, failure) -> {
                throwIfUnacknowledged(failure);
                return out;
            });
        }

        @Override
        public CompletableFuture<Void> executeInto(Request request, ByteBuf out) {
            CompletableFuture<Void> outcome = handle(request, out);
            if (outcome.isDone() && !outcome.isCompletedExceptionally()) {
                return ANSWERED;
            }
            return outcome.handle((ignored, failure) -> {
                throwIfUnacknowledged(failure);
                return null;
            });
        }

        /** Runs the request into {@code out}; a request that throws is answered with an error there. */
        private CompletableFuture<Void> handle(Request request, ByteBuf out) {
            try {
                return handler.handle(request, 0, Long.MAX_VALUE, out);
            } catch (RuntimeException e) {
                log.error("node {}: RESP {} failed", config.nodeId(), request.op(), e);
                out.clear();
                ResponseCodec.writeError(out, request.id(), KvStatus.BAD_REQUEST, "internal error: " + e);
                return ANSWERED;
            }
        }

        /** A write applied here that its replicas did not acknowledge as required fails the RESP command. */
        private void throwIfUnacknowledged(Throwable failure) {
            if (failure != null) {
                stats.refusedByReplication();
                throw new ReplicationException(failure.getMessage() == null ? failure.toString() : failure.getMessage());
            }
        }

        /** Sized so the usual answer of the request's kind does not grow and copy the buffer. */
        private static int firstCapacity(Request request) {
            if (request instanceof Request.Get) {
                return READ_RESPONSE_BYTES;
            }
            if (request instanceof Request.Hash hash) {
                return switch (hash.hashOp()) {
                    // Many items: members and scores, elements, fields and values.
                    case ZRANGE, LRANGE, HGETALL, HKEYS, HVALS, SMEMBERS, ZCOMBINE -> RANGE_RESPONSE_BYTES;
                    // A write that answers what it took (LPOP's element): from 64 bytes it grew twice.
                    case LPOP, RPOP, LMOVE, LMPOP, SPOP, ZPOP, ZMPOP -> READ_RESPONSE_BYTES;
                    // A write's count, or a read of one or a few items (HGET's value): as a GET's value.
                    default -> hash.hashOp().isWrite() ? COLLECTION_WRITE_RESPONSE_BYTES : READ_RESPONSE_BYTES;
                };
            }
            return WRITE_RESPONSE_BYTES;
        }

        @Override
        public long servedKeys() {
            return sumOverServedSegments(store::segmentSize);
        }

        @Override
        public long servedKeysWithTtl() {
            return sumOverServedSegments(store::segmentKeysWithTtl);
        }

        /** Adds up {@code perSegment} over the segments this node serves as active owner in its current view. */
        private long sumOverServedSegments(java.util.function.IntToLongFunction perSegment) {
            ClusterView view = currentView();
            if (view == null) {
                return 0;
            }
            long total = 0;
            for (int segment = 0; segment < segmentMapper.segmentCount(); segment++) {
                if (view.runtimeOfSegment(segment).isServedBy(config.nodeId())) {
                    total += perSegment.applyAsLong(segment);
                }
            }
            return total;
        }

        @Override
        public long keysInSlot(int slot) {
            ClusterView view = currentView();
            int segment = segmentMapper.segmentOfSlot(slot);
            if (view == null || !view.runtimeOfSegment(segment).isServedBy(config.nodeId())) {
                return -1;
            }
            long keys = 0;
            for (byte[] key : segmentKeys(segment)) {
                if (SegmentMapper.slot(key) == slot) {
                    keys++;
                }
            }
            return keys;
        }

        @Override
        public ProtocolLimits limits() {
            return config.limits();
        }

        @Override
        public TimeSource time() {
            return config.timeSource();
        }

        @Override
        public Memory memory() {
            NodeMemoryStats stats = memoryStats();
            return new Memory(stats.usedBytes(), stats.maxBytes(), stats.policy().configName(), stats.evictions(),
                    stats.expirations());
        }
    }

    /** Memory maintenance thread: logs the memory figures for operators (and the soak benchmark). */
    private void reportMemory() {
        NodeMemoryStats memory = memoryStats();
        log.info("node {}: memory used {} of {} bytes ({}), {} evictions, {} expirations, {} writes refused",
                config.nodeId(), memory.usedBytes(), memory.maxBytes(), memory.policy(), memory.evictions(),
                memory.expirations(), memory.outOfMemoryRefusals());
    }

    /** Memory maintenance thread: a failed run is logged and the next one runs on schedule. */
    private void maintainMemoryQuietly() {
        try {
            memoryGuard.maintain();
            dropOrphanedCopies();
        } catch (RuntimeException e) {
            log.warn("node {}: memory maintenance failed", config.nodeId(), e);
        }
    }

    /** Memory maintenance thread: frees copies of partitions a rebalance moved off this node. */
    private void dropOrphanedCopies() {
        ClusterView view = currentView();
        if (view == null) {
            return;
        }
        PartitionLayout layout = view.layout();
        for (int partition : orphanedCopies.toDrop(view, config.timeSource().nanoTime(), p -> heldKeys(layout, p) > 0)) {
            long keys = heldKeys(layout, partition);
            for (int s = layout.firstSegmentOf(partition); s <= layout.lastSegmentOf(partition); s++) {
                replicaSegments.markUnsynced(s);
                store.dropSegment(s);
            }
            log.info("node {}: dropped its copy of partition {} ({} keys): map version {} gives it no role there",
                    config.nodeId(), partition, keys, view.partitionMap().version());
        }
    }

    private long heldKeys(PartitionLayout layout, int partition) {
        long keys = 0;
        for (int s = layout.firstSegmentOf(partition); s <= layout.lastSegmentOf(partition); s++) {
            keys += store.segmentSize(s);
        }
        return keys;
    }

    /** The node's memory figures: bytes charged against the budget, the budget, evictions and expirations. */
    public NodeMemoryStats memoryStats() {
        return new NodeMemoryStats(store.memory().usedBytes(), config.memory().maxBytes(), config.memory().policy(),
                store.memory().evictions(), store.memory().expirations(), stats.outOfMemoryRefusals());
    }

    /** Keys of one segment this node holds (live ones; whether it is active or replica for it). */
    public List<byte[]> segmentKeys(int segment) {
        List<byte[]> keys = new ArrayList<>();
        store.collectKeys(segment, keys);
        return keys;
    }

    /** Waits until the node holds a partition map, i.e. it can route and serve. */
    public ClusterView awaitReady(Duration timeout) throws InterruptedException, TimeoutException {
        return member.awaitFirstView(timeout);
    }

    /**
     * Whether every partition this node serves has an open, synced replication link to each replica that
     * membership sees: from then on a SYNC write is not refused for want of a replica.
     */
    public boolean isReplicationReady() {
        return running && replicator.isReady();
    }

    public String nodeId() {
        return config.nodeId();
    }

    /** The node's clock (its {@link NodeConfig#timeSource()}): what the node's own waits are measured on. */
    TimeSource time() {
        return config.timeSource();
    }

    /** The data address this node announces (its advertised address; the bind address without one). */
    public NodeAddress dataAddress() {
        return config.advertisedAddress(server.port());
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

    /**
     * Moves every partition off this node: the leader plans a map without it and moves its partitions a
     * bounded number at a time, each served by its current owner until the new ones are in sync.
     *
     * @return completes once the cluster's map gives this node no role (then it can stop without any
     *         failover); fails when no other node is present to take its partitions
     */
    public CompletableFuture<Void> drain() {
        return member.drain();
    }

    /**
     * The stopping thread, after a drain and before {@link #close}: keeps the RESP port open while Redis clients still
     * route commands here, answering them {@code -MOVED} to the new owners (see {@link io.zaris.resp.RespLinger}).
     * Returns at once without a RESP port, or while this node still holds a role. The data port stays open as well
     * meanwhile; the native client follows the map and needs no linger.
     */
    public void lingerOnRespPort() {
        RespServer resp = respServer;
        ClusterView view = currentView();
        if (resp == null || view == null || !AdminCommand.hasNoRole(view, nodeId())) {
            return;
        }
        try {
            resp.lingerAfterDrain(nodeId());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The rebalance this node runs as leader; {@code RebalanceStatus.IDLE} when none runs or it does not lead. */
    public io.zaris.cluster.RebalanceStatus rebalanceStatus() {
        ClusterMember seat = member;
        return seat == null ? io.zaris.cluster.RebalanceStatus.IDLE : seat.rebalanceStatus();
    }

    /** Bytes of segment snapshots this node sent to replicas (new owners in a rebalance, lagging replicas). */
    public long snapshotBytesSent() {
        return replicator.snapshotBytesSent();
    }

    /**
     * Segment copies that replicas kept under a new epoch without a snapshot, because this node stayed their active
     * (see {@code Replicator}).
     */
    public long segmentsCarriedOver() {
        return replicator.segmentsCarriedOver();
    }

    /** Segments an audit found a replica no longer counted complete after confirming them (see the replicator). */
    public long segmentsAuditedOutOfSync() {
        return replicator.segmentsAuditedOutOfSync();
    }

    /**
     * Changes this node shipped, as an active owner, that succeeded on fewer copies than their partition has
     * assigned replicas: with SYNC acknowledgements, the writes acknowledged with reduced redundancy (a replica
     * was gone, e.g. right after a node was lost, or still not synced at the ack timeout).
     */
    public long reducedRedundancyWrites() {
        return replicator.reducedRedundancyShipments();
    }

    /**
     * Replica verdicts this node's SYNC writes waited for because the replica's link was opening or its segment not
     * yet synced (a fresh cluster, a reconnect): none on healthy partitions, and never for an ASYNC write.
     */
    public long writesWaitedForReplicaLinks() {
        return replicator.shipmentsThatWaitedForReplicas();
    }

    /** Deadline tasks of such waits still queued: 0 once every wait is settled (a settled wait cancels its own). */
    public int replicaWaitDeadlinesQueued() {
        return replicator.waitDeadlinesQueued();
    }

    /** Whether {@link #drain} was called on this node. */
    public boolean isDraining() {
        ClusterMember seat = member;
        return seat != null && seat.isDraining();
    }

    /** Asks the leader to plan the map over the present nodes now (a newcomer need not wait to settle). */
    public void requestRebalance() {
        member.requestRebalance();
    }

    /** Ids of the nodes in this node's membership view that announced themselves (itself included once joined). */
    /** See {@link ClusterMember#confirmMajority}; fails while this node has no seat in a cluster. */
    private CompletableFuture<Void> confirmMajority() {
        ClusterMember seat = member;
        return seat == null ? CompletableFuture.failedFuture(new IllegalStateException("node " + config.nodeId()
                + " has not joined a cluster")) : seat.confirmMajority();
    }

    public Set<String> presentNodeIds() {
        ClusterMember seat = member;
        return seat == null ? Set.of() : seat.presentNodeIds();
    }

    /**
     * Operator commands from the data port ({@link AdminCommand} sends them): a drain starts only with another
     * node present to take the partitions, and its later failure is logged here, never thrown at a connection.
     */
    private final AdminActions adminActions = new AdminActions() {
        @Override
        public String drain() {
            Set<String> others = new HashSet<>(presentNodeIds());
            others.remove(config.nodeId());
            if (others.isEmpty()) {
                return "node " + config.nodeId() + " cannot drain: no other node is present to take its partitions";
            }
            log.info("node {}: operator asked it to drain", config.nodeId());
            ZarisNode.this.drain().whenComplete((ignored, failure) -> {
                if (failure != null) {
                    log.warn("node {}: drain failed: {}", config.nodeId(), failure.getMessage());
                }
            });
            return null;
        }

        @Override
        public void rebalance() {
            log.info("node {}: operator asked for a rebalance", config.nodeId());
            requestRebalance();
        }
    };

    /** Reads the membership seat, which exists only once the node started. */
    private final NodeStanding standing = new NodeStanding() {
        @Override
        public boolean inMajority() {
            ClusterMember seat = member;
            return seat != null && seat.inMajority();
        }

        @Override
        public boolean holdsLease() {
            ClusterMember seat = member;
            return seat != null && seat.holdsLease();
        }

        @Override
        public void viewLooksStale() {
            ClusterMember seat = member;
            if (seat != null) {
                seat.fetchNewerView();
            }
        }
    };

    /** Whether the node is ready for traffic ({@link NodeReadiness}): what the HTTP readiness probe reports. */
    NodeReadiness readiness() {
        if (!running) {
            return new NodeReadiness(false, "not running");
        }
        return NodeReadiness.evaluate(config.nodeId(), currentView(), standing.inMajority(), takeoverGate::isCatchingUp,
                replicator.isReady());
    }

    /** Whether this node currently leads the cluster. */
    public boolean isLeader() {
        ClusterMember seat = member;
        return seat != null && seat.isLeading();
    }

    /**
     * Bytes of responses this node has queued for its clients (data and RESP ports) that their sockets have
     * not taken yet: what slow readers cost the node right now.
     */
    public long pendingOutboundBytes() {
        NodeServer dataPort = server;
        RespServer resp = respServer;
        return (dataPort == null ? 0 : dataPort.pendingOutboundBytes()) + (resp == null ? 0 : resp.pendingOutboundBytes());
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

    /**
     * A partial crash: the data port, RESP listener and replication stop while the membership seat stays,
     * as when a process's data path died but its membership thread lives on. The cluster still sees the
     * node; {@link #close()} releases the seat.
     */
    /** Replicas this node, as the partition's active owner, knows hold everything it shipped. */
    int confirmedReplicas(int partition) {
        return replicator.confirmedReplicas(partition);
    }

    /** The node's store, for tests that inject a replicated change one replica received and another did not. */
    /** Whether a takeover of {@code partition} is still catching up (the gate is closed). */
    boolean isCatchingUp(int partition) {
        return takeoverGate.isCatchingUp(partition);
    }

    /** Test hook: this node no longer counts its copy of {@code segment} as complete (as after a missed change). */
    void forgetSynced(int segment) {
        replicaSegments.markUnsynced(segment);
    }

    /** Test hook: the epoch under which this node counts its copy of {@code segment} complete, {@code -1} if none. */
    long syncedEpochOf(int segment) {
        return replicaSegments.syncedEpoch(segment);
    }

    Replicator replicator() {
        return replicator;
    }

    NodeStore store() {
        return store;
    }

    synchronized void haltDataPath() {
        if (respServer != null) {
            respServer.close();
            respServer = null;
        }
        replicator.close();
        server.close();
    }

    private void closeQuietly() {
        if (respServer != null) {
            respServer.close();
            respServer = null;
        }
        peerPublishes.close();
        if (member != null) {
            member.close();
        }
        memoryMaintenance.shutdownNow();
        replicator.close();
        if (server != null) {
            server.close();
        }
    }
}
