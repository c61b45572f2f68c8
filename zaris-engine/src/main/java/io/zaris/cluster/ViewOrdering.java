package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import java.util.ArrayList;
import java.util.List;

/** Decides whether a published cluster view may replace the one a node holds, and merges views. Pure. */
final class ViewOrdering {

    private ViewOrdering() {
    }

    /**
     * A candidate is acceptable when its partition map version is higher, or equal with no partition's
     * epoch lower than held (epochs never go backwards; equal views are re-broadcasts and harmless).
     */
    public static boolean isAtLeastAsNew(ClusterView candidate, ClusterView held) {
        long candidateVersion = candidate.partitionMap().version();
        long heldVersion = held.partitionMap().version();
        if (candidateVersion != heldVersion) {
            return candidateVersion > heldVersion;
        }
        if (candidate.runtimeMap().partitionCount() != held.runtimeMap().partitionCount()) {
            return false;
        }
        for (int p = 0; p < held.runtimeMap().partitionCount(); p++) {
            if (candidate.runtimeMap().get(p).epoch() < held.runtimeMap().get(p).epoch()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Two views of the same partition map version that each hold a newer entry for some partitions (two
     * coordinators acted on both sides of a membership split) merge partition by partition: the entry
     * with the higher epoch wins, and on an equal epoch the one whose active node id sorts first, so
     * every node that merges the same two views gets the same result. Epochs fence the data path, so the
     * entry with the highest epoch is the one replicas and owners already obey. Views of different map
     * versions do not merge: the higher version wins whole (see {@link #isAtLeastAsNew}).
     *
     * @return the merged runtime map, or {@code null} when the versions or shapes differ
     */
    public static RuntimeMap merge(ClusterView held, ClusterView candidate) {
        if (held.partitionMap().version() != candidate.partitionMap().version()
                || held.runtimeMap().partitionCount() != candidate.runtimeMap().partitionCount()) {
            return null;
        }
        List<PartitionRuntime> merged = new ArrayList<>(held.runtimeMap().partitionCount());
        for (int p = 0; p < held.runtimeMap().partitionCount(); p++) {
            merged.add(newer(held.runtimeMap().get(p), candidate.runtimeMap().get(p)));
        }
        return new RuntimeMap(merged);
    }

    private static PartitionRuntime newer(PartitionRuntime a, PartitionRuntime b) {
        if (a.epoch() != b.epoch()) {
            return a.epoch() > b.epoch() ? a : b;
        }
        String activeA = a.activeNode() == null ? "" : a.activeNode();
        String activeB = b.activeNode() == null ? "" : b.activeNode();
        int byActive = activeA.compareTo(activeB);
        if (byActive != 0) {
            return byActive < 0 ? a : b;
        }
        return a.health().code() <= b.health().code() ? a : b;
    }
}
