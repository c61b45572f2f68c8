package io.zaris.replication;

import io.netty.buffer.ByteBuf;
import io.zaris.model.Change;
import io.zaris.model.KvStatus;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.ProtocolVersions;
import io.zaris.protocol.ReadBurst;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.store.SegmentSnapshot;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.PeerSilentException;
import io.zaris.transport.ZarisTransportException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The active owner's connection to one replica node, and what it knows about that replica: which segments
 * have received a snapshot under the current epoch (only those are shipped live changes) and which
 * partitions were fully synced at which epoch.
 *
 * <p>Live changes travel in batches ({@link ReplicationBatch}): each ship joins the link's open batch, which leaves
 * after the settings' {@code asyncFlushDelay}, when it is full, when a SYNC write's caller asks for it
 * ({@link #flushDeferred}), or just before any other frame of this link, so a snapshot or a tail never overtakes
 * changes shipped before it.
 *
 * <p>A link to a replica that negotiated a protocol version without {@code REPLICATE_BATCH} ({@link ProtocolVersions})
 * ships each group of live changes as its own {@code REPLICATE} frame instead, with the same deferred flush.
 *
 * <p>Concurrency: sends happen under the segment's write lock (see {@code Replicator}), so each segment's
 * changes join the batch, and frames leave, in revision order on this one connection. Ships of different
 * segments may come from different threads: {@code batchLock} guards the open batch, and a batch is queued on
 * the connection under it, so batches and the frames sent after them leave in the order they were closed.
 * {@code syncedSegments} is written under the segment lock and read under it; {@code syncedEpochs} is only
 * touched by the replicator's reconcile.
 */
final class ReplicaLink {

    /**
     * Snapshot chunks hold at most this many bytes of entries, or a single larger entry, so a chunk's frame is
     * never bigger than what one maximal key and value need (which the frame limit always allows).
     */
    static final long SNAPSHOT_CHUNK_BYTES = 1024 * 1024;

    final String peer;
    final NodeConnection connection;
    /**
     * The connection negotiated a protocol version with {@code REPLICATE_BATCH}; without it (a replica of an older
     * release during a rolling upgrade) live changes go one {@code REPLICATE} frame per ship and no batch opens.
     */
    private final boolean batchesKnown;
    /** The connection negotiated a protocol version with {@code ADVANCE_EPOCH}; without it every new epoch re-snapshots. */
    private final boolean advancesKnown;
    /**
     * Per segment: this node's count of foreign changes to its own copy ({@code SegmentPosition.foreignChanges})
     * when it last sent the replica a snapshot of it, {@code -1} before any. While the count is unchanged, this
     * node's copy has only grown by its own writes since, all shipped on this link: the replica's copy is then
     * a prefix of it, which {@code ADVANCE_EPOCH} relies on. Written under the segment's lock.
     */
    private final AtomicLongArray snapshotBases;
    private final AtomicIntegerArray syncedSegments;
    /**
     * Per segment: the replica answered that it applied the last snapshot or change sent to it, with no gap
     * (so it holds everything shipped so far). Unlike {@code syncedSegments} — set as soon as a snapshot is
     * sent, so that later changes follow it — this is what the leader may trust before handing the replica
     * the partition. Written by verdict callbacks and under the segment lock; a plain flag per segment.
     */
    private final AtomicIntegerArray confirmedSegments;
    private final Map<Integer, Long> syncedEpochs = new ConcurrentHashMap<>();
    /** Segments with a re-sync in flight to win back a lost confirmation (claimed and released by the replicator). */
    private final Set<Integer> resyncing = ConcurrentHashMap.newKeySet();
    private final Object batchLock = new Object();
    /** Set once by {@link #close}, before the connection closes, so failures it causes are read as local. */
    private volatile boolean closedHere;
    /** Set once by {@link #closeSuspended}: the leader said the replica serves nothing, so it is not waited for. */
    private volatile boolean peerSuspended;
    /** Changes waiting to leave together; guarded by {@code batchLock}, {@code null} when none wait. */
    private ReplicationBatch openBatch;
    /**
     * A task that sends the open batch when its delay is up is scheduled. One at a time: a batch that left because
     * it was full does not take its timer with it, so the next one leaves with it, and a link sends on a timer at
     * most once per delay however many batches fill up in between.
     */
    private final AtomicBoolean delayedSendScheduled = new AtomicBoolean();
    /** A task that sends the open batch without waiting out its delay is queued on the connection's loop. */
    private final AtomicBoolean promptSendQueued = new AtomicBoolean();
    /**
     * What {@link #flushDeferred} runs, at once or at the end of the read being handled ({@link ReadBurst}): made
     * once per link, so a burst holds each link once.
     */
    private final Runnable flushPrompt = this::queuePromptSend;
    /**
     * Bytes of live changes sent (batches, or single frames to an older replica) whose answer has not come: added by
     * the sender, taken off by the answer's callback on the connection's loop. What the owner holds for the replica
     * (frames not yet written to the socket, requests waiting for their answer, writes waiting for their verdict)
     * grows with it; past {@code backlogBound} the link is dropped (see {@link #countSent}).
     */
    private final AtomicLong unansweredBytes = new AtomicLong();
    private final long backlogBound;
    /** The close for a backlog past the bound is queued: once per link. */
    private final AtomicBoolean backlogCloseQueued = new AtomicBoolean();

    /** @param backlogBound bytes of live changes the replica may leave unanswered before the link is dropped */
    ReplicaLink(String peer, NodeConnection connection, int segmentCount, long backlogBound) {
        this.peer = peer;
        this.connection = connection;
        this.backlogBound = backlogBound;
        this.batchesKnown = ProtocolVersions.knows(connection.protocolVersion(), OpCode.REPLICATE_BATCH);
        this.advancesKnown = ProtocolVersions.knows(connection.protocolVersion(), OpCode.ADVANCE_EPOCH);
        this.snapshotBases = new AtomicLongArray(segmentCount);
        for (int s = 0; s < segmentCount; s++) {
            snapshotBases.set(s, -1);
        }
        this.syncedSegments = new AtomicIntegerArray(segmentCount);
        this.confirmedSegments = new AtomicIntegerArray(segmentCount);
    }

    /** Records the replica's verdict on the latest snapshot or change of the segment. */
    void confirm(int segment, boolean applied) {
        confirmedSegments.set(segment, applied ? 1 : 0);
    }

    /** Claims the segment for a re-sync; {@code false} when one is already in flight. */
    boolean startResync(int segment) {
        return resyncing.add(segment);
    }

    void endResync(int segment) {
        resyncing.remove(segment);
    }

    boolean isConfirmed(int segment) {
        return isSynced(segment) && confirmedSegments.get(segment) == 1;
    }

    /** The replica missed a change of the segment: it needs a new snapshot under the partition's epoch. */
    void lostTrack(int partition, int segment) {
        markSynced(segment, false);
        confirmedSegments.set(segment, 0);
        syncedEpochs.remove(partition);
    }

    boolean isOpen() {
        return connection.isOpen();
    }

    boolean isSynced(int segment) {
        return syncedSegments.get(segment) == 1;
    }

    /**
     * {@code false}: a snapshot of the segment is about to be sent. Its earlier confirmation goes too, so the
     * segment counts as confirmed only once the replica answered that snapshot (or a later change).
     */
    void markSynced(int segment, boolean synced) {
        syncedSegments.set(segment, synced ? 1 : 0);
        if (!synced) {
            confirmedSegments.set(segment, 0);
        }
    }

    /** Whether the replica's protocol version has {@code op} (and the change kinds that came with it). */
    boolean knows(OpCode op) {
        return ProtocolVersions.knows(connection.protocolVersion(), op);
    }

    /** Whether the replica understands {@code ADVANCE_EPOCH} (see {@link #advanceEpoch}). */
    boolean advancesEpochs() {
        return advancesKnown;
    }

    /** A snapshot of the segment is being sent, taken when this node's copy had seen {@code foreignChanges}. */
    void snapshotTaken(int segment, long foreignChanges) {
        snapshotBases.set(segment, foreignChanges);
    }

    /**
     * Whether this node's copy of the segment, now at {@code foreignChanges}, has only grown by its own writes since
     * the last snapshot this link sent of it.
     */
    boolean sameCopySinceSnapshot(int segment, long foreignChanges) {
        long base = snapshotBases.get(segment);
        return base >= 0 && base == foreignChanges;
    }

    /**
     * Asks the replica to count its copy of the segment as complete under {@code toEpoch} (see
     * {@code OpCode.ADVANCE_EPOCH}); sent after everything shipped before it. Completes with the replica's verdict
     * (never exceptionally): {@code OK}, or {@code OUT_OF_SYNC} when its copy is not the one this node synced.
     */
    CompletableFuture<Verdict> advanceEpoch(int partition, int segment, long fromEpoch, long toEpoch, long revision,
                                            long deadlineNanos) {
        sendOpenBatch();
        return connection.send(id -> new Request.AdvanceEpoch(id, partition, segment, fromEpoch, toEpoch, revision),
                ReplicaLink::verdict, toEpoch, 0, deadlineNanos).exceptionally(this::verdictOfFailure);
    }

    Long syncedEpoch(int partition) {
        return syncedEpochs.get(partition);
    }

    void recordSyncedEpoch(int partition, long epoch) {
        syncedEpochs.put(partition, epoch);
    }

    /** Ships changes as a frame of their own, at once (a catch-up's tail); completes with the replica's verdict. */
    CompletableFuture<Verdict> replicate(int partition, long epoch, int segment, List<Change> changes, long deadlineNanos) {
        sendOpenBatch();
        return connection.send(id -> new Request.Replicate(id, partition, epoch, segment, changes), ReplicaLink::verdict,
                epoch, 0, deadlineNanos).exceptionally(this::verdictOfFailure);
    }

    /**
     * Ships live changes in the open batch, which leaves at the latest {@code flushDelayNanos} after it opened (0:
     * once the connection's event loop gets to it); a full batch leaves at once but waits for the same flush.
     * {@code verdict} hears the replica's verdict on the changes, once (a failure is a verdict too). They are encoded
     * before this returns.
     */
    void replicateBatched(int partition, long epoch, int segment, List<Change> changes, long deadlineNanos,
                          long flushDelayNanos, VerdictListener verdict) {
        if (!batchesKnown) {
            // The replica speaks a protocol without REPLICATE_BATCH: one frame per ship, the same deferred flush.
            long bytes = changeBytes(changes);
            countSent(bytes);
            connection.send(id -> new Request.Replicate(id, partition, epoch, segment, changes), ReplicaLink::verdict,
                    epoch, 0, deadlineNanos, flushDelayNanos).whenComplete((answer, error) -> countAnswered(bytes))
                    .exceptionally(this::verdictOfFailure).thenAccept(verdict::onVerdict);
            return;
        }
        synchronized (batchLock) {
            if (openBatch != null && !openBatch.accepts(changes)) {
                sendBatch(flushDelayNanos);
            }
            if (openBatch == null) {
                openBatch = new ReplicationBatch(connection.alloc(), deadlineNanos);
                if (delayedSendScheduled.compareAndSet(false, true)) {
                    connection.onEventLoop(() -> {
                        delayedSendScheduled.set(false);
                        sendOpenBatchAndFlush();
                    }, flushDelayNanos);
                }
            }
            openBatch.add(partition, epoch, segment, changes, verdict);
            if (openBatch.isFull()) {
                sendBatch(flushDelayNanos);
            }
        }
    }

    /**
     * What hears a replica's verdict on one shipment of live changes ({@link #replicateBatched}): called once, on the
     * thread that learned it (the link's event loop when the answer or the connection's failure arrives, the caller's
     * when the link was closed from this side).
     */
    @FunctionalInterface
    interface VerdictListener {
        void onVerdict(Verdict verdict);
    }

    /**
     * Has the open batch and every frame waiting for a deferred flush leave as soon as the connection's event
     * loop gets to it: a SYNC write's caller waits for them. Writes handled in the same read share it: asked for while
     * a {@link ReadBurst} is open on this thread, the send is queued when the burst closes, after the read's writes
     * joined the batch.
     */
    void flushDeferred() {
        ReadBurst.flushAtEnd(flushPrompt);
    }

    private void queuePromptSend() {
        if (promptSendQueued.compareAndSet(false, true)) {
            connection.onEventLoop(() -> {
                promptSendQueued.set(false);
                sendOpenBatchAndFlush();
            }, 0);
        }
    }

    private void sendOpenBatchAndFlush() {
        sendOpenBatch();
        connection.flushQueued();
    }

    /** Queues the open batch, if any, ahead of whatever this link sends next. */
    private void sendOpenBatch() {
        synchronized (batchLock) {
            if (openBatch != null) {
                sendBatch(0);
            }
        }
    }

    /** Caller holds {@code batchLock} and there is an open batch: queues it on the connection; none is open after. */
    private void sendBatch(long flushDelayNanos) {
        ReplicationBatch batch = openBatch;
        openBatch = null;
        ByteBuf frame = batch.close();
        int bytes = frame.readableBytes();
        countSent(bytes);
        connection.sendPrepared(frame, OpCode.REPLICATE_BATCH, ReplicaLink::verdicts, batch.answerDeadlineNanos(),
                flushDelayNanos).whenComplete((answers, error) -> {
                    countAnswered(bytes);
                    if (error == null) {
                        batch.settle(answers);
                    } else {
                        batch.settleFailed(verdictOfFailure(error));
                    }
                });
    }

    /**
     * Counts live changes sent. Past the bound, the replica has left that much unanswered (it is paused, starved or
     * behind a congested link) and the link closes as one to a node that does not keep up: what waits on it fails as
     * not known to be applied, the replicator counts the replica silent, and it re-syncs the replica on a new link
     * once the replica answers a handshake again. Without the bound an owner under a fast writer held every change for
     * a paused replica until its heap ran out. Snapshots are not counted: a re-sync sends each segment's once, its
     * chunks bounded by the entries the segment holds, and counting them would close the link a re-sync needs.
     */
    private void countSent(long bytes) {
        long unanswered = unansweredBytes.addAndGet(bytes);
        if (unanswered > backlogBound && connection.isOpen() && backlogCloseQueued.compareAndSet(false, true)) {
            // Closed from the loop's queue, never here: the sender may hold the batch lock and a segment's lock, and
            // closing fails waiting requests, whose callbacks may take such locks.
            connection.onEventLoop(() -> connection.closeAsUnresponsive("replica " + peer + " left " + unanswered
                    + " bytes of changes unanswered (bound " + backlogBound + "); it is re-synced once it answers"
                    + " again"), 0);
        }
    }

    private void countAnswered(long bytes) {
        unansweredBytes.addAndGet(-bytes);
    }

    private static long changeBytes(List<Change> changes) {
        long bytes = 0;
        for (int i = 0; i < changes.size(); i++) {
            bytes += changes.get(i).sizeBytes();
        }
        return bytes;
    }

    /**
     * Sends a snapshot in chunks; the replica clears the segment on the first and sets the revision on the
     * last. Completes with the verdict on the last chunk.
     */
    CompletableFuture<Verdict> sendSnapshot(int partition, SegmentSnapshot snapshot, int segment, long deadlineNanos) {
        sendOpenBatch();
        List<List<Change>> chunks = chunks(snapshot.entries(), SNAPSHOT_CHUNK_BYTES);
        CompletableFuture<Verdict> lastVerdict = null;
        for (int i = 0; i < chunks.size(); i++) {
            boolean first = i == 0;
            boolean last = i == chunks.size() - 1;
            List<Change> entries = chunks.get(i);
            lastVerdict = connection.send(id -> new Request.Snapshot(id, partition, snapshot.epoch(), segment,
                            snapshot.revision(), first, last, entries), ReplicaLink::verdict, snapshot.epoch(), 0, deadlineNanos)
                    .exceptionally(error -> Verdict.failed());
        }
        return lastVerdict;
    }

    /**
     * Cuts entries into chunks of at most {@code maxChunkBytes} ({@link Change#sizeBytes()}), in order; an entry
     * bigger than that travels alone. Always at least one chunk (an empty segment's snapshot is one empty chunk).
     */
    static List<List<Change>> chunks(List<Change> entries, long maxChunkBytes) {
        List<List<Change>> chunks = new ArrayList<>();
        List<Change> chunk = new ArrayList<>();
        long bytes = 0;
        for (Change entry : entries) {
            if (!chunk.isEmpty() && bytes + entry.sizeBytes() > maxChunkBytes) {
                chunks.add(chunk);
                chunk = new ArrayList<>();
                bytes = 0;
            }
            chunk.add(entry);
            bytes += entry.sizeBytes();
        }
        chunks.add(chunk);
        return chunks;
    }

    /**
     * Closes the link from this side (this node stops, or the replica is no longer needed). Changes in flight on
     * it then count as not known to be applied, never as "replica gone": the replica did not go anywhere, and
     * a stopping owner must not take its own closing links for the crash of every replica.
     */
    void close() {
        closedHere = true;
        synchronized (batchLock) {
            if (openBatch != null) {
                openBatch.discard();
                openBatch = null;
            }
        }
        connection.close();
    }

    /**
     * Closes the link because the leader suspended the replica (a member without an owner lease: it serves nothing,
     * and the leader promotes and heals nothing to it until it renews, after which it gets a full sync). Changes in
     * flight on it count as "replica gone", as for a crashed one: nothing waits for it any more.
     */
    void closeSuspended() {
        peerSuspended = true;
        close();
    }

    /** The verdict of a send on this link that failed with {@code error}: see {@link Verdict#ofFailure} and {@link #close}. */
    private Verdict verdictOfFailure(Throwable error) {
        if (peerSuspended) {
            return Verdict.gone();
        }
        return closedHere ? Verdict.failed() : Verdict.ofFailure(error);
    }

    /** A REPLICATE_BATCH answer: {@code OK · n:int32 · (status:u8 · value:int64)*n}, one per group in order. */
    private static List<Verdict> verdicts(KvStatus status, ByteBuf body) {
        if (status != KvStatus.OK) {
            ResponseCodec.readMessage(body);
            return List.of(); // every group is not known to be applied
        }
        int count = body.readInt();
        if (count == 1) {
            return List.of(groupVerdict(body)); // a SYNC write sent alone: no list grown for one verdict
        }
        List<Verdict> verdicts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            verdicts.add(groupVerdict(body));
        }
        return verdicts;
    }

    /** One group's {@code status:u8 · value:int64} of a REPLICATE_BATCH answer. */
    private static Verdict groupVerdict(ByteBuf body) {
        KvStatus groupStatus = KvStatus.fromCode(body.readUnsignedByte());
        long value = body.readLong();
        return groupStatus == null ? Verdict.failed() : new Verdict(groupStatus, value);
    }

    private static Verdict verdict(KvStatus status, ByteBuf body) {
        if (status == KvStatus.OK) {
            return new Verdict(KvStatus.OK, body.readLong());
        }
        if (status == KvStatus.OUT_OF_SYNC || status == KvStatus.FENCED) {
            return new Verdict(status, body.readLong());
        }
        ResponseCodec.readMessage(body);
        return new Verdict(status, -1);
    }

    /**
     * A replica's answer: {@code OK} with its applied revision; {@code OUT_OF_SYNC} with the revision to
     * catch up from; {@code FENCED} with the newer epoch it knows; anything else (including a lost
     * connection) means the change is not known to be applied.
     */
    record Verdict(KvStatus status, long value, boolean replicaGone) {

        Verdict(KvStatus status, long value) {
            this(status, value, false);
        }

        /** No answer in time, or an answer this node could not read: the replica may or may not hold the change. */
        static Verdict failed() {
            return new Verdict(KvStatus.UNAVAILABLE, -1);
        }

        /** The connection to the replica closed before it answered: the replica is gone (crashed, stopped, cut). */
        static Verdict gone() {
            return new Verdict(KvStatus.UNAVAILABLE, -1, true);
        }

        /**
         * The verdict of a send that failed with {@code error} instead of an answer: a lost connection means the
         * replica is gone, but one closed because the replica fell silent does not (it may be cut off with a
         * majority that promotes it), so nothing is acknowledged without it unless a majority is proven.
         */
        static Verdict ofFailure(Throwable error) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof PeerSilentException) {
                return failed();
            }
            return cause instanceof ZarisTransportException ? gone() : failed();
        }

        boolean applied() {
            return status == KvStatus.OK;
        }

        boolean fenced() {
            return status == KvStatus.FENCED;
        }
    }
}
