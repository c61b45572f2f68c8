package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.zaris.model.AckMode;
import io.zaris.model.ClusterView;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.VersionedValue;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.replication.EpochFence;
import io.zaris.replication.ReplicaSegments;
import io.zaris.replication.Replicator;
import io.zaris.replication.TakeoverGate;
import io.zaris.store.HashReply;
import io.zaris.store.IncrementResult;
import io.zaris.store.WrongTypeException;
import io.zaris.store.MultiWriteResult;
import io.zaris.store.NodeStore;
import io.zaris.store.ValueReader;
import io.zaris.store.WriteResult;
import io.zaris.time.TimeSource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes one decoded data request against the store and writes the complete response frame payload.
 * The ownership check comes first for every key-addressed operation and is the only place a request can
 * be turned away for being on the wrong node. Dispatch: the requests only other nodes send (replication, pulls,
 * partition state, digests) go to {@link ReplicaRequests}; those about the node rather than a key (the cluster
 * map, its fingerprint, the operator commands) to {@link MapAndAdminRequests}; the data path stays here.
 *
 * <p>Runs on the connection's event loop; holds no state of its own beyond references to thread-safe
 * collaborators, so one instance serves every connection of a node.
 */
final class RequestHandler {

    private static final Logger log = LoggerFactory.getLogger(RequestHandler.class);

    private final String nodeId;
    private final SegmentMapper segmentMapper;
    private final NodeStore store;
    private final Supplier<ClusterView> currentView;
    private final NodeStats stats;
    private final Replicator replicator;
    private final EpochFence fence;
    private final TakeoverGate gate;
    private final NodeStanding standing;
    private final MemoryGuard memoryGuard;
    /** The cluster map, its fingerprint and the operator commands. */
    private final MapAndAdminRequests mapAndAdmin;
    /** Delivers a RESP message another node relayed to this node's subscribers; never blocks. */
    private final java.util.function.Consumer<Request.Publish> relayedPublishes;
    /** The requests only other nodes send: replica apply, snapshots, pulls, partition state and digests. */
    private final ReplicaRequests replicaRequests;
    /** The leader's fence before it publishes a planned hand-over of a partition this node serves. */
    private final HandOverFences handOverFences;
    /** The node's clock: it stamps a frame's arrival (see {@link #time()}) and judges its deadline here. */
    private final TimeSource time;
    /** Faults a test asked this JVM to inject; none unless a system property armed one. */
    private final TestFaults faults = TestFaults.fromSystemProperties();

    private RequestHandler(Builder parts) {
        this.time = parts.time;
        this.gate = parts.gate;
        this.nodeId = parts.nodeId;
        this.segmentMapper = parts.segmentMapper;
        this.store = parts.store;
        this.currentView = parts.currentView;
        this.stats = parts.stats;
        this.replicator = parts.replicator;
        this.fence = parts.fence;
        this.standing = parts.standing;
        this.memoryGuard = parts.memoryGuard;
        this.mapAndAdmin = new MapAndAdminRequests(nodeId, currentView, stats, parts.admin);
        this.relayedPublishes = parts.relayedPublishes;
        this.replicaRequests = new ReplicaRequests(nodeId,
                PartitionLayout.of(segmentMapper.segmentCount(), fence.partitionCount()), store, currentView, stats,
                replicator, fence, parts.replicaSegments);
        this.handOverFences = new HandOverFences(nodeId, currentView, fence, replicator);
        if (faults.armed()) {
            log.warn("node {} injects a test fault: {} is set", nodeId, TestFaults.DROP_INCREMENT_PROPERTY);
        }
    }

    /** A builder for the request handler of node {@code nodeId}; every part must be set before {@link Builder#build()}. */
    static Builder builder(String nodeId) {
        return new Builder(nodeId);
    }

    /**
     * The node's parts a request reaches: its clock, store, view and standing, replication and memory guard, and
     * what the operator commands act on. Set each once, then {@link #build()} (as often as a port needs a handler:
     * each is independent); a part left unset fails the build naming it. Used on the thread that starts the node.
     */
    static final class Builder {

