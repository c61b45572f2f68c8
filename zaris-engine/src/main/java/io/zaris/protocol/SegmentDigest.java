package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * What one node holds of one segment, reduced to a few numbers: two copies of a segment hold the same entries
 * (key, value, version and expiry) exactly when their {@code keys} and {@code digest} agree, up to a 64-bit
 * hash collision. The digest does not depend on the order the entries were stored or iterated in.
 *
 * <pre>n:int32 · (segment:int32 · keys:int64 · revision:int64 · digest:int64)*n</pre>
 *
 * @param keys     entries held, expired ones not yet removed included (a replica removes nothing on its own)
 * @param revision the segment's last revision on this node
 * @param digest   the order-independent digest of every entry held
 */
public record SegmentDigest(int segment, long keys, long revision, long digest) {

    /** Bytes one digest takes on the wire; bounds a count before anything is allocated. */
    private static final int ENCODED_BYTES = 28;

    /** Whether the two copies hold the same entries (the revision is compared apart: see the caller). */
    public boolean sameContentAs(SegmentDigest other) {
        return keys == other.keys && digest == other.digest;
    }

    public static void encodeAll(List<SegmentDigest> digests, ByteBuf out) {
        out.writeInt(digests.size());
        for (SegmentDigest digest : digests) {
            out.writeInt(digest.segment);
            out.writeLong(digest.keys);
            out.writeLong(digest.revision);
            out.writeLong(digest.digest);
        }
    }

    public static List<SegmentDigest> decodeAll(ByteBuf in) throws MalformedRequestException {
        int count = Wire.readCount(in, in.readableBytes() / ENCODED_BYTES, 0, "segment digest count");
        List<SegmentDigest> digests = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            digests.add(new SegmentDigest(Wire.readInt(in, 0, "segment"), Wire.readLong(in, 0, "keys"),
                    Wire.readLong(in, 0, "revision"), Wire.readLong(in, 0, "digest")));
        }
        return digests;
    }
}
