package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.KvStatus;

/**
 * One change of a segment as tracking connections hear it: its revision (the key's new version), its key, and
 * whether it removed the key (a delete, an expiry, an eviction).
 *
 * <pre>
 * revision:int64 · removed:u8 · key:bytes
 * </pre>
 */
public record SegmentChange(long revision, boolean removed, byte[] key) {

    /** Bytes of the smallest encoding: revision, flag and an empty key's length prefix. */
    static final int MIN_BYTES = Long.BYTES + 1 + Integer.BYTES;

    void encode(ByteBuf out) {
        out.writeLong(revision);
        out.writeByte(removed ? 1 : 0);
        Wire.writeBytes(out, key);
    }

    static SegmentChange decode(ByteBuf in) throws MalformedRequestException {
        long revision = Wire.readLong(in, 0, "revision");
        if (!in.isReadable()) {
            throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "change without its removed flag");
        }
        boolean removed = in.readUnsignedByte() == 1;
        return new SegmentChange(revision, removed, Wire.readBytes(in, in.readableBytes(), 0, "changed key"));
    }
}
