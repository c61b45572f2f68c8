package io.zaris.cluster;

import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's planned map changes: a node that joined and stayed for the settle delay, a node that asked to
 * drain, or an operator's rebalance request make {@link PartitionPlanner} compute a target map over the
 * nodes that should hold data, and the held map moves toward it at most
 * {@link ClusterSettings#maxConcurrentMoves()} partitions at a time.
 *
 * <p>A partition moves in two steps. First its planned owners are listed ahead of its previous ones, which
 * stay owners: the serving active keeps it (the coordinator marks it DEGRADED under a new epoch), the new
 * owners sync from it as replicas, by the same snapshot and log replay as any replica, and the ordinary
 * heal hands the partition to its new preferred primary once every owner is in sync. That hand-over pulls
 * from the previous active before serving, so no acknowledged write is left behind. Only then, healthy on
 * its new primary, does it drop the previous owners. Until that second step every node that held its data
 * still does and is an owner a failover can promote: a move that dropped the previous replica at once left
 * a single copy on the active until the new owners caught up, and a chaos run lost a partition when that
 * active froze (the leader failed it over to the new owner, which held nothing yet).
 *
 * <p>Concurrency: owned by the {@link FailoverCoordinator}, confined to the cluster member's events thread.
 */
final class Rebalancer {

    private static final Logger log = LoggerFactory.getLogger(Rebalancer.class);
    /** A drain request not repeated for this long is dropped (the node restarted or gave up). */
    static final Duration DRAIN_REQUEST_TTL = Duration.ofSeconds(5);

    private final String nodeId;
    private final ClusterSettings settings;
    /** Present node outside the map → when this leader first saw it. */
    private final Map<String, Long> joinedSince = new HashMap<>();
    /** Draining node → when its request was last heard. */
    private final Map<String, Long> drainHeard = new HashMap<>();
    private boolean rebalanceRequested;
    /** When the current rebalance began and how many moves it started, for progress and ETA; -1: none runs. */
    private long startedNanos = -1;
    private int movesStarted;
    private String blockedReason;
    /** Written on the events thread, read by metrics and health from any thread. */
    private volatile RebalanceStatus status = RebalanceStatus.IDLE;

    Rebalancer(String nodeId, ClusterSettings settings) {
        this.nodeId = nodeId;
        this.settings = settings;
    }

    void drainRequested(String node, long now) {
        if (drainHeard.put(node, now) == null) {
            log.info("node {}: {} asks to be drained; its partitions move to the other nodes", nodeId, node);
        }
    }

    void rebalanceRequested(String by) {
        rebalanceRequested = true;
        log.info("node {}: rebalance requested by {}; newcomers get partitions without waiting to settle", nodeId, by);
    }

    /** Whether {@code node} asked to be drained recently. */
    boolean isDraining(String node) {
        return drainHeard.containsKey(node);
    }

    /** Not leading any more: what was heard is re-heard by the next leader (requests repeat, joins are re-seen). */
    void forget() {
        joinedSince.clear();
        drainHeard.clear();
        rebalanceRequested = false;
        startedNanos = -1;
        status = RebalanceStatus.IDLE;
    }

    RebalanceStatus status() {
        return status;
    }

    /**
     * The next map to publish, or {@code null} when the held map is where it should be or moves are still
     * running. {@code present}: the node ids membership shows that announced themselves.
     */
    PartitionMap nextMap(PartitionMap map, RuntimeMap runtime, Set<String> present, long now) {
        joinedSince.keySet().retainAll(present);
        drainHeard.entrySet().removeIf(e -> !present.contains(e.getKey()) && !map.nodes().contains(e.getKey())
                || now - e.getValue() > DRAIN_REQUEST_TTL.toNanos());
        Set<String> members = new TreeSet<>(map.nodes()); // a missing node stays until the eviction delay passes
        for (String node : present) {
            if (!map.nodes().contains(node)) {
                long since = joinedSince.computeIfAbsent(node, k -> now);
                if (rebalanceRequested || now - since >= settings.joinSettleDelay().toNanos()) {
                    members.add(node);
                }
            }
        }
        members.removeAll(drainHeard.keySet());
        if (members.isEmpty()) {
            block("every node asked to be drained; the map stays as it is");
            return null;
        }
        PartitionMap target = PartitionPlanner.plan(members, map.partitionCount(), settings.replicationFactor(), map);
        if (target.owners().equals(map.owners())) {
            if (startedNanos >= 0 && settled(map, runtime) == map.partitionCount()) {
                log.info("node {}: rebalance done: map version {} over {} ({} partition move(s) in {} s)", nodeId,
                        map.version(), map.nodes(), movesStarted, Duration.ofNanos(now - startedNanos).toSeconds());
                startedNanos = -1;
            }
            if (startedNanos < 0) {
                status = RebalanceStatus.IDLE;
            }
            rebalanceRequested = false;
            return null;
        }
        PartitionMap next = step(map, target, runtime, settings.maxConcurrentMoves(), present);
        if (next == null) {
            Set<String> waitingFor = new TreeSet<>();
            for (int p : differing(map, target)) {
                waitingFor.addAll(map.ownersOf(p));
                waitingFor.addAll(target.ownersOf(p));
            }
            waitingFor.removeAll(present);
            if (!waitingFor.isEmpty()) {
                block("moves of partitions owned by or planned for " + waitingFor + " wait until they are back or evicted");
            }
            if (startedNanos >= 0) {
                int moving = map.partitionCount() - settled(map, runtime);
                int remaining = differing(map, target).size() + unsettledMoves(map, target, runtime);
                status = new RebalanceStatus(true, remaining, moving, movesStarted,
                        etaSeconds(now, movesStarted - moving, remaining));
            }
            return null;
        }
        if (startedNanos < 0) {
            startedNanos = now;
            movesStarted = 0;
            log.info("node {}: rebalance begins toward {} (map version {}): {} partition(s) to move, at most {} at a time",
                    nodeId, members, map.version(), differing(map, target).size(), settings.maxConcurrentMoves());
        }
        List<Integer> starting = new ArrayList<>();
        List<Integer> finishing = new ArrayList<>();
        for (int p : differing(map, next)) {
            (map.ownersOf(p).containsAll(next.ownersOf(p)) ? finishing : starting).add(p);
        }
        movesStarted += starting.size();
        // Partitions whose owners still differ from the plan: those this step starts included, as their
        // previous owners stay listed until they are healthy on the new primary.
        int remaining = differing(next, target).size();
        int notStarted = 0;
        for (int p : differing(next, target)) {
            if (!next.ownersOf(p).containsAll(target.ownersOf(p))) {
                notStarted++;
            }
        }
        int unsettled = map.partitionCount() - settled(map, runtime);
        long etaSeconds = etaSeconds(now, movesStarted - starting.size() - unsettled, remaining);
        String eta = etaSeconds < 0 ? "unknown" : etaSeconds + " s";
        status = new RebalanceStatus(true, remaining, unsettled + starting.size(), movesStarted, etaSeconds);
        log.info("node {}: rebalance step: map version {} -> {} moves partition(s) {} and drops the previous owners of {}; "
                + "{} more to move; ETA {}", nodeId, map.version(), next.version(), starting, finishing, notStarted, eta);
        blockedReason = null;
        return next;
    }

    /** Time left at the pace so far: {@code -1} until a move completed. */
    private long etaSeconds(long now, int completedMoves, int remainingMoves) {
        if (completedMoves <= 0) {
            return -1;
        }
        return Duration.ofNanos((now - startedNanos) / completedMoves * remainingMoves).toSeconds();
    }

    private void block(String reason) {
        if (!reason.equals(blockedReason)) {
            log.warn("node {}: rebalance: {}", nodeId, reason);
            blockedReason = reason;
        }
    }

    /**
     * One bounded step from {@code map} toward {@code target}. A partition counts as moving until it is
     * HEALTHY on its preferred primary; only settled partitions start to move, and at most {@code maxMoves}
     * move at once. A partition moves only while every owner it has and every owner it is to get is
     * present: the runtime map may still call a partition healthy whose active just vanished (the failover
     * round that notices runs after this), and a move then dropped the live replica holding its data for a
     * new owner holding nothing (a chaos run lost two partitions so, a paused node's partitions moved by the
     * leader that replaced it). Pure.
     *
     * @param present node ids membership shows that announced themselves
     * @return the next map (the version after {@code map}'s), or {@code null} when nothing may start now
     */
    static PartitionMap step(PartitionMap map, PartitionMap target, RuntimeMap runtime, int maxMoves,
                             Set<String> present) {
        int moving = map.partitionCount() - settled(map, runtime);
        List<Integer> pending = new ArrayList<>();
        List<Integer> shedding = new ArrayList<>();
        for (int p = 0; p < map.partitionCount(); p++) {
            List<String> current = map.ownersOf(p);
            List<String> planned = target.ownersOf(p);
            if (isSettled(map, runtime, p) && !planned.equals(current)
                    && present.containsAll(current) && present.containsAll(planned)) {
                // Dropping owners while the primary stays moves nothing: it does not count against the bound.
                (current.containsAll(planned) && planned.get(0).equals(current.get(0)) ? shedding : pending).add(p);
            }
        }
        int starting = Math.max(0, Math.min(pending.size(), maxMoves - moving));
        if (shedding.isEmpty() && starting == 0) {
            return null;
        }
        List<List<String>> owners = new ArrayList<>(map.owners());
        for (int p : shedding) {
            owners.set(p, target.ownersOf(p));
        }
        for (int p : pending.subList(0, starting)) {
            owners.set(p, movedOwners(map.ownersOf(p), target.ownersOf(p), map.replicationFactor()));
        }
        return new PartitionMap(Math.addExact(map.version(), 1), map.replicationFactor(), owners);
    }

    /**
     * The owners of a settled partition one step toward {@code planned}. When the current owners include every
     * planned one (they synced while both were listed, or the move only sheds an owner), the planned owners
     * alone; otherwise {@link #plannedThenHolders} of the current owners.
     */
    static List<String> movedOwners(List<String> current, List<String> planned, int replicationFactor) {
        return current.containsAll(planned) ? planned : plannedThenHolders(planned, current, replicationFactor);
    }

    /**
     * The planned owners followed by the {@code holders} not planned: those keep their copies and their place
     * as failover candidates until the planned owners are in sync. Over twice the replication factor (the plan
     * changed again mid-move) the tail goes, but never the first holder, which serves.
     */
    static List<String> plannedThenHolders(List<String> planned, List<String> holders, int replicationFactor) {
        List<String> owners = new ArrayList<>(planned);
        for (String holder : holders) {
            if (!owners.contains(holder)) {
                owners.add(holder);
            }
        }
        String serving = holders.isEmpty() ? null : holders.get(0);
        while (owners.size() > 2 * replicationFactor) {
            owners.remove(owners.get(owners.size() - 1).equals(serving) ? owners.size() - 2 : owners.size() - 1);
        }
        return owners;
    }

    /** Partitions HEALTHY on their preferred primary. */
    static int settled(PartitionMap map, RuntimeMap runtime) {
        int settled = 0;
        for (int p = 0; p < map.partitionCount(); p++) {
            if (isSettled(map, runtime, p)) {
                settled++;
            }
        }
        return settled;
    }

    private static boolean isSettled(PartitionMap map, RuntimeMap runtime, int p) {
        PartitionRuntime entry = runtime.get(p);
        return entry.health() == PartitionHealth.HEALTHY && Objects.equals(entry.activeNode(), map.primaryOf(p));
    }

    /** Partitions already moved to their planned owners that are not yet HEALTHY on their new primary. */
    private static int unsettledMoves(PartitionMap map, PartitionMap target, RuntimeMap runtime) {
        int count = 0;
        for (int p = 0; p < map.partitionCount(); p++) {
            if (target.ownersOf(p).equals(map.ownersOf(p)) && !isSettled(map, runtime, p)) {
                count++;
            }
        }
        return count;
    }

    private static List<Integer> differing(PartitionMap a, PartitionMap b) {
        List<Integer> partitions = new ArrayList<>();
        for (int p = 0; p < a.partitionCount(); p++) {
            if (!a.ownersOf(p).equals(b.ownersOf(p))) {
                partitions.add(p);
            }
        }
        return partitions;
    }
}
