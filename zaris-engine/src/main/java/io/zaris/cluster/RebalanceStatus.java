package io.zaris.cluster;

/**
 * A rebalance as its leader sees it (see {@link ClusterMember#rebalanceStatus()}).
 *
 * @param running      whether the held map is moving toward a planned one
 * @param remaining    partitions whose owners still differ from the plan, the moving ones included
 * @param moving       partitions not yet HEALTHY on their preferred primary
 * @param movesStarted partition moves this rebalance started so far
 * @param etaSeconds   estimated seconds until done, from the pace so far; {@code -1} when not known yet
 */
public record RebalanceStatus(boolean running, int remaining, int moving, int movesStarted, long etaSeconds) {

    /** No rebalance runs (or this node does not lead, so it does not know). */
    public static final RebalanceStatus IDLE = new RebalanceStatus(false, 0, 0, 0, -1);
}
