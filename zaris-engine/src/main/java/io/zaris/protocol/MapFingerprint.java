package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;

/**
 * A cheap summary that changes whenever a {@link ClusterView} does: the partition map version, the sum
 * of all partition epochs (epochs only grow, so any runtime change raises the sum) and a hash of the node
 * addresses. Polls compare fingerprints and fetch the full map only on a difference.
 */
public record MapFingerprint(long mapVersion, long epochSum, long addressesHash) {

    public static MapFingerprint of(ClusterView view) {
        long epochSum = 0;
        for (PartitionRuntime runtime : view.runtimeMap().partitions()) {
            epochSum += runtime.epoch();
        }
        return new MapFingerprint(view.partitionMap().version(), epochSum, view.addresses().hashCode());
    }

    public void encode(ByteBuf out) {
        out.writeLong(mapVersion);
        out.writeLong(epochSum);
        out.writeLong(addressesHash);
    }

    public static MapFingerprint decode(ByteBuf in) throws MalformedRequestException {
        return new MapFingerprint(Wire.readLong(in, 0, "map version"), Wire.readLong(in, 0, "epoch sum"),
                Wire.readLong(in, 0, "addresses hash"));
    }
}
