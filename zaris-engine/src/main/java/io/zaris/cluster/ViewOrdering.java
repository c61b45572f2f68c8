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
     * What a node installs when {@code candidate} arrives while it holds {@code held}.
     *
     * @param view   the view to install
     * @param merged {@code view} merges the two (each was newer for some partitions): the node must tell everyone,
     *               or the two sides of a split would never converge
     */
    record Adoption(ClusterView view, boolean merged) {
    }

    /**
     * The merge handling of a node receiving a view: {@code candidate} whole when it is at least as new as {@code held}
     * ({@code null}: none held); else their {@link #merge} when that changes what is held; else {@code null}: the
     * candidate is stale and ignored.
     */
    static Adoption adoption(ClusterView held, ClusterView candidate) {
        if (held == null || isAtLeastAsNew(candidate, held)) {
            return new Adoption(candidate, false);
        }
        RuntimeMap merged = merge(held, candidate);
        if (merged == null || merged.equals(held.runtimeMap())) {
            return null;
        }
        return new Adoption(candidate.withRuntimeMap(merged), true);
    }

    /** How many partitions {@code next}'s runtime map changes from {@code held}'s (of the same partition count). */
    static int changedPartitions(RuntimeMap held, RuntimeMap next) {
        int changed = 0;
        for (int p = 0; p < next.partitionCount(); p++) {
            if (!next.get(p).equals(held.get(p))) {
                changed++;
            }
        }
        return changed;
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
