package io.zaris.server;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import java.util.function.IntPredicate;

/**
 * Whether a standalone node is ready for traffic, as its HTTP readiness probe reports it. Ready means the node
 * holds the current map and does its part of it:
 *
 * <ol>
 *   <li>it holds a partition map (a node still joining has none);</li>
 *   <li>it sees a majority of the cluster (a minority side refuses writes and its map may be stale);</li>
 *   <li>every partition it is the active owner of is serving (not {@code RECOVERING}) and not catching up after a
 *       takeover;</li>
 *   <li>its replication links to the replicas of what it serves are open and synced.</li>
 * </ol>
 *
 * A node the map gives no role yet (a newcomer before the join settle delay) is ready once 1 and 2 hold: it has
 * nothing to serve, and a rolling restart must not wait on the leader's planning. Pure: the node passes in what
 * it observed.
 */
record NodeReadiness(boolean ready, String reason) {

    static final NodeReadiness READY = new NodeReadiness(true, "ready");

    static NodeReadiness evaluate(String nodeId, ClusterView view, boolean inMajority, IntPredicate catchingUp,
                                  boolean replicationReady) {
        if (view == null) {
            return new NodeReadiness(false, "no partition map yet");
        }
        if (!inMajority) {
            return new NodeReadiness(false, "does not see a majority of the cluster");
        }
        int recovering = 0;
        int catching = 0;
        for (int p = 0; p < view.runtimeMap().partitionCount(); p++) {
            PartitionRuntime runtime = view.runtimeMap().get(p);
            if (!nodeId.equals(runtime.activeNode())) {
                continue;
            }
            if (!runtime.health().isServing()) {
                recovering++;
            } else if (catchingUp.test(p)) {
                catching++;
            }
        }
        if (recovering > 0 || catching > 0) {
            return new NodeReadiness(false, recovering + " partitions recovering, " + catching + " catching up");
        }
        if (!replicationReady) {
            return new NodeReadiness(false, "replication links to replicas not yet synced");
        }
        return READY;
    }
}
