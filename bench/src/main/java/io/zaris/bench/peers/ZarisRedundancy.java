package io.zaris.bench.peers;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import java.util.List;

/**
 * Reads full redundancy off a Zaris cluster view: a partition has it when its runtime health is
 * {@link PartitionHealth#HEALTHY} (serving, every assigned node alive and in sync) and the partition map assigns it
 * to exactly replication-factor nodes, none of them the killed one. The killed node is named explicitly because
 * the view still shows it HEALTHY until the cluster notices the kill.
 */
final class ZarisRedundancy {

    private ZarisRedundancy() {
    }

    /** Partitions short of full redundancy; {@code deadNode} is the killed node's id, {@code null} before the kill. */
    static int partitionsShort(ClusterView view, String deadNode) {
        int replicationFactor = view.partitionMap().replicationFactor();
        int partitionsShort = 0;
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            PartitionRuntime runtime = view.runtimeMap().get(p);
            List<String> owners = view.partitionMap().ownersOf(p);
            boolean full = runtime.health() == PartitionHealth.HEALTHY && owners.size() == replicationFactor
                    && (deadNode == null || !owners.contains(deadNode) && !deadNode.equals(runtime.activeNode()));
            partitionsShort += full ? 0 : 1;
        }
        return partitionsShort;
    }
}
