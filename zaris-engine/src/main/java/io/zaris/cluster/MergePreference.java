package io.zaris.cluster;

import io.zaris.model.ClusterView;
import java.util.List;

/**
 * What a merge this node leads lists first (see {@link MergeOrder}). Its own membership view, in order, while that
 * view holds a majority and this node's owner lease holds: its coordinator leads the cluster. A node whose lease ran
 * out (back from a pause or a cut) may hold a view the others left long ago; it prefers the leader its newest cluster
 * view names, never itself: a node that led before it was cut off must not take the lead back. Such a node also lists
 * itself last ({@link #listsItselfLast}): when its newest cluster view names itself (it led before the pause), nothing comes
 * first, and JGroups' default order, subgroup coordinators by address, would often make it coordinator again, so the
 * other members' leases lapsed while they waited a lease to confirm it (measured: every owner lease in a three-node
 * cluster lapsed for about 1.4 s after the leader came back from a 12 s {@code SIGSTOP}).
 *
 * <p>Concurrency: {@link #refresh} runs on the cluster member's events thread after every membership view and
 * adopted cluster view; {@link #preferred} runs on a JGroups thread while merging. The two choices are immutable
 * lists published through volatile fields, so the merge reads a consistent list without a lock (the two may come
 * from different refreshes, which only matters for the moment a view changes).
 *
 * @param <A> how membership addresses a node
 */
final class MergePreference<A> {

    private volatile List<A> majorityViewOrder = List.of();
    private volatile List<A> namedLeader = List.of();

    /** Events thread: recomputes both choices from the membership view and the held cluster view ({@code null}: none). */
    void refresh(MembershipRoster<A> roster, ClusterView held, int clusterSize, String self) {
        majorityViewOrder = roster.hasView() && roster.holdsMajority(held, clusterSize) ? roster.members() : List.of();
        String leader = held == null ? null : held.leader();
        A address = leader == null || leader.equals(self) ? null : roster.addressOf(leader);
        namedLeader = address == null ? List.of() : List.of(address);
    }

    /** Any thread: the members to list first, given whether this node's owner lease holds now. */
    List<A> preferred(boolean leaseHolds) {
        List<A> ownView = majorityViewOrder;
        return leaseHolds && !ownView.isEmpty() ? ownView : namedLeader;
    }

    /** Any thread: whether this node lists itself last, given whether its owner lease holds now. */
    boolean listsItselfLast(boolean leaseHolds) {
        return !leaseHolds;
    }
}
