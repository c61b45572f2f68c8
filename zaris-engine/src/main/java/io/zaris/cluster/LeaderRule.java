package io.zaris.cluster;

/**
 * Who may make cluster-wide decisions. JGroups' coordinator is merely the oldest member of a view; Zaris
 * adds the majority requirement so that the minority side of a split never acts.
 */
final class LeaderRule {

    private LeaderRule() {
    }

    /** The coordinator of a view that holds a strict majority of the configured cluster size leads. */
    public static boolean isLeader(boolean coordinator, int viewSize, int clusterSize) {
        return coordinator && viewSize * 2 > clusterSize;
    }

    /**
     * The first partition map is computed once, by the leader, when every expected member is in the view
     * and has announced its data address — so the map never names a node clients cannot reach — and none of
     * them holds a map. A member that does carries the cluster's lineage: its data and the epochs that fence
     * it. Restarted nodes that come together without a map (a chaos run: two killed in a row formed a view
     * of their own, then merged with the one survivor) must adopt that map, not found a new cluster over the
     * survivor's data.
     */
    public static boolean shouldComputeInitialMap(boolean leader, boolean haveMap, int announcedMembers, int viewSize,
                                                  int clusterSize, boolean aMemberHoldsAMap) {
        return leader && !haveMap && !aMemberHoldsAMap && viewSize >= clusterSize && announcedMembers == viewSize;
    }

    /**
     * Whether a node that just counted too few voters may only be waiting for hellos: members of its view
     * whose hello has not arrived are not counted yet (a restarted node that adopts a fetched map before
     * the others' hellos reach it), and counting them would make a majority. The node refuses writes either
     * way until they are counted; this only decides whether that reads as a lost majority.
     */
    public static boolean mayOnlyAwaitHellos(int countedVoters, int membersWithoutHello, int votingSize) {
        return membersWithoutHello > 0 && (countedVoters + membersWithoutHello) * 2 > votingSize;
    }
}