        private final String nodeId;
        private TimeSource time;
        private SegmentMapper segmentMapper;
        private NodeStore store;
        private NodeStats stats;
        private Supplier<ClusterView> currentView;
        private NodeStanding standing;
        private Replicator replicator;
        private EpochFence fence;
        private ReplicaSegments replicaSegments;
        private TakeoverGate gate;
        private MemoryGuard memoryGuard;
        private AdminActions admin;
        private java.util.function.Consumer<Request.Publish> relayedPublishes = publish -> { };

        private Builder(String nodeId) {
            this.nodeId = required(nodeId, "nodeId");
        }

        /** The node's clock: request deadlines are stamped and judged on it. */
        Builder time(TimeSource time) {
            this.time = required(time, "time");
            return this;
        }

        /** The node's store, how keys map to its segments, and its counters. */
        Builder store(NodeStore store, SegmentMapper segmentMapper, NodeStats stats) {
            this.store = required(store, "store");
            this.segmentMapper = required(segmentMapper, "segmentMapper");
            this.stats = required(stats, "stats");
            return this;
        }

        /** The view requests are routed by, and the node's standing (majority, lease) that writes need. */
        Builder cluster(Supplier<ClusterView> currentView, NodeStanding standing) {
            this.currentView = required(currentView, "currentView");
            this.standing = required(standing, "standing");
            return this;
        }

        /** Replication: the outgoing stream, the epoch fence, the copies this node keeps and the takeover gate. */
        Builder replication(Replicator replicator, EpochFence fence, ReplicaSegments replicaSegments, TakeoverGate gate) {
            this.replicator = required(replicator, "replicator");
            this.fence = required(fence, "fence");
            this.replicaSegments = required(replicaSegments, "replicaSegments");
            this.gate = required(gate, "gate");
            return this;
        }

        /** The memory guard that refuses writes over budget. */
        Builder memoryGuard(MemoryGuard memoryGuard) {
            this.memoryGuard = required(memoryGuard, "memoryGuard");
            return this;
        }

        /** What the admin commands act on. */
        Builder admin(AdminActions admin) {
            this.admin = required(admin, "admin");
            return this;
        }

        /** Where RESP messages other nodes relay go (this node's RESP subscribers); optional, none by default. */
        Builder relayedPublishes(java.util.function.Consumer<Request.Publish> relayedPublishes) {
            this.relayedPublishes = required(relayedPublishes, "relayedPublishes");
            return this;
        }

        /** The first setter not called yet, in the order above; {@code null} when every part is set. */
        private String missingPart() {
            if (time == null) {
                return "time";
            } else if (store == null) {
                return "store";
            } else if (currentView == null) {
                return "cluster";
            } else if (replicator == null) {
                return "replication";
            } else if (memoryGuard == null) {
                return "memoryGuard";
            } else if (admin == null) {
                return "admin";
            }
            return null;
        }

        /**
         * A new handler over these parts.
         *
         * @throws IllegalStateException naming the first part not set
         */
        RequestHandler build() {
            String missing = missingPart();
            if (missing != null) {
                throw new IllegalStateException("the request handler of node " + nodeId + " needs " + missing + "(...)");
            }
            return new RequestHandler(this);
        }

        private static <T> T required(T value, String name) {
            if (value == null) {
                throw new IllegalArgumentException(name + " must not be null");
            }
            return value;
        }
    }

    /** How keys map to segments on this node. */
    SegmentMapper segmentMapper() {
        return segmentMapper;
    }

    /** The node's counters. */
    NodeStats stats() {
        return stats;
    }

    /** The clock deadlines passed to {@link #handle} are measured on; connections stamp arrivals with it. */
    TimeSource time() {
        return time;
    }

