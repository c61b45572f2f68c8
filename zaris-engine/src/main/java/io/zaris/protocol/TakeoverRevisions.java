package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.KvStatus;

/**
 * What a node that just became a partition's active owner inherited: per segment of the partition, the
 * highest revision it held when its epoch began. Pushed to its clients, so a client can tell which of its
 * acknowledged ASYNC writes of an older epoch fell into the loss window: those above the inherited
 * revision of their segment. No peer has to report the loss; the survivor's own history says it.
 *
 * <pre>
 * partition:int32 · epoch:int64 · first segment:int32 · n:int32 · revision:int64 * n   (-1 = not known)
 * </pre>
 */
public record TakeoverRevisions(int partition, long epoch, int firstSegment, long[] revisions) {

    /** Push frame kind byte for this event. */
    public static final int PUSH_KIND = 2;
    public static final long UNKNOWN = -1;

    public void encode(ByteBuf out) {
        out.writeInt(partition);
        out.writeLong(epoch);
        out.writeInt(firstSegment);
        ResponseCodec.writeLongs(out, revisions);
    }

    public static TakeoverRevisions decode(ByteBuf in) throws MalformedRequestException {
        int partition = Wire.readInt(in, 0, "partition");
        long epoch = Wire.readLong(in, 0, "epoch");
        int firstSegment = Wire.readInt(in, 0, "first segment");
        long[] revisions = ResponseCodec.readLongs(in);
        if (partition < 0 || firstSegment < 0) {
            throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "invalid takeover revisions");
        }
        return new TakeoverRevisions(partition, epoch, firstSegment, revisions);
    }

    /** The revision inherited for {@code segment}, {@link #UNKNOWN} when not known or not of this partition. */
    public long inheritedRevision(int segment) {
        int index = segment - firstSegment;
        return index < 0 || index >= revisions.length ? UNKNOWN : revisions[index];
    }
}
