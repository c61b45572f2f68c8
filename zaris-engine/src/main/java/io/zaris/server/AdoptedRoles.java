package io.zaris.server;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import java.util.Collection;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * What an adopted view means for this node's own copies, decided from values only: which epoch to fence each
 * partition at, and which roles it keeps count as complete copies. Pure; {@link ViewAdoption} acts on it.
 */
final class AdoptedRoles {

    private AdoptedRoles() {
    }

    /**
     * Per partition, the epoch the node's fence must reach on adopting {@code adopted}: the view's epoch, and one
     * more for a role a restarted process inherited without its data (so it neither serves that partition, whose
     * requests get {@code OWNERSHIP_CHANGING}, nor replicates its empty segments over the replicas).
     */
    static long[] fenceEpochs(ClusterView adopted, Map<Integer, Long> inherited) {
        long[] epochs = new long[adopted.runtimeMap().partitionCount()];
        for (int p = 0; p < epochs.length; p++) {
            epochs[p] = adopted.runtimeMap().get(p).epoch();
        }
        inherited.forEach((partition, epoch) -> {
            if (partition < epochs.length) {
                epochs[partition] = Math.max(epochs[partition], epoch + 1);
            }
        });
        return epochs;
    }

    /**
     * The roles whose copy is complete by definition on adopting {@code adopted}, with the epoch to mark them under.
     * An active owner's copy is the whole history of the epoch it serves under, so it answers takeover pulls of that
     * lineage (a planned hand-over pulls from the previous active). Marked: roles kept under a new epoch and a first
     * map's roles. Not marked: a taken-over role (its catch-up marks it when done), a partition whose catch-up still
     * runs (the same), and a role a restarted process inherited without its data.
     */
    static SortedMap<Integer, Long> keptRolesComplete(String nodeId, ClusterView previous, ClusterView adopted,
                                                      Collection<Integer> takenOver, Map<Integer, Long> inherited,
                                                      IntPredicate catchingUp) {
        SortedMap<Integer, Long> complete = new TreeMap<>();
        for (int p = 0; p < adopted.runtimeMap().partitionCount(); p++) {
            PartitionRuntime now = adopted.runtimeMap().get(p);
            if (!now.isServedBy(nodeId) || takenOver.contains(p) || inherited.containsKey(p) || catchingUp.test(p)) {
                continue;
            }
            PartitionRuntime before = previous == null || previous.runtimeMap().partitionCount() <= p ? null
                    : previous.runtimeMap().get(p);
            if (before == null || before.epoch() != now.epoch()) {
                complete.put(p, now.epoch());
            }
        }
        return complete;
    }

    /**
     * The epoch a finished takeover of {@code partition} is marked complete under: the newest one this node serves
     * it by in {@code current}, as the view may have moved on while the catch-up ran, and never below the epoch of
     * the view that started it.
     */
    static long takeoverCompleteEpoch(String nodeId, long startedUnder, ClusterView current, int partition) {
        return Math.max(startedUnder, activeEpoch(nodeId, current, partition));
    }

    /** The epoch under which {@code view} names {@code nodeId} the partition's active owner; 0 when it does not. */
    static long activeEpoch(String nodeId, ClusterView view, int partition) {
        if (view == null || partition >= view.runtimeMap().partitionCount()
                || !nodeId.equals(view.runtimeMap().get(partition).activeNode())) {
            return 0;
        }
        return view.runtimeMap().get(partition).epoch();
    }
}
