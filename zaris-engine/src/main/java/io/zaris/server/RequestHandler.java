package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.zaris.model.AckMode;
import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.SegmentDigest;
import io.zaris.model.VersionedValue;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.MapFingerprint;
import io.zaris.protocol.PartitionState;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.protocol.SegmentDigestCodec;
import io.zaris.replication.EpochFence;
import io.zaris.replication.ReplicaSegments;
import io.zaris.replication.Replicator;
import io.zaris.replication.TakeoverGate;
import io.zaris.store.ApplyResult;
import io.zaris.store.IncrementResult;
import io.zaris.store.MultiWriteResult;
import io.zaris.store.NodeStore;
import io.zaris.store.SegmentPosition;
import io.zaris.store.ValueReader;
import io.zaris.store.WriteResult;
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
 * be turned away for being on the wrong node.
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
    private final ReplicaSegments replicaSegments;
    private final TakeoverGate gate;
    private final NodeStanding standing;
    private final MemoryGuard memoryGuard;
    /** The node's layout, to validate the partition and segment a replicated change names. */
    private final PartitionLayout layout;
    /** What operator commands do on this node. */
    private final AdminActions admin;
    /** Faults a test asked this JVM to inject; none unless a system property armed one. */
    private final TestFaults faults = TestFaults.fromSystemProperties();

    RequestHandler(String nodeId, SegmentMapper segmentMapper, NodeStore store, Supplier<ClusterView> currentView,
                   NodeStats stats, Replicator replicator, EpochFence fence, ReplicaSegments replicaSegments,
                   TakeoverGate gate, NodeStanding standing, MemoryGuard memoryGuard, AdminActions admin) {
        this.gate = gate;
        this.admin = admin;
        this.nodeId = nodeId;
        this.segmentMapper = segmentMapper;
        this.store = store;
        this.currentView = currentView;
        this.stats = stats;
        this.replicator = replicator;
        this.fence = fence;
        this.replicaSegments = replicaSegments;
        this.standing = standing;
        this.memoryGuard = memoryGuard;
        this.layout = PartitionLayout.of(segmentMapper.segmentCount(), fence.partitionCount());
        if (faults.armed()) {
            log.warn("node {} injects a test fault: {} is set", nodeId, TestFaults.DROP_INCREMENT_PROPERTY);
        }
    }

    /**
     * Handles one request and writes its response into {@code out}.
     *
     * @param routedEpoch   the partition epoch the client routed by (0 = not routed by key)
     * @param deadlineNanos when the client stops waiting, on this JVM's {@link System#nanoTime()} scale
     * @return {@link #DONE} when {@code out} holds the complete response; {@link #DROPPED} when the request
     *         was dropped unanswered because nobody waits for it any more; otherwise a future that decides
     *         the response of a SYNC write: on success {@code out} (which holds the OK response) is sent, on
     *         failure the write is refused with {@code UNAVAILABLE}
     */
    CompletableFuture<Void> handle(Request request, long routedEpoch, long deadlineNanos, ByteBuf out) {
        if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
            stats.expired();
            return DROPPED;
        }
        if (request instanceof Request.Replicate replicate) {
            applyReplicate(replicate, out);
            return DONE;
        }
        if (request instanceof Request.ReplicateBatch batch) {
            applyReplicateBatch(batch, out);
            return DONE;
        }
        if (request instanceof Request.Snapshot snapshot) {
            applySnapshot(snapshot, out);
            return DONE;
        }
        if (request instanceof Request.PartitionState state) {
            writePartitionState(state, out);
            return DONE;
        }
        if (request instanceof Request.SegmentDigests digests) {
            writeSegmentDigests(digests, out);
            return DONE;
        }
        if (request instanceof Request.Pull pull) {
            answerPull(pull, out);
            return DONE;
        }
        if (request instanceof Request.AdvanceEpoch advance) {
            applyAdvanceEpoch(advance, out);
            return DONE;
        }
        if (request instanceof Request.ClusterMap) {
            stats.mapRequest();
            writeClusterMap(request.id(), out);
            return DONE;
        }
        ClusterView view = currentView.get();
        if (request instanceof Request.MapVersion) {
            writeMapVersion(request.id(), view, out);
            return DONE;
        }
        if (request instanceof Request.AdminDrain || request instanceof Request.AdminRebalance) {
            answerAdmin(request, view, out);
            return DONE;
        }
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
        if (write && !replicator.canAcknowledge(partition, ack)) {
            stats.wrongNode();
            ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, "SYNC write to partition " + partition
                    + " refused: " + replicator.connectedReplicas(partition) + " replica(s) connected, fewer than the strict"
                    + " min-sync-replicas setting requires");
            return DONE;
        }
        if (write && MemoryGuard.addsData(request) && memoryGuard.admitWrite(partition) != KvStatus.OK) {
            stats.refusedForMemory();
            ResponseCodec.writeError(out, request.id(), KvStatus.OUT_OF_MEMORY, memoryGuard.refusalMessage());
            return DONE;
        }
        stats.served();
        CompletableFuture<Void> replicated = execute(request, segment, runtime.epoch(), ack, out);
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

    /** Replica side: applies shipped changes after the fencing checks. */
    private void applyReplicate(Request.Replicate replicate, ByteBuf out) {
        if (rejectedTarget(replicate.id(), replicate.partition(), replicate.segment(), out)
                || rejectedByFence(replicate.id(), replicate.partition(), replicate.epoch(), out)) {
            return;
        }
        ApplyResult result = applyChecked(replicate);
        ResponseCodec.writeHeader(out, replicate.id(), result.gap() ? KvStatus.OUT_OF_SYNC : KvStatus.OK);
        out.writeLong(result.appliedRevision());
    }

    /**
     * Replica side: applies each group of a batch in order as {@link #applyReplicate} would, answering
     * {@code OK · n:int32 · (status:u8 · value:int64)*n}. A group that fails a check is refused on its own
     * ({@code BAD_REQUEST} with -1, or {@code FENCED} with the newer epoch); the groups after it still apply.
     */
    private void applyReplicateBatch(Request.ReplicateBatch batch, ByteBuf out) {
        ResponseCodec.writeHeader(out, batch.id(), KvStatus.OK);
        out.writeInt(batch.groups().size());
        for (Request.Replicate group : batch.groups()) {
            if (!existingTarget(group.partition(), group.segment())) {
                stats.rejected(); // counted like a REPLICATE's; not logged, so a bad peer cannot flood the log
                out.writeByte(KvStatus.BAD_REQUEST.code());
                out.writeLong(-1);
                continue;
            }
            long newerEpoch = fencingEpoch(group.partition(), group.epoch());
            if (newerEpoch >= 0) {
                out.writeByte(KvStatus.FENCED.code());
                out.writeLong(newerEpoch);
                continue;
            }
            ApplyResult result = applyChecked(group);
            out.writeByte((result.gap() ? KvStatus.OUT_OF_SYNC : KvStatus.OK).code());
            out.writeLong(result.appliedRevision());
        }
    }

    /** Applies changes that passed the target and fencing checks, and records whether the segment is in sync. */
    private ApplyResult applyChecked(Request.Replicate replicate) {
        ApplyResult result = store.applyReplicated(replicate.segment(), replicate.changes());
        // Contiguous changes mean the segment holds everything its active owner has: every new active owner
        // starts with a snapshot to each replica (an active that stays under a new epoch carries a copy over
        // only after checking it is the one it synced), so a replica cannot be contiguous yet divergent.
        if (result.gap()) {
            replicaSegments.markUnsynced(replicate.segment());
        } else {
            replicaSegments.markSynced(replicate.segment(), replicate.epoch());
        }
        return result;
    }

    /**
     * Replica side of {@code ADVANCE_EPOCH}: the copy counts as complete under the new epoch when it is still the one
     * the asking active synced — complete under the active's old epoch (or already under the new one, by contiguous
     * changes on the same link), at exactly the active's revision, and holding no change of an epoch in between
     * (which only another active could have written). Otherwise {@code OUT_OF_SYNC} with this copy's revision, and
     * the active sends a snapshot. Answers like {@code REPLICATE}.
     */
    private void applyAdvanceEpoch(Request.AdvanceEpoch advance, ByteBuf out) {
        if (rejectedTarget(advance.id(), advance.partition(), advance.segment(), out)
                || rejectedByFence(advance.id(), advance.partition(), advance.toEpoch(), out)) {
            return;
        }
        int segment = advance.segment();
        SegmentPosition position = store.segmentPosition(segment);
        long synced = replicaSegments.syncedEpoch(segment);
        boolean sameCopy = (synced == advance.fromEpoch() || synced == advance.toEpoch())
                && position.revision() == advance.revision()
                && (position.newestEpoch() <= advance.fromEpoch() || position.newestEpoch() == advance.toEpoch());
        if (sameCopy) {
            replicaSegments.markSynced(segment, advance.toEpoch());
        }
        ResponseCodec.writeHeader(out, advance.id(), sameCopy ? KvStatus.OK : KvStatus.OUT_OF_SYNC);
        out.writeLong(position.revision());
    }

    private void applySnapshot(Request.Snapshot snapshot, ByteBuf out) {
        if (rejectedTarget(snapshot.id(), snapshot.partition(), snapshot.segment(), out)
                || rejectedByFence(snapshot.id(), snapshot.partition(), snapshot.epoch(), out)) {
            return;
        }
        if (snapshot.first()) {
            replicaSegments.markUnsynced(snapshot.segment());
        }
        store.installSnapshotChunk(snapshot.segment(), snapshot.first(), snapshot.last(), snapshot.revision(),
                snapshot.entries());
        if (snapshot.last()) {
            replicaSegments.markSynced(snapshot.segment(), snapshot.epoch());
        }
        ResponseCodec.writeHeader(out, snapshot.id(), KvStatus.OK);
        out.writeLong(store.segmentRevision(snapshot.segment()));
    }

    /**
     * Fellow-replica side of a takeover catch-up: the changes of the segment after the asker's revision,
     * but only when this copy is complete under the asker's lineage epoch — two complete copies of one
     * epoch are prefixes of the same history, so the longer one's tail is exactly what the shorter lacks.
     * Otherwise (another lineage, or a log that no longer reaches back) {@code OUT_OF_SYNC} with this
     * node's revision, so the asker can say what it could not recover.
     */
    private void answerPull(Request.Pull pull, ByteBuf out) {
        if (rejectedTarget(pull.id(), pull.partition(), pull.segment(), out)) {
            return;
        }
        int segment = pull.segment();
        // Checked before the fence observes the asker's epoch: a complete copy under the lineage stays one.
        boolean sameLineage = pull.lineageEpoch() >= 0 && replicaSegments.isSyncedUnder(segment, pull.lineageEpoch());
        if (rejectedByFence(pull.id(), pull.partition(), pull.epoch(), out)) {
            return;
        }
        if (!sameLineage) {
            ResponseCodec.writeHeader(out, pull.id(), KvStatus.OUT_OF_SYNC);
            out.writeLong(store.segmentRevision(segment));
            return;
        }
        List<Change> tail = store.retireAndReadSince(segment, pull.epoch(), pull.fromRevision());
        long revision = store.segmentRevision(segment);
        if (tail == null) {
            ResponseCodec.writeHeader(out, pull.id(), KvStatus.OUT_OF_SYNC);
            out.writeLong(revision);
            return;
        }
        List<Change> sent = tail.subList(0, TailCut.partLength(tail, pull.maxBytes()));
        ResponseCodec.writeHeader(out, pull.id(), KvStatus.OK);
        ResponseCodec.writeChangeTail(out, Math.max(revision, sent.isEmpty() ? revision : sent.get(sent.size() - 1).revision()),
                sent);
    }

    /** Found by fuzzing: a partition or segment outside the layout (or a segment of another partition). */
    private boolean rejectedTarget(long id, int partition, int segment, ByteBuf out) {
        if (existingTarget(partition, segment)) {
            return false;
        }
        stats.rejected();
        ResponseCodec.writeError(out, id, KvStatus.BAD_REQUEST,
                "segment " + segment + " of partition " + partition + " does not exist in " + layout);
        return true;
    }

    /**
     * A sender is fenced when its epoch is older than one this node has seen, or when this node itself is
     * the partition's active owner under an epoch at least as new (two actives: the older one loses).
     */
    private boolean rejectedByFence(long id, int partition, long epoch, ByteBuf out) {
        long newerEpoch = fencingEpoch(partition, epoch);
        if (newerEpoch < 0) {
            return false;
        }
        ResponseCodec.writeHeader(out, id, KvStatus.FENCED);
        out.writeLong(newerEpoch);
        return true;
    }

    private boolean existingTarget(int partition, int segment) {
        return partition >= 0 && partition < layout.partitionCount() && segment >= 0 && segment < layout.segmentCount()
                && layout.partitionOf(segment) == partition;
    }

    /** The epoch that fences a sender of {@code epoch} (see {@link #rejectedByFence}), or -1 when it is not fenced. */
    private long fencingEpoch(int partition, long epoch) {
        ClusterView view = currentView.get();
        long highest = fence.observe(partition, epoch);
        boolean selfActive = view != null && partition < view.runtimeMap().partitionCount()
                && nodeId.equals(view.runtimeMap().get(partition).activeNode())
                && view.runtimeMap().get(partition).epoch() >= epoch;
        if (epoch < highest || selfActive) {
            return Math.max(highest, selfActive ? view.runtimeMap().get(partition).epoch() : 0);
        }
        return -1;
    }

    /** What this node holds of a partition: highest epoch seen, revision sum, keys, synced segments. */
    private void writePartitionState(Request.PartitionState state, ByteBuf out) {
        ClusterView view = currentView.get();
        int partition = state.partition();
        if (view == null || partition < 0 || partition >= view.layout().partitionCount()) {
            ResponseCodec.writeError(out, state.id(), KvStatus.BAD_REQUEST, "unknown partition " + partition);
            return;
        }
        boolean active = view.runtimeMap().get(partition).isServedBy(nodeId)
                && !fence.isStale(partition, view.runtimeMap().get(partition).epoch());
        long revisions = 0;
        long keys = 0;
        int synced = 0;
        for (int segment = view.layout().firstSegmentOf(partition); segment <= view.layout().lastSegmentOf(partition); segment++) {
            revisions += store.segmentRevision(segment);
            keys += store.segmentSize(segment);
            if (active || replicaSegments.isSyncedUnder(segment, fence.highest(partition))) {
                synced++;
            }
        }
        ResponseCodec.writeHeader(out, state.id(), KvStatus.OK);
        new PartitionState(fence.highest(partition), revisions, keys, synced,
                active ? replicator.confirmedReplicas(partition) : 0).encode(out);
    }

    /** What this node holds of every segment of a partition, whatever its role there, for comparing copies. */
    private void writeSegmentDigests(Request.SegmentDigests request, ByteBuf out) {
        int partition = request.partition();
        if (partition < 0 || partition >= layout.partitionCount()) {
            ResponseCodec.writeError(out, request.id(), KvStatus.BAD_REQUEST, "unknown partition " + partition
                    + "; this node has partitions 0 to " + (layout.partitionCount() - 1));
            return;
        }
        List<SegmentDigest> digests = new ArrayList<>();
        for (int segment = layout.firstSegmentOf(partition); segment <= layout.lastSegmentOf(partition); segment++) {
            digests.add(store.segmentDigest(segment));
        }
        ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
        SegmentDigestCodec.encodeAll(digests, out);
    }

    /** Executes a data request as the active owner; returns the replication future of a write. */
    private CompletableFuture<Void> execute(Request request, int segment, long epoch, AckMode ack, ByteBuf out) {
        long id = request.id();
        // Lazy expiry: while it may write (it sees a majority), the active owner removes an expired key a read
        // finds, as a replicated removal; otherwise the key only reads as absent until the sweep removes it.
        boolean removeExpired = standing.inMajority();
        if (request instanceof Request.Get get) {
            int start = out.writerIndex();
            if (!store.read(segment, get.key(), removeExpired, epoch, new ValueResponse(out, id))) {
                out.writerIndex(start);
                ResponseCodec.writeHeader(out, id, KvStatus.NOT_FOUND);
            }
            return DONE;
        } else if (request instanceof Request.Put put) {
            return writeResult(out, id, epoch, ack, store.put(segment, put.key(), put.value(), put.ttlMillis(), put.ifAbsent(),
                    put.expectedVersion(), epoch));
        } else if (request instanceof Request.Delete delete) {
            return writeResult(out, id, epoch, ack, store.delete(segment, delete.key(), delete.expectedVersion(), epoch));
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

    /**
     * Operator commands: asked of this node and answered at once; the access check (no read-only users)
     * happened on the connection. A node without a map has no cluster to move partitions in yet.
     */
    private void answerAdmin(Request request, ClusterView view, ByteBuf out) {
        if (view == null) {
            ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, "node " + nodeId
                    + " has no cluster map yet; " + request.op() + " needs one");
            return;
        }
        if (request instanceof Request.AdminDrain) {
            String refusal = admin.drain();
            if (refusal != null) {
                ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, refusal);
                return;
            }
        } else {
            admin.rebalance();
        }
        ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
    }

    private void writeMapVersion(long id, ClusterView view, ByteBuf out) {
        if (view == null) {
            ResponseCodec.writeError(out, id, KvStatus.UNAVAILABLE, "node " + nodeId + " has no cluster map yet");
            return;
        }
        ResponseCodec.writeHeader(out, id, KvStatus.OK);
        MapFingerprint.of(view).encode(out);
    }

    private void writeClusterMap(long id, ByteBuf out) {
        ClusterView view = currentView.get();
        if (view == null) {
            ResponseCodec.writeError(out, id, KvStatus.UNAVAILABLE, "node " + nodeId + " has no cluster map yet");
            return;
        }
        ResponseCodec.writeHeader(out, id, KvStatus.OK);
        ClusterViewCodec.encode(view, out);
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
