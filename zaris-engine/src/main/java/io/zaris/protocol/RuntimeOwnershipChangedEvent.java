package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;

/**
 * One partition's runtime entry and where its active owner listens. Nodes push it to their clients when
 * the runtime map changes, and attach it to every wrong-node answer, so a client can retarget without
 * fetching the whole map. A client applies it only if {@code runtime.epoch()} is newer than what it holds.
 *
 * <pre>
 * partition:int32 · active:string ("" = none) · epoch:int64 · health:u8 · host:string ("" = none) · port:int32
 * </pre>
 *
 * @param activeAddress data address of the active node, {@code null} when there is none
 */
public record RuntimeOwnershipChangedEvent(int partition, PartitionRuntime runtime, NodeAddress activeAddress) {

    /** Push frame kind byte for this event. */
    public static final int PUSH_KIND = 1;

    public void encode(ByteBuf out) {
        out.writeInt(partition);
        Wire.writeString(out, runtime.activeNode() == null ? "" : runtime.activeNode());
        out.writeLong(runtime.epoch());
        out.writeByte(runtime.health().code());
        Wire.writeString(out, activeAddress == null ? "" : activeAddress.host());
        out.writeInt(activeAddress == null ? 0 : activeAddress.port());
    }

    public static RuntimeOwnershipChangedEvent decode(ByteBuf in) throws MalformedRequestException {
        int partition = Wire.readInt(in, 0, "partition");
        String active = Wire.readString(in, 0, "active node");
        long epoch = Wire.readLong(in, 0, "epoch");
        int healthCode = Wire.readUnsignedByte(in, 0, "health");
        String host = Wire.readString(in, 0, "host");
        int port = Wire.readInt(in, 0, "port");
        try {
            PartitionRuntime runtime = new PartitionRuntime(active.isEmpty() ? null : active, epoch,
                    PartitionHealth.fromCode(healthCode));
            return new RuntimeOwnershipChangedEvent(partition, runtime, host.isEmpty() ? null : new NodeAddress(host, port));
        } catch (IllegalArgumentException e) {
            throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "invalid ownership event: " + e.getMessage());
        }
    }
}
