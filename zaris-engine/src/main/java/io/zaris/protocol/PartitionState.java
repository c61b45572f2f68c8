package io.zaris.protocol;

import io.netty.buffer.ByteBuf;

/**
 * What one node holds of one partition, as the leader asks before a promotion: the highest epoch it has
 * seen, the sum of its segment revisions, its key count and how many segments are fully synced.
 *
 * <pre>highestEpoch:int64 · revisionSum:int64 · keys:int64 · syncedSegments:int32</pre>
 */
public record PartitionState(long highestEpoch, long revisionSum, long keys, int syncedSegments) {

    public void encode(ByteBuf out) {
        out.writeLong(highestEpoch);
        out.writeLong(revisionSum);
        out.writeLong(keys);
        out.writeInt(syncedSegments);
    }

    public static PartitionState decode(ByteBuf in) throws MalformedRequestException {
        return new PartitionState(Wire.readLong(in, 0, "highest epoch"), Wire.readLong(in, 0, "revision sum"),
                Wire.readLong(in, 0, "keys"), Wire.readInt(in, 0, "synced segments"));
    }
}
