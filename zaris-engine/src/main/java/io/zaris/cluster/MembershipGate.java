package io.zaris.cluster;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
 * coordinator out reaches {@code GMS} only once this member has heard nothing from the coordinator for a while
 * ({@link HeardFrom}), or the coordinator said goodbye. The rule and why are in {@link CoordinatorLoyalty}; this class
 * only applies it to JGroups' messages.
 *
 * <ul>
 *   <li>A regular view ({@code VIEW}) is held back, the newest one only, and checked every
 *       {@value #RECHECK_MILLIS} ms: it is passed up once the coordinator is silent (after a crash, within a fraction
 *       of a second) and dropped after {@code holdLimit} or when another view is installed. Its sender stops waiting
 *       for this member's acknowledgement after its own timeout.</li>
 *   <li>A merge view ({@code INSTALL_MERGE_VIEW}) is refused: this member cancels its part in that merge, and
 *       {@code MERGE3} starts another within seconds, with this member's coordinator if it is reachable.</li>
 * </ul>
 *
 * <p>Threads: JGroups calls {@code up} and {@code down} from many threads at once, the re-check runs on JGroups' timer
 * and {@link #memberLeaving} on the cluster member's events thread; every field is guarded by {@code this}, and
 * messages are passed up outside the lock.
 */
final class MembershipGate extends Protocol {

    private static final Logger log = LoggerFactory.getLogger(MembershipGate.class);
    private static final short GMS_ID = ClassConfigurator.getProtocolId(GMS.class);
    /** How often a held view is checked against its coordinator's silence. */
    private static final long RECHECK_MILLIS = 100;

    private final String nodeId;
    private final long holdLimitNanos;
    private final long silenceNanos;
    private final HeardFrom heardFrom;
    private final LongSupplier nanoTime;

    private CoordinatorLoyalty<Address> loyalty;
    private Message held;
    private long heldSinceNanos;
    private Future<?> recheck;

    /**
     * @param nodeId    this node, for logs
     * @param holdLimit how long a view is held at most: the escalation timeout and a margin, by which failure detection
     *                  would have excluded a coordinator that is gone
     * @param silence   how long this member must have heard nothing from its coordinator to follow a view without it
     * @param heardFrom when this member last heard each other member
     * @param nanoTime  the node's monotonic clock
     */
    MembershipGate(String nodeId, Duration holdLimit, Duration silence, HeardFrom heardFrom, LongSupplier nanoTime) {
        this.nodeId = nodeId;
        this.holdLimitNanos = holdLimit.toNanos();
        this.silenceNanos = silence.toNanos();
        this.heardFrom = heardFrom;
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
        CoordinatorLoyalty.Verdict verdict;
        Address coordinator;
        synchronized (this) {
            CoordinatorLoyalty<Address> current = loyalty();
            coordinator = current.coordinator();
            verdict = current.judge(membersOf(view), removedBy(view), heardFrom.lastHeard(coordinator), nanoTime.getAsLong());
            if (verdict == CoordinatorLoyalty.Verdict.WAIT && type == GMS.GmsHeader.VIEW) {
                hold(message);
            }
        }
        if (verdict == CoordinatorLoyalty.Verdict.INSTALL) {
            return up_prot.up(message);
        }
        if (type == GMS.GmsHeader.VIEW) {
            log.info("node {}: holds back membership view {} from {}: it leaves out {}, the coordinator this node still "
                    + "hears and follows", nodeId, view.getViewId(), message.getSrc(), coordinator);
            return null;
        }
        log.info("node {}: refuses merge view {} from {}: it leaves out {}, the coordinator this node still hears and "
                + "follows", nodeId, view.getViewId(), message.getSrc(), coordinator);
        // This node answered the merge request and waits for this view with other merges refused; cancelling frees it
        // at once rather than after the merge's own timeout, so the merge that follows a healed link goes ahead.
        GMS.GmsHeader header = message.getHeader(GMS_ID);
        up_prot.up(new EmptyMessage(getAddress()).setSrc(message.getSrc())
                .putHeader(GMS_ID, new GMS.GmsHeader(GMS.GmsHeader.CANCEL_MERGE).mergeId(header.getMergeId())));
        return null;
    }

    /**
     * {@code member} said it leaves the membership on purpose: a view without it is installed at once. Called on the
     * cluster member's events thread.
     */
    void memberLeaving(Address member) {
        Message release = null;
        synchronized (this) {
            if (loyalty().left(member) && held != null) {
                release = takeHeld();
            }
        }
        if (release != null) {
            log.info("node {}: the coordinator it followed left on purpose; installs the membership view it held back",
                    nodeId);
            up_prot.up(release);
        }
    }

    /**
     * Whether this member has heard {@code member} since {@code sinceNanos} with no silence of the coordinator silence
     * or more, and still hears it at {@code now}. Any thread.
     */
    boolean heardThroughout(Address member, long sinceNanos, long now) {
        long lastHeard = heardFrom.lastHeard(member);
        return lastHeard != Long.MIN_VALUE && now - lastHeard < silenceNanos
                && heardFrom.heardWithoutGapSince(member) <= sinceNanos;
    }

    /**
     * This member stops following {@code coordinator}, which confirms none of its lease requests although it is still
     * heard (it hears nobody). A held view without it is installed; otherwise {@code GMS} is told to suspect it, so
     * the member next in line takes over at once rather than after failure detection. Called on the cluster member's
     * events thread.
     */
    void coordinatorDeserted(Address coordinator) {
        Message release = null;
        boolean followed;
        synchronized (this) {
            followed = loyalty().left(coordinator);
            if (followed && held != null) {
                release = takeHeld();
            }
        }
        if (!followed) {
            return;
        }
        if (release != null) {
            log.info("node {}: no longer follows {}, which confirms no lease; installs the membership view it held back",
                    nodeId, coordinator);
            up_prot.up(release);
            return;
        }
        log.info("node {}: no longer follows {}, which confirms no lease although it is heard; suspects it", nodeId,
                coordinator);
        up_prot.up(new Event(Event.SUSPECT, List.of(coordinator)));
    }

    @Override
    public Object down(Event event) {
        if (event.getType() == Event.VIEW_CHANGE) {
            View installed = event.getArg();
            synchronized (this) {
                loyalty().viewInstalled(installed.getCoord());
                takeHeld(); // a newer view than the one held, or the same: GMS would discard it
            }
        }
        return down_prot.down(event);
    }

    @Override
    public void stop() {
        synchronized (this) {
            takeHeld();
        }
        super.stop();
    }

    /** Timer thread: passes the held view up once its coordinator is silent, drops it once it waited too long. */
    private void recheckHeld() {
        Message release = null;
        boolean expired = false;
        Address coordinator;
        synchronized (this) {
            if (held == null) {
                return;
            }
            long now = nanoTime.getAsLong();
            coordinator = loyalty().coordinator();
            if (loyalty().silent(heardFrom.lastHeard(coordinator), now)) {
                release = takeHeld();
            } else if (now - heldSinceNanos >= holdLimitNanos) {
                takeHeld();
                expired = true;
            }
        }
        if (release != null) {
            log.info("node {}: hears no more from {}, the coordinator it followed; installs the membership view it held "
                    + "back", nodeId, coordinator);
            up_prot.up(release);
        } else if (expired) {
            log.info("node {}: drops the membership view it held back: {} was still heard after {} ms", nodeId, coordinator,
                    holdLimitNanos / 1_000_000);
        }
    }

    /** Under the lock: holds {@code message}, the newest view to wait for, and starts the re-check if needed. */
    private void hold(Message message) {
        held = message;
        heldSinceNanos = nanoTime.getAsLong();
        if (recheck == null) {
            recheck = getTransport().getTimer().scheduleWithFixedDelay(this::recheckHeld, RECHECK_MILLIS, RECHECK_MILLIS,
                    TimeUnit.MILLISECONDS, false);
        }
    }

    /** Under the lock: the held view, if any, no longer held; the re-check stops. */
    private Message takeHeld() {
        Message taken = held;
        held = null;
        if (recheck != null) {
            recheck.cancel(false);
            recheck = null;
        }
        return taken;
    }

    private CoordinatorLoyalty<Address> loyalty() {
        if (loyalty == null) {
            loyalty = new CoordinatorLoyalty<>(getAddress(), silenceNanos);
        }
        return loyalty;
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
