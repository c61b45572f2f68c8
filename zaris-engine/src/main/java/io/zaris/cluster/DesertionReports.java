package io.zaris.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which members of this node's view reported that they stopped following its coordinator ({@link
 * ClusterMessages#DESERTED}), and whether those heard lately make a majority with this node.
 *
 * <p><b>Why.</b> A member stops following a coordinator that confirmed none of its lease requests for a lease (it
 * hears nobody) only when it heard a majority of its view without that coordinator all through the lease, with no
 * silence of a second (see {@link MemberReactions}). But JGroups changes the view on a suspicion only at the member
 * next in line: if that member's own hearing was cut short once — a second's stall of its process or of a peer on a
 * loaded machine starts its count again, for a whole lease — the others' desertions change nothing, and the deaf
 * coordinator stays until its own failure detection excludes them, the escalation timeout (13.5 s without a write in
 * a run on the network bed, against 6-8 s). A report closes that gap: its sender heard a majority without the
 * coordinator all through the lease, and this node, hearing the report, hears the sender now. A node cut off from the
 * others hears no report, so it still keeps following its coordinator and is left to the leader.
 *
 * <p>A report counts while it is fresh (its sender repeats it every quarter lease while its view lasts), and only
 * for the view it arrived in. Pure: every event comes with {@code now} (monotonic nanos).
 *
 * <p>Concurrency: not thread-safe; owned by the cluster member's events thread. At most one entry per member of the
 * current view: the member records only reports from members of its view, and forgets them at every view change.
 *
 * @param <A> how membership addresses a node
 */
final class DesertionReports<A> {

    private final long freshNanos;
    /** Member → when its latest report arrived. */
    private final Map<A, Long> reportedNanos = new HashMap<>();

    /** @param fresh how long a report counts after it arrived: longer than its sender's repeat interval */
    DesertionReports(Duration fresh) {
        this.freshNanos = fresh.toNanos();
    }

    /** {@code member}, of this node's view and other than this node and the coordinator, reported at {@code now}. */
    void reported(A member, long now) {
        reportedNanos.put(member, now);
    }

    /** A new membership view: the reports were about the coordinator of the previous one. */
    void viewChanged() {
        reportedNanos.clear();
    }

    /** The members of {@code members} whose latest report is fresh at {@code now}, in the view's order. */
    List<A> freshReporters(Collection<A> members, long now) {
        List<A> fresh = new ArrayList<>();
        for (A member : members) {
            Long reported = reportedNanos.get(member);
            if (reported != null && now - reported < freshNanos) {
                fresh.add(member);
            }
        }
        return fresh;
    }

    /** Whether this node and {@code reporters} are a majority of {@code votingSize} voters. */
    static boolean majorityWithSelf(Collection<?> reporters, int votingSize) {
        return (reporters.size() + 1) * 2 > votingSize;
    }
}
