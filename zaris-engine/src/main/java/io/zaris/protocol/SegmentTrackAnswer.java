package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.KvStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The answer to {@link OpCode#TRACK_SEGMENT}: where the connection's stream of the segment starts, and whether it
 * resumed from the position the client gave.
 *
 * <pre>
 * resumed:u8 · revision:int64 · epoch:int64 · n:int32 · (revision:int64 · removed:u8 · key:bytes) * n
 * </pre>
 *
 * @param resumed  whether the node's history holds the client's position and every change after it; when not,
 *                 the client drops what it kept of the segment (and tells its watchers they missed changes)
 * @param revision the segment's revision when the connection subscribed; every later change is pushed
 * @param epoch    the epoch of the change at {@code revision}, {@code -1} when the node does not remember it
 * @param changes  the changes after the client's position up to {@code revision}, in revision order (empty unless
 *                 resumed)
 */
public record SegmentTrackAnswer(boolean resumed, long revision, long epoch, List<SegmentChange> changes) {

    public SegmentTrackAnswer {
        changes = List.copyOf(changes);
    }

    public void encode(ByteBuf out) {
        out.writeByte(resumed ? 1 : 0);
        out.writeLong(revision);
        out.writeLong(epoch);
        out.writeInt(changes.size());
        for (SegmentChange change : changes) {
            change.encode(out);
        }
    }

    public static SegmentTrackAnswer decode(ByteBuf in) throws MalformedRequestException {
        if (!in.isReadable()) {
            throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "track answer without its resumed flag");
        }
        boolean resumed = in.readUnsignedByte() == 1;
        long revision = Wire.readLong(in, 0, "revision");
        long epoch = Wire.readLong(in, 0, "epoch");
        int count = Wire.readCount(in, in.readableBytes() / SegmentChange.MIN_BYTES, 0, "change count");
        List<SegmentChange> changes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            changes.add(SegmentChange.decode(in));
        }
        return new SegmentTrackAnswer(resumed, revision, epoch, changes);
    }
}
