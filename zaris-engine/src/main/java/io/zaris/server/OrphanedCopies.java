package io.zaris.server;

import io.zaris.model.ClusterView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides when this node drops its copy of a partition it no longer has any role in — neither an assigned
 * owner nor the active — after a rebalance or drain moved the partition away: once that has lasted
 * {@link #GRACE}, so memory follows the map. The grace lets the new active's takeover pull reach the copy
 * first, and lets a view that is only briefly behind catch up.
 *
 * <p>Not thread-safe: used by the node's memory maintenance thread only.
 */
final class OrphanedCopies {

    static final Duration GRACE = Duration.ofSeconds(30);

    private final String nodeId;
    /** Partition → when it was first seen without a role here. */
    private final Map<Integer, Long> orphanedSince = new HashMap<>();

    OrphanedCopies(String nodeId) {
        this.nodeId = nodeId;
    }

    /**
     * Partitions whose copy may be dropped now; each is reported once per orphaning.
     *
     * @param holds whether this node holds anything of the partition
     */
    List<Integer> toDrop(ClusterView view, long nowNanos, java.util.function.IntPredicate holds) {
        List<Integer> drop = new ArrayList<>();
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            boolean role = view.partitionMap().isAssigned(p, nodeId) || nodeId.equals(view.runtimeMap().get(p).activeNode());
            if (role || !holds.test(p)) {
                orphanedSince.remove(p);
                continue;
            }
            long since = orphanedSince.computeIfAbsent(p, k -> nowNanos);
            if (nowNanos - since >= GRACE.toNanos()) {
                drop.add(p);
                orphanedSince.remove(p);
            }
        }
        return drop;
    }
}
