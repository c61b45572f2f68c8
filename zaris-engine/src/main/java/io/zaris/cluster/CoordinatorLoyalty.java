package io.zaris.cluster;

import java.util.Collection;

/**
 * Whether a member installs a membership view that leaves out the coordinator of its current view, which leads it.
 * It does while it has not heard from that coordinator for {@code silence} (its heartbeats come every half second), or
 * once the coordinator said goodbye; until then it holds the view back (a regular view) or refuses it (a merge view).
 *
 * <p><b>Why.</b> Failure detection is per member and links can fail one way. When one node's packets to the leader are
 * dropped, the leader excludes that node, which then hears nobody, suspects the leader and forms a view with the third
 * node; a later merge JGroups ran with it installed a view of those two on the third node (network test bed, 5 of 8
 * runs). The third node still heard the leader and was led by it, yet left it for a view without a confirmed leader:
 * every owner lease lapsed, the cluster served nothing for seconds and merged back only 11-16 s after the link healed.
 * The node that cannot be heard is the one that must go, not the leader.
 *
 * <p><b>Why silence, not suspicion.</b> JGroups' failure detectors pass a suspicion up only on the member that would
 * coordinate next; the others never learn of it and simply install the new coordinator's view. So a member judges by
 * what it hears itself. A coordinator that is really gone (crashed, hung, cut off from this member) falls silent here
 * too: a view that leaves it out waits at most until its silence reaches {@code silence}, which after a crash is a
 * fraction of a second. A view kept out for good is one whose creator cannot hear this member's coordinator while this
 * member can: the next merge, once the link is back, includes that coordinator.
 *
 * <p><b>A coordinator that no longer leads.</b> The mirror case: this member hears the coordinator, but the coordinator
 * hears nobody (the others' packets to it are dropped), so it confirms no lease. Then the member stops following it
 * ({@link #left}, called by the cluster member once its lease requests went unanswered for a lease while its view
 * holds a majority), and the next in line is told to suspect it; otherwise the others would wait until the deaf
 * coordinator's own failure detection excluded them and it fell silent, the escalation timeout.
 *
 * <p>Pure: every reading of time and of what was heard is passed in. {@link MembershipGate} owns an instance and calls
 * it under its lock.
 *
 * @param <A> how membership addresses a node: JGroups' address in the gate, plain values in tests
 */
final class CoordinatorLoyalty<A> {

    /** What to do with an arriving view. */
    enum Verdict {
        /** It keeps this member's coordinator, or that coordinator is silent here or left, or this member coordinates. */
        INSTALL,
        /** It leaves out this member's coordinator, which this member still hears: wait for its silence. */
        WAIT
    }

    private final A self;
    private final long silenceNanos;
    private A coordinator;
    private A departed;

    /**
     * @param self         this member
     * @param silenceNanos how long this member must have heard nothing from its coordinator before it follows a view
     *                     without it
     */
    CoordinatorLoyalty(A self, long silenceNanos) {
        this.self = self;
        this.silenceNanos = silenceNanos;
    }

    /** A view led by {@code newCoordinator} was installed here. */
    void viewInstalled(A newCoordinator) {
        coordinator = newCoordinator;
        departed = null;
    }

    /**
     * {@code member} said it leaves on purpose, or this member stopped following it (it confirms no lease here any
     * more although it is still heard); returns whether it is this member's coordinator.
     */
    boolean left(A member) {
        if (member.equals(coordinator)) {
            departed = member;
            return true;
        }
        return false;
    }

    /**
     * The verdict on a view of {@code members} (for a view sent as a change to the current one: the members it does
     * not remove) that removes {@code removed}, at {@code now}, this member having last heard its coordinator at
     * {@code coordinatorHeardNanos} ({@link Long#MIN_VALUE}: never).
     */
    Verdict judge(Collection<A> members, Collection<A> removed, long coordinatorHeardNanos, long now) {
        boolean leavesOutCoordinator = coordinator != null && !coordinator.equals(self)
                && (removed.contains(coordinator) || !members.isEmpty() && !members.contains(coordinator));
        if (!leavesOutCoordinator || coordinator.equals(departed)) {
            return Verdict.INSTALL;
        }
        return silent(coordinatorHeardNanos, now) ? Verdict.INSTALL : Verdict.WAIT;
    }

    /** Whether a coordinator last heard at {@code heardNanos} has been silent long enough at {@code now}. */
    boolean silent(long heardNanos, long now) {
        return heardNanos == Long.MIN_VALUE || now - heardNanos >= silenceNanos;
    }

    /** The coordinator of this member's current view ({@code null} before the first view). */
    A coordinator() {
        return coordinator;
    }
}
