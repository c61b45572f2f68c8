package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Byte layout of a {@link ClusterView}, used both in CLUSTER_MAP responses and in the cluster's own
 * membership messages:
 *
 * <pre>
 * segmentCount:int32 · partitionCount:int32
 * mapVersion:int64 · replicationFactor:u8 · per partition: n:u8 · nodeId:string*n
 * per partition: active:string ("" = none) · epoch:int64 · health:u8
 * addresses: n:int32 · (nodeId:string · host:string · port:int32)*n
 * founders:  n:int32 · (nodeId:string · incarnation:string)*n
 * leader:string ("" = unknown)     optional: absent in views from nodes that predate it
 * voters:    n:int32 · nodeId:string*n                 optional: absent in views from nodes that predate it
 * suspended: n:int32 · nodeId:string*n                 optional: absent in views from nodes that predate it
 * </pre>
 *
 * <p>The leader and the voters come last and are optional so that a view from an older node still decodes
 * (as a view without a leader whose voters are its map's nodes).
 */
public final class ClusterViewCodec {

    private ClusterViewCodec() {
    }

    public static void encode(ClusterView view, ByteBuf out) {
        PartitionLayout layout = view.layout();
        out.writeInt(layout.segmentCount());
        out.writeInt(layout.partitionCount());
        PartitionMap map = view.partitionMap();
        out.writeLong(map.version());
        out.writeByte(map.replicationFactor());
        for (int p = 0; p < map.partitionCount(); p++) {
            List<String> owners = map.ownersOf(p);
            out.writeByte(owners.size());
            for (String owner : owners) {
                Wire.writeString(out, owner);
            }
        }
        for (PartitionRuntime runtime : view.runtimeMap().partitions()) {
            Wire.writeString(out, runtime.activeNode() == null ? "" : runtime.activeNode());
            out.writeLong(runtime.epoch());
            out.writeByte(runtime.health().code());
        }
        out.writeInt(view.addresses().size());
        for (Map.Entry<String, NodeAddress> entry : view.addresses().entrySet()) {
            Wire.writeString(out, entry.getKey());
            Wire.writeString(out, entry.getValue().host());
            out.writeInt(entry.getValue().port());
        }
        out.writeInt(view.founders().size());
        for (Map.Entry<String, String> entry : view.founders().entrySet()) {
            Wire.writeString(out, entry.getKey());
            Wire.writeString(out, entry.getValue());
        }
        Wire.writeString(out, view.leader() == null ? "" : view.leader());
        out.writeInt(view.voters().size());
        for (String voter : view.voters()) {
            Wire.writeString(out, voter);
        }
        out.writeInt(view.suspended().size());
        for (String member : view.suspended()) {
            Wire.writeString(out, member);
        }
    }

    public static ClusterView decode(ByteBuf in) throws MalformedRequestException {
        try {
            int segmentCount = Wire.readInt(in, 0, "segment count");
            int partitionCount = Wire.readInt(in, 0, "partition count");
            PartitionLayout layout = PartitionLayout.of(segmentCount, partitionCount);
            long version = Wire.readLong(in, 0, "map version");
            int replicationFactor = Wire.readUnsignedByte(in, 0, "replication factor");
            List<List<String>> owners = new ArrayList<>(partitionCount);
            for (int p = 0; p < partitionCount; p++) {
                int count = Wire.readUnsignedByte(in, 0, "owner count");
                List<String> partitionOwners = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    partitionOwners.add(Wire.readString(in, 0, "owner"));
                }
                owners.add(partitionOwners);
            }
            List<PartitionRuntime> runtimes = new ArrayList<>(partitionCount);
            for (int p = 0; p < partitionCount; p++) {
                String active = Wire.readString(in, 0, "active node");
                long epoch = Wire.readLong(in, 0, "epoch");
                PartitionHealth health = PartitionHealth.fromCode(Wire.readUnsignedByte(in, 0, "health"));
                runtimes.add(new PartitionRuntime(active.isEmpty() ? null : active, epoch, health));
            }
            int addressCount = Wire.readCount(in, 100_000, 0, "address count");
            Map<String, NodeAddress> addresses = new HashMap<>();
            for (int i = 0; i < addressCount; i++) {
                String node = Wire.readString(in, 0, "node id");
                String host = Wire.readString(in, 0, "host");
                addresses.put(node, new NodeAddress(host, Wire.readInt(in, 0, "port")));
            }
            int founderCount = Wire.readCount(in, 100_000, 0, "founder count");
            Map<String, String> founders = new HashMap<>();
            for (int i = 0; i < founderCount; i++) {
                founders.put(Wire.readString(in, 0, "node id"), Wire.readString(in, 0, "incarnation"));
            }
            String leader = in.isReadable() ? Wire.readString(in, 0, "leader") : "";
            Set<String> voters = new HashSet<>();
            if (in.isReadable()) {
                int voterCount = Wire.readCount(in, 100_000, 0, "voter count");
                for (int i = 0; i < voterCount; i++) {
                    voters.add(Wire.readString(in, 0, "voter"));
                }
            }
            Set<String> suspended = new HashSet<>();
            if (in.isReadable()) {
                int suspendedCount = Wire.readCount(in, 100_000, 0, "suspended count");
                for (int i = 0; i < suspendedCount; i++) {
                    suspended.add(Wire.readString(in, 0, "suspended member"));
                }
            }
            return new ClusterView(layout, new PartitionMap(version, replicationFactor, owners),
                    new RuntimeMap(runtimes), addresses, leader, founders, voters, suspended);
        } catch (IllegalArgumentException e) {
            throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "invalid cluster view: " + e.getMessage());
        }
    }
}
