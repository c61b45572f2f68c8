package io.zaris.store;

import io.zaris.model.AckMode;
import io.zaris.model.HashOp;
import io.zaris.model.Change;
import io.zaris.model.SegmentDigest;
import io.zaris.model.VersionedValue;
import io.zaris.time.TimeSource;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A node's data: one {@link Segment} per segment of the cluster layout, whether or not this node owns it
 * right now (ownership is the server's decision, not the store's). Methods take the segment index the
 * caller already computed with the shared {@code SegmentMapper}; multi-key methods require that every
 * key belongs to that segment. Writes take the partition epoch under which they are made; it travels
 * with the change to the replicas, which use it for fencing.
 *
 * <p>Thread-safe: see {@link Segment} for the per-segment write order.
 */
public final class NodeStore {

    /**
     * Changes each segment's op log retains at most. The log keeps each change's key and revision, not its
     * value (a tail reads values back from the store, see {@code Segment#tailSince}); a replica further behind
     * than this in a segment gets that segment's snapshot instead (a segment is about a thousandth of a node's
     * data with the default layout).
     */
    public static final int DEFAULT_LOG_MAX_CHANGES = 128;
    /**
     * Bytes all op logs of a node retain at most together (keys and bookkeeping; values stay in the store): a
     * sixteenth of the heap, at most 64 MiB. Split evenly across segments; a replica further behind than its
     * segment's share is caught up by snapshot.
     */
    public static final long DEFAULT_LOG_BUDGET_BYTES = Math.min(64L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 16);

    private final Segment[] segments;
    private final TimeSource time;
    private final StoreMemory memory = new StoreMemory();

    public NodeStore(int segmentCount, TimeSource time) {
        this(segmentCount, time, DEFAULT_LOG_MAX_CHANGES, logBytesPerSegment(segmentCount), ChangeSink.NONE);
    }

    /** The default op log budget split across {@code segmentCount} segments (at least 4 KiB each). */
    public static long logBytesPerSegment(int segmentCount) {
        return Math.max(4096, DEFAULT_LOG_BUDGET_BYTES / Math.max(1, segmentCount));
    }

    public NodeStore(int segmentCount, TimeSource time, int logMaxChanges, long logMaxBytes, ChangeSink sink) {
        if (segmentCount < 1) {
            throw new IllegalArgumentException("segmentCount must be >= 1 but was " + segmentCount);
        }
        if (logMaxChanges < 1 || logMaxBytes < 1) {
            throw new IllegalArgumentException("op log limits must be positive");
        }
        this.segments = new Segment[segmentCount];
        for (int i = 0; i < segmentCount; i++) {
            segments[i] = new Segment(i, logMaxChanges, logMaxBytes, sink, memory);
        }
        this.time = time;
    }

    /** A read that leaves an expired entry in place (it reads as absent). */
    /** Subscribes a near-cache tracker of {@code segment} and tells it where it starts (see {@link Segment#track}). */
    public TrackStart track(int segment, long sinceRevision, long sinceEpoch, Runnable subscribe) {
        return segments[segment].track(sinceRevision, sinceEpoch, subscribe);
    }

    public VersionedValue get(int segment, byte[] key) {
        return segments[segment].get(key, time.currentTimeMillis());
    }

    /**
     * The active owner's read under {@code epoch}: an expired entry it finds is removed as a replicated
     * removal, so lazy expiry frees memory on the owner and its replicas alike.
     */
    public VersionedValue getRemovingExpired(int segment, byte[] key, long epoch) {
        return segments[segment].getRemovingExpired(key, epoch, time.currentTimeMillis());
    }

    /**
     * A read that hands the value to {@code reader} in place (one copy, into wherever the reader writes it):
     * with {@code removeExpired}, as {@link #getRemovingExpired} under {@code epoch}, else as {@link #get}.
     *
     * @return {@code false} when the key is absent or expired ({@code reader} was not called, or was told to
     *         {@link ValueReader#discard} what it read)
     */
    public boolean read(int segment, byte[] key, boolean removeExpired, long epoch, ValueReader reader) {
        return segments[segment].read(key, removeExpired, epoch, time.currentTimeMillis(), reader);
    }

    public WriteResult put(int segment, byte[] key, byte[] value, long ttlMillis, boolean ifAbsent, long expectedVersion) {
        return put(segment, key, value, ttlMillis, ifAbsent, expectedVersion, 0);
    }

