package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which active roles an adopted view gives a node that belong to an earlier process of the same node: that
 * process held their data, this one does not, so it must neither serve nor replicate them until the
 * leader moves them. Pure; {@link HeldView} keeps the result on the events thread.
 */
final class InheritedRoles {

    private InheritedRoles() {
    }

    /**
     * Whether adopting {@code candidate} over {@code held} starts a lineage for this process: its first view,
     * or a view whose map was founded by other processes than the held one's. Two lineages exist only when
     * a first map was computed twice; whichever the node ends on, the roles its store does not back must
     * be found again, as on a first view.
     */
    static boolean startsLineage(ClusterView held, ClusterView candidate) {
        return held == null || (!held.founders().isEmpty() && !candidate.founders().isEmpty()
                && !held.founders().equals(candidate.founders()));
    }

    /**
     * The inherited roles after adopting {@code candidate}: partition → the epoch under which it names this
     * node active. When the candidate starts a lineage and this incarnation is not among its founders,
     * every active role it names is inherited; otherwise the earlier inherited roles stay while their epoch
     * is unchanged (a new epoch means the leader reassigned the role).
     */
    static Map<Integer, Long> afterAdopting(Map<Integer, Long> inherited, ClusterView held, ClusterView candidate,
                                            String nodeId, String incarnation) {
        Map<Integer, Long> next = new TreeMap<>();
        if (startsLineage(held, candidate)) {
            if (!candidate.isFoundingIncarnation(nodeId, incarnation)) {
                for (int p = 0; p < candidate.runtimeMap().partitionCount(); p++) {
                    PartitionRuntime runtime = candidate.runtimeMap().get(p);
                    if (nodeId.equals(runtime.activeNode())) {
                        next.put(p, runtime.epoch());
                    }
                }
            }
            return next;
        }
        inherited.forEach((partition, epoch) -> {
            if (candidate.runtimeMap().get(partition).epoch() == epoch) {
                next.put(partition, epoch);
            }
        });
        return next;
    }
}
