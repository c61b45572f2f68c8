package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import java.util.ArrayList;
import java.util.List;

/**
 * An operator's hand-over decided from values: the partition's active owner becomes {@code target}, one of its
 * assigned owners, under the next epoch ({@link PartitionTransitions.Trigger#HAND_OVER}); HEALTHY when the target is
 * the partition's primary, DEGRADED otherwise (a heal moves it back later). Only the runtime map changes. Pure; the
 * leader's {@link OperatorRequests} checks that it may decide, publishes the result and tells its coordinator.
 */
final class HandOver {

    /** The entry before and after, and the view to publish. */
    record Decision(PartitionRuntime before, PartitionRuntime after, ClusterView next) {
    }

    private HandOver() {
    }

    /**
     * @throws IllegalStateException when {@code target} is not assigned the partition in {@code held}
     */
    static Decision decide(ClusterView held, int partition, String target) {
        if (!held.partitionMap().isAssigned(partition, target)) {
            throw new IllegalStateException("node " + target + " is not assigned partition " + partition + " (owners "
                    + held.partitionMap().ownersOf(partition) + ")");
        }
        PartitionRuntime before = held.runtimeMap().get(partition);
        PartitionHealth health = target.equals(held.partitionMap().primaryOf(partition))
                ? PartitionHealth.HEALTHY : PartitionHealth.DEGRADED;
        PartitionRuntime after = PartitionTransitions.change(partition, before, PartitionTransitions.Trigger.HAND_OVER,
                target, health, 0);
        List<PartitionRuntime> runtimes = new ArrayList<>(held.runtimeMap().partitions());
        runtimes.set(partition, after);
        return new Decision(before, after, held.withRuntimeMap(new RuntimeMap(runtimes)));
    }
}
