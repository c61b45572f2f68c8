package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.Change;
import io.zaris.model.KvStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Keys of one segment that changed on its active owner, pushed to the connections tracking the segment
 * (see {@link OpCode#TRACK_SEGMENTS}) so their near caches drop them. One frame per batch of changes the
 * segment applied together (a write, a multi-key write, an expiry sweep, an eviction round), in revision
 * order; the keys of a frame are listed in the order they changed.
 *
 * <pre>
 * segment:int32 · epoch:int64 · n:int32 · (revision:int64 · key:bytes) * n
 * </pre>
 *
 * @param epoch     the epoch the batch was written under (one write, one epoch): with the last revision, the
 *                  position a client resumes from after a failover ({@link OpCode#TRACK_SEGMENT})
 * @param revisions the segment revision of each key's change, index for index with {@code keys}
 */
public record SegmentInvalidations(int segment, long epoch, long[] revisions, List<byte[]> keys) {

    /** Push frame kind byte for this event. */
    public static final int PUSH_KIND = 3;
    /** Bytes of a frame besides its keys: kind, segment, count. */
    private static final int FIXED_BYTES = 1 + 4 + 8 + 4;

    public SegmentInvalidations {
        if (segment < 0) {
            throw new IllegalArgumentException("segment must be >= 0 but was " + segment);
        }
        if (revisions.length != keys.size()) {
            throw new IllegalArgumentException(revisions.length + " revisions for " + keys.size() + " keys");
        }
        keys = List.copyOf(keys);
    }

    /** Writes the body of a push of {@code changes} of {@code segment}, straight from the changes. */
    public static void encode(ByteBuf out, int segment, List<Change> changes) {
        out.writeInt(segment);
        out.writeLong(changes.isEmpty() ? -1 : changes.get(changes.size() - 1).epoch());
        out.writeInt(changes.size());
        for (Change change : changes) {
            out.writeLong(change.revision());
            Wire.writeBytes(out, change.key());
        }
    }

    /** Bytes {@link #encode} writes for these changes (plus the kind byte), to size the buffer once. */
    public static int encodedBytes(List<Change> changes) {
        int bytes = FIXED_BYTES;
        for (Change change : changes) {
            bytes += Long.BYTES + Integer.BYTES + change.key().length;
        }
        return bytes;
    }

    public static SegmentInvalidations decode(ByteBuf in) throws MalformedRequestException {
        int segment = Wire.readInt(in, 0, "segment");
        if (segment < 0) {
            throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "negative segment " + segment);
        }
        long epoch = Wire.readLong(in, 0, "epoch");
        // every key costs at least its revision and length prefix
        int count = Wire.readCount(in, in.readableBytes() / (Long.BYTES + Integer.BYTES), 0, "invalidated key count");
        long[] revisions = new long[count];
        List<byte[]> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            revisions[i] = Wire.readLong(in, 0, "revision");
            keys.add(Wire.readBytes(in, in.readableBytes(), 0, "invalidated key"));
        }
        return new SegmentInvalidations(segment, epoch, revisions, keys);
    }
}