    public WriteResult put(int segment, byte[] key, byte[] value, long ttlMillis, boolean ifAbsent, long expectedVersion,
                           long epoch) {
        return segments[segment].put(key, value, ttlMillis, ifAbsent, expectedVersion, epoch, time.currentTimeMillis(),
                null);
    }

    /**
     * A put whose writer waits for its replication as {@code ack} says, whatever the node's acknowledgement mode (see
     * {@link ChangeSink#ship(int, List, AckMode)}).
     */
    public WriteResult put(int segment, byte[] key, byte[] value, long ttlMillis, boolean ifAbsent, long expectedVersion,
                           long epoch, AckMode ack) {
        return segments[segment].put(key, value, ttlMillis, ifAbsent, expectedVersion, epoch, time.currentTimeMillis(),
                Objects.requireNonNull(ack, "ack"));
    }

    public WriteResult delete(int segment, byte[] key, long expectedVersion) {
        return delete(segment, key, expectedVersion, 0);
    }

    public WriteResult delete(int segment, byte[] key, long expectedVersion, long epoch) {
        return segments[segment].delete(key, expectedVersion, epoch, time.currentTimeMillis(), null);
    }

    /** A delete whose writer waits for its replication as {@code ack} says, whatever the node's acknowledgement mode. */
    public WriteResult delete(int segment, byte[] key, long expectedVersion, long epoch, AckMode ack) {
        return segments[segment].delete(key, expectedVersion, epoch, time.currentTimeMillis(),
                Objects.requireNonNull(ack, "ack"));
    }

    public IncrementResult increment(int segment, byte[] key, long delta) {
        return increment(segment, key, delta, 0);
    }

    public IncrementResult increment(int segment, byte[] key, long delta, long epoch) {
        return segments[segment].increment(key, delta, epoch, time.currentTimeMillis());
    }

    public WriteResult touch(int segment, byte[] key, long ttlMillis) {
        return touch(segment, key, ttlMillis, 0);
    }

    public WriteResult touch(int segment, byte[] key, long ttlMillis, long epoch) {
        return segments[segment].touch(key, ttlMillis, epoch, time.currentTimeMillis());
    }

    /**
     * A hash operation (or {@link HashOp#TYPE}) on {@code key}; a write is made as the active owner under
     * {@code epoch}. See {@link HashOp} for arguments and answers.
     */
    public HashReply hash(int segment, byte[] key, HashOp op, List<byte[]> args, long epoch) {
        return hash(segment, key, op, args, epoch, true);
    }

    /**
     * {@link #hash(int, byte[], HashOp, List, long)}, saying whether a RENAME ships one rename change
     * ({@code renameChanges}: every replica reads that change) or the removals and writes it makes.
     */
    public HashReply hash(int segment, byte[] key, HashOp op, List<byte[]> args, long epoch, boolean renameChanges) {
        return HashCommands.execute(segments[segment], key, op, args, epoch, time.currentTimeMillis(), renameChanges);
    }

    public List<VersionedValue> multiGet(int segment, List<byte[]> keys) {
        return segments[segment].multiGet(keys, time.currentTimeMillis());
    }

    /** {@link #getRemovingExpired} for each key of one segment. */
    public List<VersionedValue> multiGetRemovingExpired(int segment, List<byte[]> keys, long epoch) {
        return segments[segment].multiGetRemovingExpired(keys, epoch, time.currentTimeMillis());
    }

    public MultiWriteResult multiPut(int segment, List<byte[]> keys, List<byte[]> values, long ttlMillis, long epoch) {
        return segments[segment].multiPut(keys, values, ttlMillis, epoch, time.currentTimeMillis());
    }

    /** Writes all entries only when none of the keys exists ({@code CONFLICT} and nothing written otherwise). */
    public MultiWriteResult multiPutIfAbsent(int segment, List<byte[]> keys, List<byte[]> values, long ttlMillis,
                                             long epoch) {
        return segments[segment].multiPutIfAbsent(keys, values, ttlMillis, epoch, time.currentTimeMillis());
    }

    public MultiWriteResult multiDelete(int segment, List<byte[]> keys, long epoch) {
        return segments[segment].multiDelete(keys, epoch, time.currentTimeMillis());
    }

    /** Replica side: applies changes shipped by the segment's active owner, in order. */
    public ApplyResult applyReplicated(int segment, List<Change> changes) {
        return segments[segment].applyReplicated(changes, time.currentTimeMillis());
    }

