package io.zaris.cluster;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.pbcast.DeltaView;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.stack.Protocol;
import org.jgroups.util.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A protocol right below {@code GMS} that keeps a member with the coordinator it still hears: a view that leaves that
 * coordinator out reaches {@code GMS} only once this member's own failure detection (below) has confirmed the
 * coordinator as suspected. The rule and why are in {@link CoordinatorLoyalty}; this class only applies it to
 * JGroups' messages and events.
 *
 * <ul>
 *   <li>A regular view ({@code VIEW}) is held back, the newest one only, for at most {@code holdLimit}: a suspicion
 *       of the coordinator arriving meanwhile passes it up (after a crash the suspicion and the view arrive within
 *       milliseconds of each other, in either order); otherwise it is dropped when it expires or a view is installed.
 *       Its sender stops waiting for this member's acknowledgement after its own timeout.</li>
 *   <li>A merge view ({@code INSTALL_MERGE_VIEW}) is refused: this member cancels its part in that merge, and
 *       {@code MERGE3} starts another within seconds, with this member's coordinator if it is reachable.</li>
 * </ul>
 *
 * <p>Threads: JGroups calls {@code up} and {@code down} from many threads at once; every field is guarded by
 * {@code this}, and messages are passed up outside the lock.
 */
final class MembershipGate extends Protocol {

    private static final Logger log = LoggerFactory.getLogger(MembershipGate.class);
    private static final short GMS_ID = ClassConfigurator.getProtocolId(GMS.class);

    private final String nodeId;
    private final long holdLimitNanos;
    private final LongSupplier nanoTime;

    private CoordinatorLoyalty<Address> loyalty;
    private Message held;
    private long heldSinceNanos;

    /**
     * @param nodeId    this node, for logs
     * @param holdLimit how long a view waits for this member to suspect the coordinator it leaves out: the escalation
     *                  timeout and a margin, by which failure detection here confirms any coordinator that is gone
     * @param nanoTime  the node's monotonic clock
     */
    MembershipGate(String nodeId, Duration holdLimit, LongSupplier nanoTime) {
        this.nodeId = nodeId;
        this.holdLimitNanos = holdLimit.toNanos();
        this.nanoTime = nanoTime;
    }

    @Override
    protected boolean accept(Message message) {
        return viewType(message) != 0;
    }

    @Override
    public Object up(Message message) {
        byte type = viewType(message);
        if (type == 0) {
            return up_prot.up(message);
        }
        Tuple<View, ?> viewAndDigest = readView(message);
        View view = viewAndDigest == null ? null : viewAndDigest.getVal1();
        if (view == null) {
            return up_prot.up(message); // GMS reports what it cannot read
        }
        Message expired;
        CoordinatorLoyalty.Verdict verdict;
        Address coordinator;
        synchronized (this) {
            expired = takeExpired();
            CoordinatorLoyalty<Address> current = loyalty();
            verdict = current.judge(membersOf(view), removedBy(view));
            coordinator = current.coordinator();
            if (verdict == CoordinatorLoyalty.Verdict.WAIT_FOR_SUSPICION && type == GMS.GmsHeader.VIEW) {
                held = message;
                heldSinceNanos = nanoTime.getAsLong();
            }
        }
        logExpired(expired);
        if (verdict == CoordinatorLoyalty.Verdict.INSTALL) {
            return up_prot.up(message);
        }
        if (type == GMS.GmsHeader.VIEW) {
            log.info("node {}: holds back membership view {} from {}: it leaves out {}, the coordinator this node still "
                            + "hears and follows; it is installed only if this node's failure detection confirms {} as "
                            + "suspected", nodeId, view.getViewId(), message.getSrc(), coordinator, coordinator);
            return null;
        }
        log.info("node {}: refuses merge view {} from {}: it leaves out {}, the coordinator this node still hears and "
                + "follows", nodeId, view.getViewId(), message.getSrc(), coordinator);
        // This node answered the merge request and waits for this view with other merges refused; cancelling frees it
        // at once rather than after the merge's own timeout (10 s), so the merge that follows a healed link goes ahead.
        GMS.GmsHeader header = message.getHeader(GMS_ID);
        up_prot.up(new EmptyMessage(getAddress()).setSrc(message.getSrc())
                .putHeader(GMS_ID, new GMS.GmsHeader(GMS.GmsHeader.CANCEL_MERGE).mergeId(header.getMergeId())));
        return null;
    }

