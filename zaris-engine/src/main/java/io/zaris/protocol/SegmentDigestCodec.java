package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.SegmentDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of a {@code SEGMENT_DIGESTS} answer: one {@link SegmentDigest} per segment of the partition asked for.
 *
 * <pre>n:int32 · (segment:int32 · keys:int64 · revision:int64 · digest:int64)*n</pre>
 */
public final class SegmentDigestCodec {

    /** Bytes one digest takes on the wire; bounds a count before anything is allocated. */
    private static final int ENCODED_BYTES = 28;

    private SegmentDigestCodec() {
    }

    public static void encodeAll(List<SegmentDigest> digests, ByteBuf out) {
        out.writeInt(digests.size());
        for (SegmentDigest digest : digests) {
            out.writeInt(digest.segment());
            out.writeLong(digest.keys());
            out.writeLong(digest.revision());
            out.writeLong(digest.digest());
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
