package io.zaris.cluster;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a member installs a membership view that leaves out the coordinator of its current view, which leads it.
 * A member follows such a view only once its own failure detection has confirmed that coordinator as suspected; until
 * then it holds the view back (a regular view) or refuses it (a merge view).
 *
 * <p><b>Why.</b> Failure detection is per member and links can fail one way. When one node's packets to the leader are
 * dropped, the leader excludes that node, which then hears nobody, confirms the leader as suspected and forms a view
 * with the third node; a later merge JGroups runs with it installed a view of those two on the third node (network
 * test bed, 5 of 8 runs). The third node still heard the leader and was led by it, yet left it for a view without a
 * confirmed leader: every owner lease lapsed, the cluster served nothing for seconds and merged back only 11-16 s after
 * the link healed. The node that cannot be heard is the one that must go, not the leader.
 *
 * <p><b>Why waiting is safe.</b> A coordinator that is really gone (crashed, hung, cut off from this member) is
 * suspected here too, within the escalation timeout of the node that suspected it first; after a crash usually within
 * milliseconds of it, since the crash detection is broadcast and each member verifies it for itself. A held view is
 * then installed at once. A view kept out for good is one whose creator cannot reach this member's coordinator while
 * this member can: the next merge, once the link is back, includes that coordinator.
 *
 * <p>Pure and single-threaded: {@link MembershipGate} owns an instance and calls it under its lock.
 *
 * @param <A> how membership addresses a node: JGroups' address in the gate, plain values in tests
 */
final class CoordinatorLoyalty<A> {

    /** What to do with an arriving view. */
    enum Verdict {
        /** It keeps this member's coordinator, or that coordinator is suspected here, or this member coordinates. */
        INSTALL,
        /** It leaves out this member's coordinator, which this member has not suspected: wait for a suspicion. */
        WAIT_FOR_SUSPICION
    }

    private final A self;
    private A coordinator;
    /** Members this member's failure detection confirmed as suspected since its current view was installed. */
    private final Set<A> suspected = new HashSet<>();

    CoordinatorLoyalty(A self) {
        this.self = self;
    }

    /** A view led by {@code newCoordinator} was installed here: suspicions start over. */
    void viewInstalled(A newCoordinator) {
        coordinator = newCoordinator;
        suspected.clear();
    }

    /**
     * Failure detection confirmed {@code members} as suspected; returns whether this member's coordinator is among
     * them (a view held back for it may now be installed).
     */
    boolean suspected(Collection<A> members) {
        suspected.addAll(members);
        return coordinator != null && members.contains(coordinator);
    }

    /** {@code member} answered after all. */
    void unsuspected(A member) {
        suspected.remove(member);
    }

    /**
     * The verdict on a view of {@code members} (for a view sent as a change to the current one: the members it does
     * not remove) that removes {@code removed}.
     */
    Verdict judge(Collection<A> members, Collection<A> removed) {
        boolean leavesOutCoordinator = coordinator != null && !coordinator.equals(self)
                && (removed.contains(coordinator) || !members.isEmpty() && !members.contains(coordinator));
        return leavesOutCoordinator && !suspected.contains(coordinator) ? Verdict.WAIT_FOR_SUSPICION : Verdict.INSTALL;
    }

    /** The coordinator of this member's current view ({@code null} before the first view). */
    A coordinator() {
        return coordinator;
    }

    /** For tests and logs: the members suspected here since the current view. */
    List<A> suspectedMembers() {
        return List.copyOf(suspected);
    }
}