    /**
     * Handles one request and writes its response into {@code out}.
     *
     * @param routedEpoch   the partition epoch the client routed by (0 = not routed by key)
     * @param deadlineNanos when the client stops waiting, on {@link #time()} ({@link RequestDeadline#NONE}: never)
     * @return {@link #DONE} when {@code out} holds the complete response; {@link #DROPPED} when the request
     *         was dropped unanswered because nobody waits for it any more; otherwise a future that decides
     *         the response of a SYNC write: on success {@code out} (which holds the OK response) is sent, on
     *         failure the write is refused with {@code UNAVAILABLE}
     */
    CompletableFuture<Void> handle(Request request, long routedEpoch, long deadlineNanos, ByteBuf out) {
        // A request without a deadline (every RESP command, most data-port ones) costs no clock read here.
        if (deadlineNanos != RequestDeadline.NONE && RequestDeadline.passed(time.nanoTime(), deadlineNanos)) {
            stats.expired();
            return DROPPED;
        }
        if (replicaRequests.handle(request, out)) {
            return DONE;
        }
        if (request instanceof Request.HandOverFence handOverFence) {
            return handOverFences.answer(handOverFence, out);
        }
        if (mapAndAdmin.handle(request, out)) {
            return DONE;
        }
        if (request instanceof Request.Publish publish) {
            relayedPublishes.accept(publish);
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            return DONE;
        }
        ClusterView view = currentView.get();
        if (view == null) {
            stats.wrongNode();
            ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, "node " + nodeId + " has no cluster map yet");
            return DONE;
        }
        if (request instanceof Request.Scan scan) {
            stats.served();
            scan(view, scan, out);
            return DONE;
        }
        int segment = segmentOf(request);
        if (segment < 0) {
            stats.rejected();
            ResponseCodec.writeError(out, request.id(), KvStatus.BAD_REQUEST,
                    "keys of a multi-key request must share one segment; give them a common {hash tag}");
            return DONE;
        }
        int partition = view.layout().partitionOf(segment);
        PartitionRuntime runtime = view.runtimeMap().get(partition);
        boolean write = request.op().isWrite();
        OwnershipDecision.Verdict verdict = OwnershipDecision.decide(nodeId, view.partitionMap(), runtime, partition,
                new OwnershipDecision.Facts(write, routedEpoch, fence.isStale(partition, runtime.epoch()),
                        catchUpOf(partition), standing.holdsLease(), standing.inMajority()));
        if (verdict != OwnershipDecision.Verdict.SERVE) {
            stats.wrongNode();
            refuse(request.id(), verdict, view, runtime, partition, segment, out);
            return DONE;
        }
        AckMode ack = ackModeOf(request);
        if (write && replicator.isClosed()) {
            // The node is stopping and ships nothing more: applied now, the write could only be answered
            // UNACKNOWLEDGED. Refused before it is applied, it is retried on the partition's next owner.
            stats.wrongNode();
            ResponseCodec.writeError(out, request.id(), KvStatus.OWNERSHIP_CHANGING, "node " + nodeId
                    + " is stopping; nothing was written");
            return DONE;
        }
        if (write && !replicator.canAcknowledge(partition, ack)) {
            stats.wrongNode();
            ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, "SYNC write to partition " + partition
                    + " refused: " + replicator.connectedReplicas(partition) + " replica(s) connected, fewer than the strict"
                    + " min-sync-replicas setting requires");
            return DONE;
        }
        // A replica of protocol version 3 reads only string changes: beside one, a RENAME (of a string, all the gate
        // admits) ships the removals and the put it makes, not the rename change of version 4.
        boolean olderReplica = request.op() == OpCode.HASH_WRITE && !replicator.replicasKnow(partition, OpCode.HASH_WRITE);
        if (olderReplica
                && !OlderReplicaGate.admits(((Request.Hash) request).hashOp(), () -> typeOf((Request.Hash) request, segment))) {
            stats.rejected();
            ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, "hash write to partition " + partition
                    + " refused: a replica speaks a protocol version without hashes; it is accepted once every node"
                    + " is upgraded");
            return DONE;
        }
        if (write && MemoryGuard.addsData(request) && memoryGuard.admitWrite(partition) != KvStatus.OK) {
            stats.refusedForMemory();
            ResponseCodec.writeError(out, request.id(), KvStatus.OUT_OF_MEMORY, memoryGuard.refusalMessage());
            return DONE;
        }
        stats.served();
        CompletableFuture<Void> replicated = execute(request, segment, runtime.epoch(), ack, !olderReplica, out);
        // An ASYNC write is acknowledged now; its replication goes on without anyone waiting for it (its change
        // may wait for a shared flush). A SYNC write's caller waits, so its change leaves at once.
        if (ack != AckMode.SYNC) {
            return DONE;
        }
        if (write && !replicated.isDone()) {
            replicator.flushShipped(partition);
        }
        return replicated;
    }

    /**
     * Whether this node must refuse to track {@code segment} for a client that routed it here by {@code routedEpoch}:
     * only the segment's serving owner pushes its changes, so a stream on any other node would fall silent. When it
     * refuses, the refusal (the same a read gets) is written to {@code out}.
     */
    boolean refusesTracking(long requestId, int segment, long routedEpoch, ByteBuf out) {
        ClusterView view = currentView.get();
        if (view == null) {
            stats.wrongNode();
            ResponseCodec.writeError(out, requestId, KvStatus.UNAVAILABLE, "node " + nodeId + " has no cluster map yet");
            return true;
        }
        int partition = view.layout().partitionOf(segment);
        PartitionRuntime runtime = view.runtimeMap().get(partition);
        OwnershipDecision.Verdict verdict = OwnershipDecision.decide(nodeId, view.partitionMap(), runtime, partition,
                new OwnershipDecision.Facts(false, routedEpoch, fence.isStale(partition, runtime.epoch()),
                        catchUpOf(partition), standing.holdsLease(), standing.inMajority()));
        if (verdict == OwnershipDecision.Verdict.SERVE) {
            return false;
        }
        stats.wrongNode();
        refuse(requestId, verdict, view, runtime, partition, segment, out);
        return true;
    }

    private OwnershipDecision.CatchUp catchUpOf(int partition) {
        if (!gate.isCatchingUp(partition)) {
            return OwnershipDecision.CatchUp.NONE;
        }
        return gate.isPlannedHandOver(partition)
                ? OwnershipDecision.CatchUp.PLANNED_HAND_OVER : OwnershipDecision.CatchUp.AFTER_TAKEOVER;
    }

    /** Answers a request the ownership decision turned away, saying why. */
    private void refuse(long id, OwnershipDecision.Verdict verdict, ClusterView view, PartitionRuntime runtime,
                        int partition, int segment, ByteBuf out) {
        switch (verdict) {
            case CATCHING_UP, HANDING_OVER -> {
                // Just taken over: a fellow replica (or the previous active, in a planned hand-over) may hold
                // acknowledged writes this copy lacks.
                boolean planned = verdict == OwnershipDecision.Verdict.HANDING_OVER;
                ResponseCodec.writeRoutingError(out, id, verdict.status(),
                        "partition " + partition + " is catching up from its " + (planned ? "previous owner" : "other replicas")
                                + " after node " + nodeId + " took it over",
                        new RuntimeOwnershipChangedEvent(partition, runtime, view.addresses().get(nodeId)));
            }
            case LEASE_LAPSED -> ResponseCodec.writeError(out, id, verdict.status(), "node " + nodeId
                    + " has not been confirmed by the leader within its owner lease; it serves nothing until it is");
            case MINORITY_WRITE -> ResponseCodec.writeError(out, id, verdict.status(),
                    "node " + nodeId + " cannot see a majority of the cluster and does not accept writes");
            default -> {
                if (verdict == OwnershipDecision.Verdict.VIEW_BEHIND) {
                    standing.viewLooksStale();
                }
                NodeAddress activeAddress = runtime.activeNode() == null ? null : view.addresses().get(runtime.activeNode());
                String why = fence.isStale(partition, runtime.epoch())
                        ? "; node " + nodeId + " knows a newer epoch (" + fence.highest(partition) + ") and waits for its map"
                        : ", not " + nodeId;
                ResponseCodec.writeRoutingError(out, id, verdict.status(),
                        "segment " + segment + " (partition " + partition + ", epoch " + runtime.epoch() + ") is served by "
                                + runtime.activeNode() + why,
                        new RuntimeOwnershipChangedEvent(partition, runtime, activeAddress));
            }
        }
    }

    /** A write's own acknowledgement mode when it asks for one, else the node's. */
    private AckMode ackModeOf(Request request) {
        AckMode asked = null;
        if (request instanceof Request.Put put) {
            asked = put.ack();
        } else if (request instanceof Request.Delete delete) {
            asked = delete.ack();
        }
        return asked != null ? asked : replicator.ackMode();
    }

    /** The response is complete in {@code out}. */
    static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    /** The request is dropped unanswered. */
    static final CompletableFuture<Void> DROPPED = new CompletableFuture<>();

    /**
     * Executes a data request as the active owner; returns the replication future of a write.
     *
     * @param renameChanges whether every replica reads the rename change (protocol version 4), so that a RENAME ships
     *                      one; otherwise it ships the removals and writes it makes
     */
    private CompletableFuture<Void> execute(Request request, int segment, long epoch, AckMode ack, boolean renameChanges,
                                            ByteBuf out) {
        long id = request.id();
        // Lazy expiry: while it may write (it sees a majority), the active owner removes an expired key a read
        // finds, as a replicated removal; otherwise the key only reads as absent until the sweep removes it.
        boolean removeExpired = standing.inMajority();
        if (request instanceof Request.Get get) {
            int start = out.writerIndex();
            try {
                if (!store.read(segment, get.key(), removeExpired, epoch, new ValueResponse(out, id))) {
                    out.writerIndex(start);
                    ResponseCodec.writeHeader(out, id, KvStatus.NOT_FOUND);
                }
            } catch (WrongTypeException e) {
                out.writerIndex(start);
                stats.rejected();
                ResponseCodec.writeError(out, id, KvStatus.WRONG_TYPE, e.getMessage());
            }
            return DONE;
        } else if (request instanceof Request.Put put) {
            // The only writes that may ask for a mode other than the node's: replication is told which they asked for.
            return writeResult(out, id, epoch, ack, store.put(segment, put.key(), put.value(), put.ttlMillis(), put.ifAbsent(),
                    put.expectedVersion(), epoch, ack));
        } else if (request instanceof Request.Delete delete) {
            return writeResult(out, id, epoch, ack, store.delete(segment, delete.key(), delete.expectedVersion(), epoch, ack));
        } else if (request instanceof Request.Increment increment) {
            if (faults.dropThisIncrement()) {
                return acknowledgeWithoutApplying(increment, segment, epoch, ack, out);
            }
            IncrementResult result = store.increment(segment, increment.key(), increment.delta(), epoch);
            if (result.status() == KvStatus.OWNERSHIP_CHANGING) {
                return writeRetired(out, id);
            }
            if (result.status() == KvStatus.OK) {
                ResponseCodec.writeHeader(out, id, KvStatus.OK);
                out.writeLong(result.value());
                out.writeLong(result.version());
                writeAck(out, epoch, ack);
                return result.replicated();
            }
            stats.rejected();
            ResponseCodec.writeError(out, id, result.status(), result.error());
            return DONE;
        } else if (request instanceof Request.Hash hash) {
            return hashAnswer(out, id, epoch, ack, hash, store.hash(segment, hash.key(), hash.hashOp(), hash.args(), epoch,
                    renameChanges));
        } else if (request instanceof Request.Touch touch) {
            return writeResult(out, id, epoch, ack, store.touch(segment, touch.key(), touch.ttlMillis(), epoch));
        } else if (request instanceof Request.MultiGet multiGet) {
            ResponseCodec.writeHeader(out, id, KvStatus.OK);
            ResponseCodec.writeOptionalValues(out, removeExpired ? store.multiGetRemovingExpired(segment, multiGet.keys(), epoch)
                    : store.multiGet(segment, multiGet.keys()));
            return DONE;
        } else if (request instanceof Request.MultiPut multiPut) {
            MultiWriteResult result = store.multiPut(segment, multiPut.keys(), multiPut.values(), multiPut.ttlMillis(), epoch);
            if (result.status() == KvStatus.OWNERSHIP_CHANGING) {
                return writeRetired(out, id);
            }
            ResponseCodec.writeHeader(out, id, KvStatus.OK);
            ResponseCodec.writeLongs(out, result.versions());
            writeAck(out, epoch, ack);
            return result.replicated();
        } else if (request instanceof Request.MultiPutIfAbsent multiPut) {
            MultiWriteResult result = store.multiPutIfAbsent(segment, multiPut.keys(), multiPut.values(),
                    multiPut.ttlMillis(), epoch);
            if (result.status() == KvStatus.OWNERSHIP_CHANGING) {
                return writeRetired(out, id);
            }
            ResponseCodec.writeHeader(out, id, result.status());
            if (result.status() == KvStatus.OK) {
                ResponseCodec.writeLongs(out, result.versions());
                writeAck(out, epoch, ack);
            }
            return result.replicated();
        } else if (request instanceof Request.MultiDelete multiDelete) {
            MultiWriteResult result = store.multiDelete(segment, multiDelete.keys(), epoch);
            if (result.status() == KvStatus.OWNERSHIP_CHANGING) {
                return writeRetired(out, id);
            }
            ResponseCodec.writeHeader(out, id, KvStatus.OK);
            out.writeInt(result.deleted());
            writeAck(out, epoch, ack);
            return result.replicated();
        }
        stats.rejected();
        ResponseCodec.writeError(out, id, KvStatus.BAD_REQUEST, request.op() + " is not a data operation");
        return DONE;
    }

    private CompletableFuture<Void> hashAnswer(ByteBuf out, long id, long epoch, AckMode ack, Request.Hash hash,
                                               HashReply reply) {
        if (reply.status() == KvStatus.OWNERSHIP_CHANGING) {
            return writeRetired(out, id);
        }
        if (reply.status() != KvStatus.OK) {
            stats.rejected();
            ResponseCodec.writeError(out, id, reply.status(), reply.error());
            return DONE;
        }
        ResponseCodec.writeHeader(out, id, KvStatus.OK);
        ResponseCodec.writeHashAnswer(out, reply.count(), reply.items());
        if (hash.hashOp().isWrite()) {
            out.writeLong(reply.version());
            writeAck(out, epoch, ack);
        }
        return reply.replicated();
    }

    private CompletableFuture<Void> writeResult(ByteBuf out, long id, long epoch, AckMode ack, WriteResult result) {
        if (result.status() == KvStatus.OWNERSHIP_CHANGING) {
            return writeRetired(out, id);
        }
        ResponseCodec.writeHeader(out, id, result.status());
        if (result.status() != KvStatus.NOT_FOUND) {
            out.writeLong(result.version());
        }
        if (result.status() == KvStatus.OK) {
            writeAck(out, epoch, ack);
        }
        return result.replicated();
    }

    /** The segment refused the write: a node taking the partition over under a newer epoch pulled its log. */
    private CompletableFuture<Void> writeRetired(ByteBuf out, long id) {
        stats.wrongNode();
        ResponseCodec.writeError(out, id, KvStatus.OWNERSHIP_CHANGING,
                "node " + nodeId + " was just relieved of this partition by a node with a newer epoch; nothing was written");
        return DONE;
    }

    /** The acknowledgement's epoch and whether replicas applied the write before it (SYNC) or not (ASYNC). */
    /**
     * The {@link TestFaults} drop: answers an INCREMENT as if it were applied — the current value plus its delta —
     * while the store and the replicas never see it.
     */
    private CompletableFuture<Void> acknowledgeWithoutApplying(Request.Increment increment, int segment, long epoch,
                                                               AckMode ack, ByteBuf out) {
        VersionedValue current = store.get(segment, increment.key());
        long value = current == null ? 0 : Long.parseLong(new String(current.value(), StandardCharsets.US_ASCII));
        long version = current == null ? store.segmentRevision(segment) : current.version();
        log.warn("test fault {}: acknowledged an INCREMENT of key '{}' by {} without applying or replicating it",
                TestFaults.DROP_INCREMENT_PROPERTY, new String(increment.key(), StandardCharsets.UTF_8), increment.delta());
        ResponseCodec.writeHeader(out, increment.id(), KvStatus.OK);
        out.writeLong(value + increment.delta());
        out.writeLong(version);
        writeAck(out, epoch, ack);
        return DONE;
    }

    private static void writeAck(ByteBuf out, long epoch, AckMode ack) {
        ResponseCodec.writeAck(out, epoch, ack == AckMode.SYNC);
    }

    /** TYPE's answer for the key of {@code hash} in this node's copy of {@code segment}. */
    private String typeOf(Request.Hash hash, int segment) {
        HashReply type = store.hash(segment, hash.key(), HashOp.TYPE, List.of(), 0);
        return new String(type.items().get(0), StandardCharsets.US_ASCII);
    }

    /** The segment every key of the request maps to, or -1 when a multi-key request spans segments. */
    private int segmentOf(Request request) {
        if (request instanceof Request.Get get) {
            return segmentMapper.segmentOf(get.key());
        } else if (request instanceof Request.Put put) {
            return segmentMapper.segmentOf(put.key());
        } else if (request instanceof Request.Delete delete) {
            return segmentMapper.segmentOf(delete.key());
        } else if (request instanceof Request.Increment increment) {
            return segmentMapper.segmentOf(increment.key());
        } else if (request instanceof Request.Touch touch) {
            return segmentMapper.segmentOf(touch.key());
        } else if (request instanceof Request.Hash hash) {
            // LMOVE, RENAME, SMOVE, LMPOP, ZMPOP and the sorted-set algebra name further keys: all are read or changed
            // under one hold of one segment's lock, so a key of another segment is refused, whoever sent it.
            List<byte[]> others = hash.hashOp().otherKeys(hash.args());
            if (others.isEmpty()) {
                return segmentMapper.segmentOf(hash.key());
            }
            List<byte[]> keys = new ArrayList<>(others.size() + 1);
            keys.add(hash.key());
            keys.addAll(others);
            return commonSegment(keys);
        } else if (request instanceof Request.MultiGet multiGet) {
            return commonSegment(multiGet.keys());
        } else if (request instanceof Request.MultiPut multiPut) {
            return commonSegment(multiPut.keys());
        } else if (request instanceof Request.MultiPutIfAbsent multiPut) {
            return commonSegment(multiPut.keys());
        } else if (request instanceof Request.MultiDelete multiDelete) {
            return commonSegment(multiDelete.keys());
        }
        return -1;
    }

    private int commonSegment(List<byte[]> keys) {
        int segment = segmentMapper.segmentOf(keys.get(0));
        for (int i = 1; i < keys.size(); i++) {
            if (segmentMapper.segmentOf(keys.get(i)) != segment) {
                return -1;
            }
        }
        return segment;
    }

    /** Whole segments this node actively serves, from the cursor on, until {@code count} keys are collected. */
    private void scan(ClusterView view, Request.Scan scan, ByteBuf out) {
        List<byte[]> keys = new ArrayList<>();
        int segment = scan.cursor();
        int segmentCount = view.layout().segmentCount();
        while (segment < segmentCount && keys.size() < scan.count()) {
            if (view.runtimeOfSegment(segment).isServedBy(nodeId)) {
                store.collectKeys(segment, keys);
            }
            segment++;
        }
        ResponseCodec.writeHeader(out, scan.id(), KvStatus.OK);
        ResponseCodec.writeScanPage(out, segment < segmentCount ? segment : -1, keys);
    }

    /** Writes a GET's OK response straight from the value's slab slot; a discarded copy is rolled back. */
    private static final class ValueResponse implements ValueReader {
        private final ByteBuf out;
        private final long id;
        private final int start;

        ValueResponse(ByteBuf out, long id) {
            this.out = out;
            this.id = id;
            this.start = out.writerIndex();
        }

        @Override
        public void read(byte[] slab, int offset, int length, long version, long ttlRemainingMillis) {
            ResponseCodec.writeHeader(out, id, KvStatus.OK);
            ResponseCodec.writeValue(out, slab, offset, length, version, ttlRemainingMillis);
        }

        @Override
        public void discard() {
            out.writerIndex(start);
        }
    }
}