    /** Replica side: installs one chunk of a segment snapshot from its active owner (first clears, last sets revision). */
    public void installSnapshotChunk(int segment, boolean first, boolean last, long revision, List<Change> chunk) {
        segments[segment].installSnapshotChunk(first, last, revision, chunk, time.currentTimeMillis());
    }

    /**
     * Active side: under the segment's write lock, hands over either the op log tail after
     * {@code fromRevision} or (when the log does not reach back that far, or {@code fromRevision < 0})
     * a full snapshot.
     */
    public void catchUp(int segment, long fromRevision, long epoch, Consumer<List<Change>> tail,
                        Consumer<SegmentSnapshot> snapshot) {
        segments[segment].catchUp(fromRevision, epoch, tail, snapshot, time.currentTimeMillis());
    }

    /**
     * The segment's logged changes after {@code fromRevision}, in order; {@code null} when its log no longer
     * reaches back that far. Read under the segment's write lock.
     */
    public List<Change> changesSince(int segment, long fromRevision) {
        return segments[segment].changesSince(fromRevision);
    }

    /** Drops the segment's whole copy: this node no longer has any role in its partition. */
    public void dropSegment(int segment) {
        segments[segment].drop();
    }

    /**
     * Active side of a takeover pull: the segment refuses this node's own writes of epochs below
     * {@code epoch} from now on, and the returned tail (as {@link #changesSince}) holds every one it accepted.
     */
    public List<Change> retireAndReadSince(int segment, long epoch, long fromRevision) {
        return segments[segment].retireAndReadSince(epoch, fromRevision);
    }

    /**
     * Old active side of a planned hand-over: the segment refuses this node's own writes of epochs below
     * {@code epoch}, as after a pull, until {@link #liftHandOverFence} (see {@code Segment#fenceForHandOver}).
     */
    public void fenceForHandOver(int segment, long epoch) {
        segments[segment].fenceForHandOver(epoch);
    }

    /** Takes back a hand-over fence that no pull made real: the hand-over was not published in time. */
    public void liftHandOverFence(int segment, long epoch) {
        segments[segment].liftHandOverFence(epoch);
    }

    /** Appends the live keys of one segment to {@code out}. */
    public void collectKeys(int segment, List<byte[]> out) {
        segments[segment].collectKeys(out, time.currentTimeMillis());
    }

    public int segmentCount() {
        return segments.length;
    }

    /** Entries held in one segment (expired entries not yet removed included). */
    public int segmentSize(int segment) {
        return segments[segment].size();
    }

    /** The last revision of a segment: the version its most recent change received. */
    /**
     * The revision a segment had before its first change of {@code epoch}: for a node that became active
     * under {@code epoch}, the history it inherited. {@code -1} when too old to be remembered.
     */
    public long segmentStartOfEpoch(int segment, long epoch) {
        return segments[segment].startOfEpoch(epoch);
    }

    /** Bytes the segment's op log retains (keys and bookkeeping). */
    long opLogBytes(int segment) {
        return segments[segment].logBytes();
    }

    public long segmentRevision(int segment) {
        return segments[segment].revision();
    }

    /**
     * Where a segment's copy stands, read at one instant. Reentrant: may be called from inside a
     * {@link #catchUp} consumer, which holds the segment's write lock, to read the position its snapshot or tail
     * was taken at.
     */
    public SegmentPosition segmentPosition(int segment) {
        return segments[segment].position();
    }

    /**
     * Active side: runs {@code action} under the segment's write lock with its position, so whatever the action
     * enqueues on a replica link precedes every later change of the segment (as {@link #catchUp} does).
     */
    public void atPosition(int segment, Consumer<SegmentPosition> action) {
        segments[segment].atPosition(action);
    }

    /** A digest of everything one segment holds, to compare its copies on different nodes. */
    public SegmentDigest segmentDigest(int segment) {
        return segments[segment].digest();
    }

    /** Bytes charged for one segment's entries ({@link EntrySize}). */
    public long segmentBytes(int segment) {
        return segments[segment].bytes();
    }

    /** Keys with a TTL held in one segment (expired ones not yet removed included). */
    public int segmentKeysWithTtl(int segment) {
        return segments[segment].keysWithTtl();
    }

    /** The node's memory figures: bytes charged, evictions, expirations. */
    public StoreMemory memory() {
        return memory;
    }

    Segment segment(int segment) {
        return segments[segment];
    }

    TimeSource time() {
        return time;
    }

    /** Entries held across all segments. */
    public long size() {
        long total = 0;
        for (Segment segment : segments) {
            total += segment.size();
        }
        return total;
    }
}
