package io.zaris.server;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Which runtime entries changed between two views, as the events clients are pushed. Pure. */
final class OwnershipChanges {

    private OwnershipChanges() {
    }

    static List<RuntimeOwnershipChangedEvent> between(ClusterView previous, ClusterView adopted) {
        List<RuntimeOwnershipChangedEvent> events = new ArrayList<>();
        if (previous == null || previous.runtimeMap().partitionCount() != adopted.runtimeMap().partitionCount()) {
            return events; // a first or reshaped map: clients fetch it whole
        }
        for (int p = 0; p < adopted.runtimeMap().partitionCount(); p++) {
            PartitionRuntime now = adopted.runtimeMap().get(p);
            if (!now.equals(previous.runtimeMap().get(p))) {
                events.add(new RuntimeOwnershipChangedEvent(p, now,
                        now.activeNode() == null ? null : adopted.addresses().get(now.activeNode())));
            }
        }
        return events;
    }

    /**
     * Partitions {@code nodeId} takes over in {@code adopted}: it is their active owner under a new epoch and
     * was not before (another node, or none, was). Their acknowledged writes of older epochs may be lost.
     */
    static List<Integer> takenOverBy(String nodeId, ClusterView previous, ClusterView adopted) {
        List<Integer> partitions = new ArrayList<>();
        if (previous == null || previous.runtimeMap().partitionCount() != adopted.runtimeMap().partitionCount()) {
            return partitions;
        }
        for (int p = 0; p < adopted.runtimeMap().partitionCount(); p++) {
            PartitionRuntime now = adopted.runtimeMap().get(p);
            PartitionRuntime before = previous.runtimeMap().get(p);
            if (nodeId.equals(now.activeNode()) && !Objects.equals(nodeId, before.activeNode())
                    && now.epoch() > before.epoch()) {
                partitions.add(p);
            }
        }
        return partitions;
    }
}
