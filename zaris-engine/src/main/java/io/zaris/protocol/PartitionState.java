package io.zaris.protocol;

import io.netty.buffer.ByteBuf;

/**
 * What one node holds of one partition, as the leader asks before a promotion or a heal: the highest
 * epoch it has seen, the sum of its segment revisions, its key count, how many segments are fully synced,
 * and — from the active owner — how many replicas confirmed holding every change shipped to them.
 *
 * <pre>highestEpoch:int64 · revisionSum:int64 · keys:int64 · syncedSegments:int32 · confirmedReplicas:int32</pre>
 */
public record PartitionState(long highestEpoch, long revisionSum, long keys, int syncedSegments, int confirmedReplicas) {

    public PartitionState(long highestEpoch, long revisionSum, long keys, int syncedSegments) {
        this(highestEpoch, revisionSum, keys, syncedSegments, 0);
    }

    public void encode(ByteBuf out) {
        out.writeLong(highestEpoch);
        out.writeLong(revisionSum);
        out.writeLong(keys);
        out.writeInt(syncedSegments);
        out.writeInt(confirmedReplicas);
    }

    public static PartitionState decode(ByteBuf in) throws MalformedRequestException {
        return new PartitionState(Wire.readLong(in, 0, "highest epoch"), Wire.readLong(in, 0, "revision sum"),
                Wire.readLong(in, 0, "keys"), Wire.readInt(in, 0, "synced segments"),
                Wire.readInt(in, 0, "confirmed replicas"));
    }
}
