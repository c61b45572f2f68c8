package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.SegmentDigest;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.PartitionState;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.SegmentDigestCodec;
import io.zaris.replication.EpochFence;
import io.zaris.replication.ReplicaSegments;
import io.zaris.replication.Replicator;
import io.zaris.store.ApplyResult;
import io.zaris.store.NodeStore;
import io.zaris.store.SegmentPosition;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The requests only other nodes send a node: shipped changes, snapshots and epoch advances from the active owner
 * of a partition this node replicates, a new owner's pulls, and the leader's and the chaos checker's questions
 * about what this node holds (partition state, segment digests). Each is checked against the layout and, where it
 * carries an epoch, against the fence, before it touches the store; the answer is written whole into {@code out}.
 *
 * <p>Runs on the connection's event loop; holds no state of its own beyond references to thread-safe
 * collaborators (the store's segments take their own locks), so one instance serves every connection of a node.
 */
final class ReplicaRequests {

    private final String nodeId;
    private final PartitionLayout layout;
    private final NodeStore store;
    private final Supplier<ClusterView> currentView;
    private final NodeStats stats;
    private final Replicator replicator;
    private final EpochFence fence;
    private final ReplicaSegments replicaSegments;

    ReplicaRequests(String nodeId, PartitionLayout layout, NodeStore store, Supplier<ClusterView> currentView,
                    NodeStats stats, Replicator replicator, EpochFence fence, ReplicaSegments replicaSegments) {
        this.nodeId = nodeId;
        this.layout = layout;
        this.store = store;
        this.currentView = currentView;
        this.stats = stats;
        this.replicator = replicator;
        this.fence = fence;
        this.replicaSegments = replicaSegments;
    }

    /** Answers {@code request} into {@code out} when it is one of these; {@code false} (nothing written) otherwise. */
    boolean handle(Request request, ByteBuf out) {
        if (request instanceof Request.Replicate replicate) {
            applyReplicate(replicate, out);
        } else if (request instanceof Request.ReplicateBatch batch) {
            applyReplicateBatch(batch, out);
        } else if (request instanceof Request.Snapshot snapshot) {
            applySnapshot(snapshot, out);
        } else if (request instanceof Request.AdvanceEpoch advance) {
            applyAdvanceEpoch(advance, out);
        } else if (request instanceof Request.Pull pull) {
            answerPull(pull, out);
        } else if (request instanceof Request.PartitionState state) {
            writePartitionState(state, out);
        } else if (request instanceof Request.SegmentDigests digests) {
            writeSegmentDigests(digests, out);
        } else {
            return false;
        }
        return true;
    }

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
        boolean sameCopy = isTheCopyTheActiveSynced(replicaSegments.syncedEpoch(segment), position, advance);
        if (sameCopy) {
            replicaSegments.markSynced(segment, advance.toEpoch());
        }
        ResponseCodec.writeHeader(out, advance.id(), sameCopy ? KvStatus.OK : KvStatus.OUT_OF_SYNC);
        out.writeLong(position.revision());
    }

    /**
     * Whether a copy at {@code position}, complete under {@code syncedEpoch} ({@code -1}: not complete), is the one the
     * active asking {@code advance} synced: see {@link #applyAdvanceEpoch}. Pure.
     */
    static boolean isTheCopyTheActiveSynced(long syncedEpoch, SegmentPosition position, Request.AdvanceEpoch advance) {
        boolean completeUnderItsLineage = syncedEpoch >= 0
                && (syncedEpoch == advance.fromEpoch() || syncedEpoch == advance.toEpoch());
        boolean noForeignEpoch = position.newestEpoch() <= advance.fromEpoch() || position.newestEpoch() == advance.toEpoch();
        return completeUnderItsLineage && position.revision() == advance.revision() && noForeignEpoch;
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
}
