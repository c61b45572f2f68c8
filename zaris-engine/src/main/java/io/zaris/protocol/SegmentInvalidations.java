package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.Change;
import io.zaris.model.KvStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Changes of one segment on its active owner, pushed to the connections tracking the segment (see
 * {@link OpCode#TRACK_SEGMENT}) so their near caches drop the keys and their watchers hear of them. One frame per
 * batch of changes the segment applied together (a write, a multi-key write, an expiry sweep, an eviction round),
 * in revision order.
 *
 * <pre>
 * segment:int32 · epoch:int64 · n:int32 · (revision:int64 · removed:u8 · key:bytes) * n
 * </pre>
 *
 * @param epoch   the epoch the batch was written under (one write, one epoch): with the last revision, the
 *                position a client resumes from after a failover ({@link OpCode#TRACK_SEGMENT})
 * @param changes the changes, in revision order
 */
public record SegmentInvalidations(int segment, long epoch, List<SegmentChange> changes) {

    /** Push frame kind byte for this event. */
    public static final int PUSH_KIND = 3;
    /** Bytes of a frame besides its changes: kind, segment, epoch, count. */
    private static final int FIXED_BYTES = 1 + 4 + 8 + 4;

    public SegmentInvalidations {
        if (segment < 0) {
            throw new IllegalArgumentException("segment must be >= 0 but was " + segment);
        }
        changes = List.copyOf(changes);
    }

    /**
     * Writes the body of a push of {@code changes} of {@code segment}, straight from the changes. A rename changes two
     * keys: it is pushed as its source's removal and its destination's change, both at its revision.
     */
    public static void encode(ByteBuf out, int segment, List<Change> changes) {
        out.writeInt(segment);
        out.writeLong(changes.isEmpty() ? -1 : changes.get(changes.size() - 1).epoch());
        int count = changes.size();
        for (Change change : changes) {
            count += change.kind() == Change.Kind.RENAME ? 1 : 0;
        }
        out.writeInt(count);
        for (Change change : changes) {
            boolean rename = change.kind() == Change.Kind.RENAME;
            new SegmentChange(change.revision(), rename || change.isRemoval(), change.key()).encode(out);
            if (rename) {
                new SegmentChange(change.revision(), false, change.field()).encode(out);
            }
        }
    }

    /** Bytes {@link #encode} writes for these changes (plus the kind byte), to size the buffer once. */
    public static int encodedBytes(List<Change> changes) {
        int bytes = FIXED_BYTES;
        for (Change change : changes) {
            bytes += SegmentChange.MIN_BYTES + change.key().length;
            if (change.kind() == Change.Kind.RENAME) {
                bytes += SegmentChange.MIN_BYTES + change.field().length;
            }
        }
        return bytes;
    }

    public static SegmentInvalidations decode(ByteBuf in) throws MalformedRequestException {
        int segment = Wire.readInt(in, 0, "segment");
        if (segment < 0) {
            throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "negative segment " + segment);
        }
        long epoch = Wire.readLong(in, 0, "epoch");
        int count = Wire.readCount(in, in.readableBytes() / SegmentChange.MIN_BYTES, 0, "invalidated key count");
        List<SegmentChange> changes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            changes.add(SegmentChange.decode(in));
        }
        return new SegmentInvalidations(segment, epoch, changes);
    }
}
