package io.zaris.replication;

import io.zaris.client.NodeConnection;
import io.zaris.protocol.Change;
import io.zaris.protocol.KvStatus;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.store.SegmentSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The active owner's connection to one replica node, and what it knows about that replica: which segments
 * have received a snapshot under the current epoch (only those are shipped live changes) and which
 * partitions were fully synced at which epoch.
 *
 * <p>Concurrency: sends happen under the segment's write lock (see {@code Replicator}), so each segment's
 * frames leave in revision order on this one connection. {@code syncedSegments} is written under the same
 * segment lock and read under it; {@code syncedEpochs} is only touched by the replicator's reconcile.
 */
final class ReplicaLink {

    /**
     * Snapshot chunks hold at most this many bytes of entries, or a single larger entry, so a chunk's frame is
     * never bigger than what one maximal key and value need (which the frame limit always allows).
     */
    static final long SNAPSHOT_CHUNK_BYTES = 1024 * 1024;

    final String peer;
    final NodeConnection connection;
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

    ReplicaLink(String peer, NodeConnection connection, int segmentCount) {
        this.peer = peer;
        this.connection = connection;
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

    void markSynced(int segment, boolean synced) {
        syncedSegments.set(segment, synced ? 1 : 0);
    }

    Long syncedEpoch(int partition) {
        return syncedEpochs.get(partition);
    }

    void recordSyncedEpoch(int partition, long epoch) {
        syncedEpochs.put(partition, epoch);
    }

    /** Ships changes; completes with the replica's verdict (never exceptionally). */
    CompletableFuture<Verdict> replicate(int partition, long epoch, int segment, List<Change> changes, long deadlineNanos) {
        return replicate(partition, epoch, segment, changes, deadlineNanos, 0);
    }

    /**
     * Ships changes, letting them wait up to {@code flushDelayNanos} to share a flush with later ones (see
     * {@link NodeConnection#send(java.util.function.LongFunction, io.zaris.client.ResponseReader, long, int, long, long)});
     * completes with the replica's verdict (never exceptionally).
     */
    CompletableFuture<Verdict> replicate(int partition, long epoch, int segment, List<Change> changes, long deadlineNanos,
                                         long flushDelayNanos) {
        return connection.send(id -> new Request.Replicate(id, partition, epoch, segment, changes), ReplicaLink::verdict,
                epoch, 0, deadlineNanos, flushDelayNanos).exceptionally(error -> Verdict.failed());
    }

    /** Flushes whatever changes wait for a deferred flush. */
    void flushDeferred() {
        connection.flushQueued();
    }

    /**
     * Sends a snapshot in chunks; the replica clears the segment on the first and sets the revision on the
     * last. Completes with the verdict on the last chunk.
     */
    CompletableFuture<Verdict> sendSnapshot(int partition, SegmentSnapshot snapshot, int segment, long deadlineNanos) {
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

    void close() {
        connection.close();
    }

    private static Verdict verdict(KvStatus status, io.netty.buffer.ByteBuf body) {
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
    record Verdict(KvStatus status, long value) {
        static Verdict failed() {
            return new Verdict(KvStatus.UNAVAILABLE, -1);
        }

        boolean applied() {
            return status == KvStatus.OK;
        }
    }
}