    @Override
    public Object up(Event event) {
        Message release = null;
        Message expired = null;
        if (event.getType() == Event.SUSPECT) {
            Collection<Address> members = event.getArg();
            synchronized (this) {
                expired = takeExpired();
                if (loyalty().suspected(members) && held != null) {
                    release = held;
                    held = null;
                }
            }
        } else if (event.getType() == Event.UNSUSPECT) {
            synchronized (this) {
                loyalty().unsuspected(event.getArg());
            }
        }
        logExpired(expired);
        Object result = up_prot.up(event);
        if (release != null) {
            log.info("node {}: its failure detection confirmed the coordinator it followed as suspected; installs the "
                    + "membership view it held back", nodeId);
            up_prot.up(release);
        }
        return result;
    }

    /**
     * {@code member} said it leaves the membership on purpose: a view without it is installed at once, as after a
     * suspicion. Called on the cluster member's events thread.
     */
    void memberLeaving(Address member) {
        Message release;
        synchronized (this) {
            boolean coordinatorLeaves = loyalty().suspected(List.of(member));
            release = coordinatorLeaves ? held : null;
            if (release != null) {
                held = null;
            }
        }
        if (release != null) {
            log.info("node {}: the coordinator it followed left on purpose; installs the membership view it held back",
                    nodeId);
            up_prot.up(release);
        }
    }

    @Override
    public Object down(Event event) {
        if (event.getType() == Event.VIEW_CHANGE) {
            View installed = event.getArg();
            Message expired;
            synchronized (this) {
                expired = takeExpired();
                loyalty().viewInstalled(installed.getCoord());
                held = null; // a newer view than the one held, or the same: GMS would discard it
            }
            logExpired(expired);
        }
        return down_prot.down(event);
    }

    private CoordinatorLoyalty<Address> loyalty() {
        if (loyalty == null) {
            loyalty = new CoordinatorLoyalty<>(getAddress());
        }
        return loyalty;
    }

    /** Under the lock: the held view if it waited too long (it is dropped), else {@code null}. */
    private Message takeExpired() {
        if (held == null || nanoTime.getAsLong() - heldSinceNanos < holdLimitNanos) {
            return null;
        }
        Message expired = held;
        held = null;
        return expired;
    }

    private void logExpired(Message expired) {
        if (expired != null) {
            log.info("node {}: drops the membership view held back from {}: the coordinator it leaves out was not "
                    + "suspected here within {} ms", nodeId, expired.getSrc(), holdLimitNanos / 1_000_000);
        }
    }

    /** {@code VIEW} or {@code INSTALL_MERGE_VIEW} for a message carrying a view to install, else 0. */
    private static byte viewType(Message message) {
        if (GMS_ID == 0 || !(message.getHeader(GMS_ID) instanceof GMS.GmsHeader header)) {
            return 0;
        }
        byte type = header.getType();
        return type == GMS.GmsHeader.VIEW || type == GMS.GmsHeader.INSTALL_MERGE_VIEW ? type : 0;
    }

    private Tuple<View, ?> readView(Message message) {
        try {
            return GMS._readViewAndDigest(message.getArray(), message.getOffset(), message.getLength());
        } catch (Exception e) {
            log.debug("node {}: cannot read a membership view from {}: {}", nodeId, message.getSrc(), e.toString());
            return null;
        }
    }

    private static Collection<Address> membersOf(View view) {
        return view instanceof DeltaView ? List.of() : view.getMembers();
    }

    private static Collection<Address> removedBy(View view) {
        if (view instanceof DeltaView delta && delta.getLeftMembers() != null) {
            return Arrays.asList(delta.getLeftMembers());
        }
        return List.of();
    }
}
