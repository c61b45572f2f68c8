package io.zaris.server;

import io.zaris.cluster.ClusterView;
import io.zaris.cluster.PartitionRuntime;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import java.util.ArrayList;
import java.util.List;

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
}
