package io.zaris.store;

import io.zaris.protocol.VersionedValue;
import java.util.List;

/**
 * A node's data: one {@link Segment} per segment of the cluster layout, whether or not this node owns it
 * right now (ownership is the server's decision, not the store's). Methods take the segment index the
 * caller already computed with the shared {@code SegmentMapper}; multi-key methods require that every
 * key belongs to that segment.
 *
 * <p>Thread-safe: see {@link Segment} for the per-segment write order.
 */
public final class NodeStore {

    private final Segment[] segments;
    private final TimeSource time;

    public NodeStore(int segmentCount, TimeSource time) {
        if (segmentCount < 1) {
            throw new IllegalArgumentException("segmentCount must be >= 1 but was " + segmentCount);
        }
        this.segments = new Segment[segmentCount];
        for (int i = 0; i < segmentCount; i++) {
            segments[i] = new Segment();
        }
        this.time = time;
    }

    public VersionedValue get(int segment, byte[] key) {
        return segments[segment].get(key, time.currentTimeMillis());
    }

    public WriteResult put(int segment, byte[] key, byte[] value, long ttlMillis, boolean ifAbsent, long expectedVersion) {
        return segments[segment].put(key, value, ttlMillis, ifAbsent, expectedVersion, time.currentTimeMillis());
    }

    public WriteResult delete(int segment, byte[] key, long expectedVersion) {
        return segments[segment].delete(key, expectedVersion, time.currentTimeMillis());
    }

    public IncrementResult increment(int segment, byte[] key, long delta) {
        return segments[segment].increment(key, delta, time.currentTimeMillis());
    }

    public WriteResult touch(int segment, byte[] key, long ttlMillis) {
        return segments[segment].touch(key, ttlMillis, time.currentTimeMillis());
    }

    public List<VersionedValue> multiGet(int segment, List<byte[]> keys) {
        return segments[segment].multiGet(keys, time.currentTimeMillis());
    }

    public long[] multiPut(int segment, List<byte[]> keys, List<byte[]> values, long ttlMillis) {
        return segments[segment].multiPut(keys, values, ttlMillis, time.currentTimeMillis());
    }

    public int multiDelete(int segment, List<byte[]> keys) {
        return segments[segment].multiDelete(keys, time.currentTimeMillis());
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
    public long segmentRevision(int segment) {
        return segments[segment].revision();
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
