package io.zaris.cluster;

/**
 * Who may make cluster-wide decisions. JGroups' coordinator is merely the oldest member of a view; Zaris
 * adds the majority requirement so that the minority side of a split never acts.
 */
public final class LeaderRule {

    private LeaderRule() {
    }

    /** The coordinator of a view that holds a strict majority of the configured cluster size leads. */
    public static boolean isLeader(boolean coordinator, int viewSize, int clusterSize) {
        return coordinator && viewSize * 2 > clusterSize;
    }

    /**
     * The first partition map is computed once, by the leader, when every expected member is in the view
     * and has announced its data address — so the map never names a node clients cannot reach.
     */
    public static boolean shouldComputeInitialMap(boolean leader, boolean haveMap, int announcedMembers, int viewSize,
                                                  int clusterSize) {
        return leader && !haveMap && viewSize >= clusterSize && announcedMembers == viewSize;
    }
}
