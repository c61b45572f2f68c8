package io.zaris.cluster;

import io.zaris.model.ClusterView;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster changes an operator asks one node for: a hand-over of one partition, decided here when this node is
 * the confirmed leader (see {@link HandOver}); this node's own drain, asked of the leader and repeated until the held
 * map gives this node no role (see {@link DrainProgress}); and a rebalance, asked of the leader once.
 *
 * <p>Reads no clock: the drain's repeats take {@code now} (monotonic nanos of the node's clock).
 *
 * <p>Concurrency: every method but {@link #drainFuture()} and {@link #isDraining()} runs on the cluster member's
 * events thread, which owns the drain's bookkeeping; those two read what {@link DrainProgress} publishes for other
 * threads.
 */
final class OperatorRequests {

    /** The member's logger: an operator's requests are part of its membership's story, under one name. */
    private static final Logger log = LoggerFactory.getLogger(ClusterMember.class);

    /** What the requests need of their member, on the events thread. */
    interface Member {

        /** Whether this node may change the runtime map now: it leads, and a majority confirmed it. */
        boolean mayDecide();

        /** The held cluster view; {@code null} before the first. */
        ClusterView held();

        /** Publishes a view this leader decided. */
        void publish(ClusterView decided);

        /** The leader changed {@code partition} outside a failover round (the round waits before touching it again). */
        void recordChange(int partition);

        /** Whether messages can go out: the node is connected and has a membership view. */
        boolean canBroadcast();

        /** Sends one encoded cluster message to every member. */
        void broadcast(byte[] message);

        /** Ids of the nodes membership sees now. */
        Set<String> presentNodes();
    }

    private final String nodeId;
    private final Member member;
    private final DrainProgress drain = new DrainProgress();

    OperatorRequests(String nodeId, Member member) {
        this.nodeId = nodeId;
        this.member = member;
    }

    /**
     * Leader only: makes {@code target} the active owner of {@code partition} with a new epoch and publishes it.
     *
     * @return the new epoch
     * @throws IllegalStateException when this node is not the confirmed leader or holds no map, or when
     *                               {@link HandOver} refuses the move
     */
    long handOver(int partition, String target) {
        ClusterView held = member.held();
        if (!member.mayDecide() || held == null) {
            throw new IllegalStateException("node " + nodeId
                    + " is not the confirmed leader (or has no map); hand-overs are decided by the leader");
        }
        HandOver.Decision decision = HandOver.decide(held, partition, target);
        log.info("node {}: leader hands partition {} from {} to {} (epoch {} -> {})", nodeId, partition,
                decision.before().activeNode(), target, decision.before().epoch(), decision.after().epoch());
        member.publish(decision.next());
        member.recordChange(partition);
        return decision.after().epoch();
    }

    /** Asks for this node's drain at {@code now}: sent at once, then repeated (see {@link #repeatDrainRequest}). */
    void drain(long now) {
        if (drain.request()) {
            log.info("node {}: draining — asking the leader to move its partitions to the other nodes", nodeId);
        }
        repeatDrainRequest(now);
        checkDrained();
    }

    /** Any thread: completes once drained; fails when nobody can take the partitions or the node stops first. */
    CompletableFuture<Void> drainFuture() {
        return drain.future();
    }

    /** Any thread: whether a drain was asked for. */
    boolean isDraining() {
        return drain.isRequested();
    }

    /**
     * Every round: at most once a second while draining — also once drained, so a drained node that keeps running
     * stays out of the map (its request would otherwise lapse and it would be planned back in).
     */
    void repeatDrainRequest(long now) {
        if (!drain.isRequested() || !member.canBroadcast() || !drain.requestDue(now)) {
            return;
        }
        member.broadcast(ClusterMessages.encodePlanRequest(new ClusterMessages.PlanRequest(ClusterMessages.DRAIN, nodeId)));
        checkDrained();
    }

    /** After every installed view: settles the drain once the held view gives this node no role. */
    void checkDrained() {
        ClusterView held = member.held();
        if (!drain.isRequested() || held == null) {
            return;
        }
        if (drain.settle(held, nodeId, member.presentNodes()) == DrainProgress.Outcome.DRAINED) {
            log.info("node {}: drained — map version {} gives it no partition", nodeId, held.partitionMap().version());
        }
    }

    /** Asks the leader to plan the map over the present nodes now, without waiting for a newcomer's settle delay. */
    void requestRebalance() {
        if (member.canBroadcast()) {
            member.broadcast(ClusterMessages.encodePlanRequest(
                    new ClusterMessages.PlanRequest(ClusterMessages.REBALANCE, nodeId)));
        }
    }

    /** Any thread: the node stops; a drain not finished by now fails. */
    void stopped() {
        drain.stopped(nodeId);
    }
}
