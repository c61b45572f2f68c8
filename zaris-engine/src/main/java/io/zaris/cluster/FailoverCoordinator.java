package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import io.zaris.protocol.PartitionState;
import io.zaris.replication.ReplicationSettings;
import io.zaris.time.TimeSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's failover loop: after every view change and every second it looks for partitions whose
 * active owner is gone (promote a replica), healthy partitions that lost a replica (mark them DEGRADED: the
 * same owner serves on, visibly with less redundancy), partitions that can heal (back to HEALTHY on the preferred
 * primary), and nodes missing longer than the eviction delay (re-home their copies with a versioned map
 * recomputation, which gives every partition that lost a copy a replacement replica on a live node). Promotion
 * comes first: a round that still has a partition to fail over neither evicts nor rebalances. With the default
 * eviction delay of zero, a crashed node's copies are replaced in the round after its partitions failed over. Decisions are {@link FailoverDecisions}; this class gathers their inputs over the
 * data transport and publishes the outcome as one new view with epoch + 1 per changed partition.
 *
 * <p>Concurrency: confined to the cluster member's events thread. A round's probes run asynchronously;
 * their results come back to the events thread, and only one round is in flight at a time. Results are
 * applied to the view current at that moment, so a view that changed meanwhile is never overwritten with
 * stale decisions for partitions that were not probed.
 */
final class FailoverCoordinator {

    private static final Logger log = LoggerFactory.getLogger(FailoverCoordinator.class);

    private final String nodeId;
    private final ClusterSettings clusterSettings;
    private final ReplicationSettings settings;
    private final PeerProbe probe;
    private final Executor events;
    private final TimeSource time;
    private final Map<String, Long> missingSince = new HashMap<>();
    /** Voters the map no longer names → when first seen absent (see {@link VoterRetention}). */
    private final Map<String, Long> absentVoterSince = new HashMap<>();
    private final Map<Integer, Long> lastChange = new HashMap<>();
    /**
     * Partition → the highest epoch any node reported observing (from every state answer so far). An
     * eviction mints epochs without asking anyone; it starts above these, so no node already fenced at a
     * higher epoch (by a view that lost a merge, or a disowned role) rejects the new one.
     */
    private final Map<Integer, Long> observedEpochs = new HashMap<>();
    /** Partition → epoch whose active owner restarted and asked to be relieved of it (see {@link #disown}). */
    private final Map<Integer, Long> disowned = new HashMap<>();

    /**
     * Partition → epoch for which a round already logged that it holds a failover back: the candidate it chose holds
     * nothing while an owner that may hold the data has not answered (logged once per epoch; see
     * {@link FailoverDecisions#holdersToAwait}).
     */
    private final Map<Integer, Long> awaitingHolder = new HashMap<>();
    /** Partition → why its last heal attempt was refused, logged when it changes so a stall explains itself. */
    private final Map<Integer, String> healBlockers = new HashMap<>();
    private final Rebalancer rebalancer;
    /**
     * Whether a node's owner lease has surely run out, by what this leader knows of its own grants: such a node
     * serves nothing, whether or not its data port answers, so its partitions fail over without the reachability
     * probe (which costs its full timeout when the node is silently cut off).
     */
    private final Predicate<String> ownerLeaseLapsed;
    /**
     * Whether a node still in the membership view has gone without a lease grant from this leader for longer than
     * a lease and a grace: it serves nothing (it refuses every request without a lease), so its active partitions
     * fail over to a serving owner now rather than when membership excludes it, twice as late. This is what a
     * node whose link flaps (never silent long enough to be excluded), whose packets to the leader are lost, or
     * that hangs, does to its keys otherwise.
     */
    private final Predicate<String> leaseLapsedWhileMember;
    /** Whether this leader confirmed a node's lease within the last lease: a suspended member that renewed serves again. */
    private final Predicate<String> leaseRenewed;
    /**
     * Whether this leader has kept a node's lease from lapsing for a whole lease: only then is a suspended member
     * resumed. A node on a flapping link renews in every short up-time; resumed then, it was a replica that every
     * SYNC write of its partitions waited for in the next outage, and when the outages fell so that its lease never
     * lapsed for a lease and a second within one, it was never suspended again: a CI run's keys went 15.1 s without
     * a write at load 1.6.
     */
    private final Predicate<String> leaseSteady;
    /**
     * Node → when this leader last resumed it after a suspension, or saw it back in the view. Nothing heals to a node
     * until it has served a whole
     * heal cooldown since: a flapping link resumes a node in each short up-time, and a partition handed back then
     * goes dark with the next outage until the node is suspended again (one lease and more). Entries older than the
     * cooldown are dropped, so the map holds at most the members resumed within it.
     */
    private final Map<String, Long> resumedAt = new HashMap<>();
    private boolean roundInFlight;
    /** Members of the membership view that had not announced themselves when the current round began. */
    private int unannouncedMembers;

    FailoverCoordinator(String nodeId, ClusterSettings clusterSettings, ReplicationSettings settings, PeerProbe probe,
                        Executor events, TimeSource time) {
        this(nodeId, clusterSettings, settings, probe, events, time, node -> false);
    }

    FailoverCoordinator(String nodeId, ClusterSettings clusterSettings, ReplicationSettings settings, PeerProbe probe,
                        Executor events, TimeSource time, Predicate<String> ownerLeaseLapsed) {
        this(nodeId, clusterSettings, settings, probe, events, time, ownerLeaseLapsed, node -> false, node -> false);
    }

    FailoverCoordinator(String nodeId, ClusterSettings clusterSettings, ReplicationSettings settings, PeerProbe probe,
                        Executor events, TimeSource time, Predicate<String> ownerLeaseLapsed,
                        Predicate<String> leaseLapsedWhileMember, Predicate<String> leaseRenewed) {
        this(nodeId, clusterSettings, settings, probe, events, time, ownerLeaseLapsed, leaseLapsedWhileMember,
                leaseRenewed, leaseRenewed);
    }

    FailoverCoordinator(String nodeId, ClusterSettings clusterSettings, ReplicationSettings settings, PeerProbe probe,
                        Executor events, TimeSource time, Predicate<String> ownerLeaseLapsed,
                        Predicate<String> leaseLapsedWhileMember, Predicate<String> leaseRenewed,
                        Predicate<String> leaseSteady) {
        this.leaseSteady = leaseSteady;
        this.ownerLeaseLapsed = ownerLeaseLapsed;
        this.leaseLapsedWhileMember = leaseLapsedWhileMember;
        this.leaseRenewed = leaseRenewed;
        this.nodeId = nodeId;
        this.clusterSettings = clusterSettings;
        this.settings = settings;
        this.probe = probe;
        this.events = events;
        this.time = time;
        this.rebalancer = new Rebalancer(nodeId, clusterSettings);
    }

    /** Events thread, leader only: {@code node} asked to have its partitions moved away (see {@link Rebalancer}). */
    void drainRequested(String node) {
        rebalancer.drainRequested(node, time.nanoTime());
    }

    /** Any thread: the rebalance this node runs as leader, or {@link RebalanceStatus#IDLE}. */
    RebalanceStatus rebalanceStatus() {
        return rebalancer.status();
    }

    /** Events thread, leader only: plan the map over the present nodes now. */
    void rebalanceRequested(String by) {
        rebalancer.rebalanceRequested(by);
    }

    /**
     * Events thread, leader only: {@code node} restarted and the view still names it active for these
     * partitions (under these epochs). It has none of their data, so they fail over as if it had left.
     */
    void disown(String node, Map<Integer, Long> partitions, ClusterView held) {
        partitions.forEach((partition, epoch) -> {
            if (partition >= 0 && partition < held.runtimeMap().partitionCount()
                    && node.equals(held.runtimeMap().get(partition).activeNode())
                    && held.runtimeMap().get(partition).epoch() == epoch && disowned.put(partition, epoch) == null) {
                log.info("node {}: {} restarted and gives up partition {} (epoch {}); failing it over", nodeId, node,
                        partition, epoch);
            }
        });
    }

    /**
     * Events thread, leader only: the round, with every member announced.
     *
     * @param held    the view this node holds
     * @param present node ids in the current membership view that announced themselves
     * @param latest  reads the view current when probe results come back
     * @param publish adopts and broadcasts a new view
     */
    void reconcile(ClusterView held, Set<String> present, Supplier<ClusterView> latest, Consumer<ClusterView> publish) {
        reconcile(held, present, 0, latest, publish);
    }

    /**
     * Events thread, leader only: the round. {@code unannounced}: how many members of the membership view have not
     * announced themselves to this node (their hello is still on its way, or was lost across a merge); they are not
     * in {@code present}, but one of them may hold a partition's only data, so no empty copy is promoted meanwhile.
     */
    void reconcile(ClusterView held, Set<String> present, int unannounced, Supplier<ClusterView> latest,
                   Consumer<ClusterView> publish) {
        if (held == null || roundInFlight) {
            return;
        }
        unannouncedMembers = unannounced;
        disowned.entrySet().removeIf(e -> held.runtimeMap().get(e.getKey()).epoch() != e.getValue());
        awaitingHolder.entrySet().removeIf(e -> held.runtimeMap().get(e.getKey()).epoch() != e.getValue());
        long now = time.nanoTime();
        for (String node : held.partitionMap().nodes()) {
            if (present.contains(node)) {
                if (missingSince.remove(node) != null) {
                    // Back in the view: a node resumed because it left the view (its cooldown ran while it was away)
                    // must serve a whole cooldown from its return before anything heals to it, or a flapping link
                    // gets partitions handed back in its short up-time and loses them again with the next outage.
                    resumedAt.put(node, now);
                }
            } else {
                missingSince.putIfAbsent(node, now);
            }
        }
        trackAbsentVoters(held, present, now);
        resumedAt.values().removeIf(resumed -> now - resumed >= settings.healCooldown().toNanos());
        if (suspendOrResume(held, present, now, publish)) {
            return;
        }
        Set<Integer> failover = new TreeSet<>();
        Set<Integer> heal = new TreeSet<>();
        Set<Integer> degrade = new TreeSet<>();
        Set<Integer> recovered = new TreeSet<>();
        for (int p = 0; p < held.layout().partitionCount(); p++) {
            PartitionRuntime runtime = held.runtimeMap().get(p);
            List<String> owners = held.partitionMap().ownersOf(p);
            if (runtime.activeNode() == null || !present.contains(runtime.activeNode()) || isDisowned(p, runtime)
                    || suspendedWithAnotherOwnerServing(held, runtime.activeNode(), owners, present)) {
                // With no owner present the round marks it UNAVAILABLE (once): requests get that answer rather
                // than a timeout at a node that is gone, until an owner returns or eviction re-homes it.
                if (owners.stream().anyMatch(present::contains) || runtime.activeNode() != null) {
                    failover.add(p);
                }
            } else if (runtime.health() == PartitionHealth.RECOVERING) {
                recovered.add(p);
            } else if (runtime.health() == PartitionHealth.HEALTHY && !allServe(held, owners, present)) {
                degrade.add(p);
            } else if (runtime.health() != PartitionHealth.HEALTHY && allServe(held, owners, present)
                    && stableFor(p, now) >= settings.healCooldown().toNanos()
                    && owners.stream().noneMatch(resumedAt::containsKey)
                    // an owner whose lease this leader knows ran out serves nothing: a heal handed to it (a flapping
                    // node between its suspensions) would leave the partition dark until the next failover
                    && owners.stream().noneMatch(ownerLeaseLapsed)) {
                heal.add(p);
            }
        }
        // A lost active is replaced first (availability); only a round with no failover left re-homes the
        // copies of missing nodes (redundancy), so an eviction never leaves a partition without an active that
        // a promotion could have given it at once.
        if (failover.isEmpty()) {
            if (evictMissingNodes(held, present, now, publish)) {
                return;
            }
            PartitionMap planned = rebalancer.nextMap(held.partitionMap(), held.runtimeMap(), present, now);
            if (planned != null) {
                fenceThenRemap(held, withMap(held, planned, present, now), present, latest, publish);
                return;
            }
            if (dropExpiredVoters(held, present, now, publish)) {
                return;
            }
        }
        if (failover.isEmpty() && heal.isEmpty() && degrade.isEmpty() && recovered.isEmpty()) {
            return;
        }
        Map<String, Set<Integer>> questions = new HashMap<>();
        Set<String> departedActives = new HashSet<>();
        for (int p : failover) {
            for (String owner : held.partitionMap().ownersOf(p)) {
                // A suspended owner cannot be promoted, and being silent (hung, cut off) it would hold the round for
                // the probe's whole timeout: a SIGSTOP'd node's partitions failed over a second later for its sake.
                if (present.contains(owner) && !held.suspended().contains(owner)) {
                    questions.computeIfAbsent(owner, k -> new TreeSet<>()).add(p);
                }
            }
            String active = held.runtimeMap().get(p).activeNode();
            if (active != null && !isDisowned(p, held.runtimeMap().get(p))) {
                departedActives.add(active);
            }
        }
        for (int p : heal) {
            for (String owner : held.partitionMap().ownersOf(p)) {
                questions.computeIfAbsent(owner, k -> new TreeSet<>()).add(p);
            }
            // the active confirms its replicas, and after an eviction it may no longer be an assigned owner
            questions.computeIfAbsent(held.runtimeMap().get(p).activeNode(), k -> new TreeSet<>()).add(p);
        }
        for (int p : degrade) {
            // the active's highest observed epoch, so the new epoch is above anything any node has seen
            questions.computeIfAbsent(held.runtimeMap().get(p).activeNode(), k -> new TreeSet<>()).add(p);
        }
        for (int p : recovered) {
            // whether the recovering active finished pulling from its fellows (its segments complete under the epoch)
            questions.computeIfAbsent(held.runtimeMap().get(p).activeNode(), k -> new TreeSet<>()).add(p);
        }
        roundInFlight = true;
        Map<String, CompletableFuture<Boolean>> reachability = new HashMap<>();
        for (String departed : departedActives) {
            NodeAddress address = held.addresses().get(departed);
            if (present.contains(departed)) {
                log.info("node {}: {} is suspended (a member without an owner lease): its partitions fail over to owners "
                        + "that serve, without probing its data port", nodeId, departed);
            } else if (ownerLeaseLapsed.test(departed)) {
                log.info("node {}: {} left the membership view and its owner lease has run out; its partitions fail "
                        + "over without probing its data port", nodeId, departed);
            } else if (address != null) {
                reachability.put(departed, probe.isReachable(address));
            }
        }
        Map<String, CompletableFuture<Map<Integer, PartitionState>>> answers = new HashMap<>();
        for (Map.Entry<String, Set<Integer>> question : questions.entrySet()) {
            NodeAddress address = held.addresses().get(question.getKey());
            if (address != null) {
                answers.put(question.getKey(), probe.partitionStates(address, question.getValue()));
            }
        }
        long asked = time.nanoTime();
        CompletableFuture<Void> statesIn = CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
                .handle((ignored, error) -> null);
        CompletableFuture<Void> probesIn = CompletableFuture.allOf(reachability.values().toArray(CompletableFuture[]::new))
                .handle((ignored, error) -> null);
        // A probe of a departed active costs its whole timeout when the node hangs (a paused former leader, whose
        // grants this leader never saw: 1 s). The partitions that only lost a replica, or finished recovering, need no
        // probe, and every SYNC write of the former waits for the lost replica until it is decided: they are decided
        // as soon as the states are in, the failovers once the probes answered; all at once when the probes were as
        // quick. (A heal may fence and hand over, which ends the round on its own; heals wait for the whole round.)

        // Set and read on the events thread only; an object because the two steps are lambdas.
        AtomicBoolean decidedEarly = new AtomicBoolean();
        CompletableFuture<Void> earlyStep = degrade.isEmpty() && recovered.isEmpty() ? CompletableFuture.completedFuture(null)
                : statesIn.thenRunAsync(() -> {
                    if (!probesIn.isDone()) {
                        decidedEarly.set(true);
                        noteObservedEpochs(answers);
                        apply(latest.get(), present, Set.of(), Set.of(), degrade, recovered, Map.of(),
                                joinStates(answers), latest, publish);
                    }
                }, events).handle((ignored, error) -> null);
        statesIn.thenCombine(probesIn, (states, probes) -> null).thenCombine(earlyStep, (round, early) -> null)
                .whenComplete((ignored, error) -> events.execute(() -> {
                    roundInFlight = false;
                    if (!failover.isEmpty()) {
                        // the round's share of a failover's time, apart from detection and the views' installation
                        log.info("node {}: failover round for {} partition(s): asked {} for their states{}, answered in {} ms",
                                nodeId, failover.size(), new TreeSet<>(answers.keySet()),
                                reachability.isEmpty() ? "" : " and probed " + new TreeSet<>(reachability.keySet()),
                                (time.nanoTime() - asked) / 1_000_000);
                    }
                    noteObservedEpochs(answers);
                    boolean early = decidedEarly.get();
                    apply(latest.get(), present, failover, heal, early ? Set.of() : degrade, early ? Set.of() : recovered,
                            join(reachability), joinStates(answers), latest, publish);
                }));
    }

    private void noteObservedEpochs(Map<String, CompletableFuture<Map<Integer, PartitionState>>> answers) {
        joinStates(answers).values().forEach(byPartition -> byPartition.forEach(
                (partition, state) -> observedEpochs.merge(partition, state.highestEpoch(), Math::max)));
    }

    private void apply(ClusterView view, Set<String> present, Set<Integer> failover, Set<Integer> heal,
                       Set<Integer> degrade, Set<Integer> recovered, Map<String, Boolean> reachable,
                       Map<String, Map<Integer, PartitionState>> states, Supplier<ClusterView> latest,
                       Consumer<ClusterView> publish) {
        if (view == null) {
            return;
        }
        List<PartitionRuntime> runtimes = new ArrayList<>(view.runtimeMap().partitions());
        boolean changed = false;
        long now = time.nanoTime();
        RoundDecisions decisions = new RoundDecisions();
        Map<Integer, PlannedHandOvers.Held> heldHandOvers = new TreeMap<>();
        for (int p : failover) {
            PartitionRuntime current = runtimes.get(p);
            boolean restarted = isDisowned(p, current);
            if (current.activeNode() != null && view.serves(current.activeNode(), present) && !restarted) {
                continue; // resolved meanwhile
            }
            if (current.activeNode() != null && !restarted && view.suspended().contains(current.activeNode())
                    && present.contains(current.activeNode()) && leaseRenewed.test(current.activeNode())) {
                // This leader granted the suspended active a lease while the round was out: it may serve again under
                // its view, so a new active now would serve beside it. The next round resumes it instead.
                continue;
            }
            if (current.activeNode() != null && !restarted && reachable.getOrDefault(current.activeNode(), false)) {
                log.info("node {}: {} left the membership view but its data port still answers; it keeps partition {}",
                        nodeId, current.activeNode(), p);
                continue;
            }
            List<String> owners = view.partitionMap().ownersOf(p);
            Map<String, PartitionState> candidates = new HashMap<>();
            long highestObserved = 0;
            for (String owner : owners) {
                PartitionState state = states.getOrDefault(owner, Map.of()).get(p);
                if (state != null && view.serves(owner, present)) {
                    // a copy that has not seen the partition's current epoch cannot be complete under it (a suspended
                    // or cut-off replica the active stopped shipping to, before the view reached it)
                    candidates.put(owner, state.highestEpoch() < current.epoch() ? new PartitionState(state.highestEpoch(),
                            state.revisionSum(), state.keys(), 0, state.confirmedReplicas()) : state);
                    highestObserved = Math.max(highestObserved, state.highestEpoch());
                }
            }
            if (restarted) {
                // It has nothing, whatever it answered: its previous process's data is gone.
                candidates.computeIfPresent(current.activeNode(), (node, state) -> FailoverDecisions.restartedEmpty(state));
            }
            FailoverDecisions.Promotion promotion = FailoverDecisions.promote(owners, candidates, Map.of());
            // An empty copy (a restarted active, an owner the map just added) waits for the serving owners whose
            // answers did not arrive, whatever the reason (lost, timed out on a loaded machine): made active, it would
            // snapshot them empty. A lone survivor serves anyway.
            List<String> servingOwners = owners.stream()
                    .filter(o -> !o.equals(current.activeNode()) && view.serves(o, present)).toList();
            Set<String> awaited = FailoverDecisions.holdersToAwait(promotion.node(), candidates, servingOwners,
                    unannouncedMembers);
            if (!awaited.isEmpty()) {
                if (!Long.valueOf(current.epoch()).equals(awaitingHolder.put(p, current.epoch()))) {
                    log.info("node {}: partition {} (epoch {}): {} holds none of its data{} and {} may hold it but did not "
                            + "answer; asks again next round", nodeId, p, current.epoch(), promotion.node(),
                            restarted ? " (restarted)" : "", awaited);
                }
                continue;
            }
            int segments = segmentsOf(view, p);
            Set<String> suspendedHolders = FailoverDecisions.suspendedHoldersToAwait(promotion.node(), candidates, segments,
                    suspendedHolders(view, present, owners, restarted ? null : current.activeNode()));
            if (!suspendedHolders.isEmpty()) {
                if (!Long.valueOf(current.epoch()).equals(awaitingHolder.put(p, current.epoch()))) {
                    log.warn("node {}: partition {} (epoch {}) waits: its best serving copy, {}, has {} of {} segments "
                            + "synced, and the suspended {} may hold acknowledged writes it lacks; it fails over when they "
                            + "renew their lease or leave the view", nodeId, p, current.epoch(), promotion.node(),
                            candidates.get(promotion.node()).syncedSegments(), segments, suspendedHolders);
                }
                continue;
            }
            PartitionRuntime promoted = PartitionTransitions.change(p, current, PartitionTransitions.Trigger.PROMOTE,
                    promotion.node(), promotion.health(), highestObserved);
            if (promoted.health() == PartitionHealth.UNAVAILABLE && current.health() == PartitionHealth.UNAVAILABLE) {
                continue;
            }
            decisions.add("fail over from " + current.activeNode() + " to " + promoted.activeNode() + " ("
                    + promoted.health() + ")", p + " (epoch " + current.epoch() + " -> " + promoted.epoch() + "; candidates "
                    + describe(candidates) + ")");
            runtimes.set(p, promoted);
            lastChange.put(p, now);
            changed = true;
        }
        for (int p : heal) {
            PartitionRuntime current = runtimes.get(p);
            List<String> owners = view.partitionMap().ownersOf(p);
            Map<String, PartitionState> ownerStates = new HashMap<>();
            long highestObserved = 0;
            for (String owner : owners) {
                PartitionState state = states.getOrDefault(owner, Map.of()).get(p);
                if (state != null) {
                    ownerStates.put(owner, state);
                    highestObserved = Math.max(highestObserved, state.highestEpoch());
                }
            }
            PartitionState activeState = current.activeNode() == null ? null
                    : states.getOrDefault(current.activeNode(), Map.of()).get(p);
            if (activeState != null) {
                ownerStates.putIfAbsent(current.activeNode(), activeState);
                highestObserved = Math.max(highestObserved, activeState.highestEpoch());
            }
            int segments = segmentsOf(view, p);
            if (current.health() == PartitionHealth.HEALTHY || !allServe(view, owners, present) || isDisowned(p, current)) {
                continue;
            }
            String blocker = FailoverDecisions.healBlocker(owners, ownerStates, segments, current.epoch(),
                    current.activeNode(), stableFor(p, now), settings.healCooldown().toNanos());
            if (blocker != null) {
                reportHealBlocker(p, current, blocker);
                continue;
            }
            healBlockers.remove(p);
            String primary = view.partitionMap().primaryOf(p);
            PartitionRuntime healed = PartitionTransitions.change(p, current, PartitionTransitions.Trigger.HEAL, primary,
                    PartitionHealth.HEALTHY, highestObserved);
            String detail = p + " (epoch " + current.epoch() + " -> " + healed.epoch() + ")";
            if (PlannedHandOvers.fenceFirst(current, healed, view.serves(current.activeNode(), present))) {
                heldHandOvers.put(p, new PlannedHandOvers.Held(current, healed, "heal: " + primary + " serves again", detail));
                continue;
            }
            decisions.add("heal: " + primary + " serves again", detail);
            runtimes.set(p, healed);
            lastChange.put(p, now);
            changed = true;
        }
        for (int p : degrade) {
            PartitionRuntime current = runtimes.get(p);
            PartitionState activeState = states.getOrDefault(current.activeNode(), Map.of()).get(p);
            if (current.health() != PartitionHealth.HEALTHY || activeState == null
                    || allServe(view, view.partitionMap().ownersOf(p), present)) {
                continue; // changed meanwhile, the active did not answer, or the replica is back
            }
            if (isDisowned(p, current) || activeState.highestEpoch() > current.epoch()) {
                // The active itself knows it must not serve under this epoch (a restarted process that
                // disowned the role): giving it a new epoch would make its empty store authoritative.
                continue;
            }
            PartitionRuntime degraded = PartitionTransitions.change(p, current, PartitionTransitions.Trigger.LOSE_REPLICA,
                    current.activeNode(), PartitionHealth.DEGRADED, activeState.highestEpoch());
            decisions.add("lost a replica: " + current.activeNode() + " keeps serving " + degraded.health(),
                    p + " (epoch " + current.epoch() + " -> " + degraded.epoch() + ")");
            runtimes.set(p, degraded);
            lastChange.put(p, now);
            changed = true;
        }
        for (int p : recovered) {
            PartitionRuntime current = runtimes.get(p);
            PartitionState activeState = current.activeNode() == null ? null
                    : states.getOrDefault(current.activeNode(), Map.of()).get(p);
            int segments = segmentsOf(view, p);
            if (current.health() != PartitionHealth.RECOVERING || activeState == null
                    || activeState.highestEpoch() != current.epoch() || activeState.syncedSegments() < segments) {
                continue; // changed meanwhile, did not answer, or still pulling
            }
            PartitionRuntime serving = PartitionTransitions.change(p, current, PartitionTransitions.Trigger.RECOVERED,
                    current.activeNode(), PartitionHealth.DEGRADED, activeState.highestEpoch());
            decisions.add("recovered on " + current.activeNode() + ": it pulled what its fellows held and serves ("
                    + serving.health() + ")", p + " (epoch " + current.epoch() + " -> " + serving.epoch() + ")");
            runtimes.set(p, serving);
            lastChange.put(p, now);
            changed = true;
        }
        decisions.log(log, nodeId);
        if (changed) {
            publish.accept(view.withRuntimeMap(new RuntimeMap(runtimes)));
        }
        if (!heldHandOvers.isEmpty()) {
            fenceThenHandOver(view, heldHandOvers, latest, publish);
        }
    }

    /**
     * Events thread: publishes a planned map change, after fencing the actives of the partitions it gives a new epoch
     * while they keep serving ({@link PlannedHandOvers#fencesBeforeRemap}); at once when there are none. Published
     * only if the held view did not change while the fences were out; otherwise the next round plans again.
     */
    private void fenceThenRemap(ClusterView held, ClusterView next, Set<String> present, Supplier<ClusterView> latest,
                                Consumer<ClusterView> publish) {
        Map<String, Map<Integer, Long>> fences = PlannedHandOvers.fencesBeforeRemap(held, next, present);
        if (fences.isEmpty()) {
            publish.accept(next);
            return;
        }
        roundInFlight = true;
        List<CompletableFuture<Set<Integer>>> answers = askFences(held, fences);
        whenAnswered(answers, () -> {
            roundInFlight = false;
            ClusterView now = latest.get();
            if (held.equals(now)) {
                publish.accept(next);
            } else {
                log.info("node {}: the view changed while the actives of a map change were fenced; planning again", nodeId);
            }
        });
    }

    /**
     * Events thread: runs {@code then} on the events thread once every answer is in: at once when they already are
     * (a probe that cannot fence answers so), else when the last arrives. Running it at once keeps such a leader's
     * publication in the same step as its decision, as before fences existed.
     */
    private void whenAnswered(List<CompletableFuture<Set<Integer>>> answers, Runnable then) {
        CompletableFuture<Void> all = CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new));
        if (all.isDone()) {
            then.run();
        } else {
            all.whenComplete((ignored, error) -> events.execute(then));
        }
    }

    /** Asks each node to fence its partitions; an answer that fails or a node without an address fences nothing. */
    private List<CompletableFuture<Set<Integer>>> askFences(ClusterView view, Map<String, Map<Integer, Long>> fences) {
        List<CompletableFuture<Set<Integer>>> answers = new ArrayList<>();
        fences.forEach((node, epochs) -> {
            NodeAddress address = view.addresses().get(node);
            answers.add(address == null ? CompletableFuture.completedFuture(Set.of())
                    : probe.fenceForHandOver(address, epochs).exceptionally(error -> Set.of()));
        });
        return answers;
    }

    /**
     * Events thread: the second round trip of planned hand-overs ({@link PlannedHandOvers}). Asks each old active to
     * fence its partitions, then publishes the held heals that still apply, fenced or not: the probe is bounded
     * ({@code HandOverFence#LEADER_WAIT}), so a silent old active delays the hand-over by that much and no more. No
     * other round starts meanwhile.
     */
    private void fenceThenHandOver(ClusterView view, Map<Integer, PlannedHandOvers.Held> held, Supplier<ClusterView> latest,
                                   Consumer<ClusterView> publish) {
        roundInFlight = true;
        List<CompletableFuture<Set<Integer>>> answers = askFences(view, PlannedHandOvers.fencesByNode(held));
        whenAnswered(answers, () -> {
            roundInFlight = false;
            Set<Integer> fenced = new TreeSet<>();
            answers.forEach(answer -> fenced.addAll(answer.getNow(Set.of())));
            ClusterView now = latest.get();
            if (now == null) {
                return;
            }
            List<PartitionRuntime> runtimes = new ArrayList<>(now.runtimeMap().partitions());
            RoundDecisions decisions = new RoundDecisions();
            boolean changed = false;
            for (Map.Entry<Integer, PlannedHandOvers.Held> heal : held.entrySet()) {
                int p = heal.getKey();
                if (!PlannedHandOvers.stillApplies(now, p, heal.getValue())) {
                    continue;
                }
                runtimes.set(p, heal.getValue().after());
                lastChange.put(p, time.nanoTime());
                decisions.add(PlannedHandOvers.logged(heal.getValue(), fenced, p), heal.getValue().detail());
                changed = true;
            }
            decisions.log(log, nodeId);
            if (changed) {
                publish.accept(now.withRuntimeMap(new RuntimeMap(runtimes)));
            }
        });
    }

    /**
     * Re-homes the partitions of nodes missing longer than the eviction delay: a new partition map version
     * over the present nodes (moving as little as possible); returns whether it published one.
     */
    private boolean evictMissingNodes(ClusterView held, Set<String> present, long now, Consumer<ClusterView> publish) {
        List<String> evicted = new ArrayList<>();
        for (Map.Entry<String, Long> missing : missingSince.entrySet()) {
            if (now - missing.getValue() >= settings.evictionDelay().toNanos()) {
                evicted.add(missing.getKey());
            }
        }
        if (evicted.isEmpty() || present.isEmpty()) {
            return false;
        }
        PartitionMap previous = held.partitionMap();
        Set<String> members = new TreeSet<>(present);
        members.removeIf(rebalancer::isDraining);
        if (members.isEmpty()) {
            members.addAll(present);
        }
        PartitionMap next = keepingLiveHolders(previous, PartitionPlanner.plan(members, previous.partitionCount(),
                clusterSettings.replicationFactor(), previous), present);
        ClusterView rehomed = withMap(held, next, present, now);
        evicted.forEach(missingSince::remove);
        log.info("node {}: evicting {} after {}; partition map version {} -> {}", nodeId, evicted, settings.evictionDelay(),
                previous.version(), next.version());
        publish.accept(rehomed);
        return true;
    }

    /** Events thread: starts (or stops) the retention clock of each voter the map does not name. */
    private void trackAbsentVoters(ClusterView held, Set<String> present, long now) {
        absentVoterSince.keySet().retainAll(held.voters());
        for (String voter : held.voters()) {
            if (held.partitionMap().nodes().contains(voter) || present.contains(voter)) {
                absentVoterSince.remove(voter);
            } else {
                absentVoterSince.putIfAbsent(voter, now);
            }
        }
    }

    /**
     * Events thread: publishes the view without the voters whose retention ran out, under the next map version
     * (same owners), so every node orders the change like any other map change. Returns whether it did.
     */
    private boolean dropExpiredVoters(ClusterView held, Set<String> present, long now, Consumer<ClusterView> publish) {
        Set<String> voters = VoterRetention.next(held.voters(), held.partitionMap().nodes(), present, absentVoterSince, now);
        if (voters.equals(held.voters())) {
            return false;
        }
        Set<String> dropped = new TreeSet<>(held.voters());
        dropped.removeAll(voters);
        PartitionMap map = held.partitionMap();
        PartitionMap next = new PartitionMap(Math.addExact(map.version(), 1), map.replicationFactor(), map.owners());
        log.info("node {}: {} absent for {} and no longer in the map: no longer counted towards a majority ({} voters "
                + "left); partition map version {} -> {}", nodeId, dropped, VoterRetention.ABSENT_VOTER_RETENTION,
                voters.size(), map.version(), next.version());
        publish.accept(held.withMapAndVoters(next, held.runtimeMap(), voters));
        return true;
    }

    /**
     * The held view with partition map {@code next}: a partition whose owners changed gets a new epoch; its
     * live active keeps serving it (DEGRADED: it syncs the new owners as its replicas, and a heal hands the
     * partition to the new primary once all are in sync); without a live active it waits for a failover round.
     */
    private ClusterView withMap(ClusterView held, PartitionMap next, Set<String> present, long now) {
        PartitionMap previous = held.partitionMap();
        List<PartitionRuntime> runtimes = new ArrayList<>(next.partitionCount());
        for (int p = 0; p < next.partitionCount(); p++) {
            PartitionRuntime current = held.runtimeMap().get(p);
            List<String> owners = next.ownersOf(p);
            boolean ownersChanged = !owners.equals(previous.ownersOf(p));
            if (ownersChanged && sheddingOnly(current, previous.ownersOf(p), owners, present)) {
                runtimes.add(current);
                continue;
            }
            long observed = observedEpochs.getOrDefault(p, 0L);
            boolean liveActive = current.activeNode() != null && present.contains(current.activeNode());
            if (liveActive && owners.contains(current.activeNode()) && !ownersChanged) {
                runtimes.add(current);
                continue;
            }
            if (liveActive) {
                // The active keeps serving and syncs the new owners as its replicas; when the planner moved the
                // partition away from it, a heal hands it to the new primary once they are in sync.
                runtimes.add(PartitionTransitions.change(p, current, PartitionTransitions.Trigger.REMAP, current.activeNode(),
                        PartitionHealth.DEGRADED, observed));
                if (owners.contains(current.activeNode())) {
                    continue;
                }
            } else {
                // No live active: a failover round picks the new owner holding the most synced segments,
                // never an arbitrary one (it may be a restarted node with nothing).
                runtimes.add(PartitionTransitions.change(p, current, PartitionTransitions.Trigger.REMAP, null,
                        PartitionHealth.UNAVAILABLE, observed));
                List<String> previousOwners = previous.ownersOf(p);
                if (owners.stream().noneMatch(o -> previousOwners.contains(o) && present.contains(o))) {
                    log.warn("node {}: partition {} had no live owner for {}; its new owners {} hold none of its data — "
                            + "it is gone", nodeId, p, settings.evictionDelay(), owners);
                }
            }
            lastChange.put(p, now);
        }
        return held.withMapAndVoters(next, new RuntimeMap(runtimes),
                VoterRetention.next(held.voters(), next.nodes(), present, absentVoterSince, now));
    }

    /**
     * The planned map with, after each partition's planned owners, its previous owners that are still present
     * and were not planned ({@link Rebalancer#plannedThenHolders}): they hold its data, and a partition caught
     * mid-move by an eviction would otherwise be left to new owners that may hold nothing yet. The rebalancer
     * drops them once the partition is healthy on its primary, as after any move. Pure.
     */
    static PartitionMap keepingLiveHolders(PartitionMap previous, PartitionMap planned, Set<String> present) {
        List<List<String>> owners = new ArrayList<>(planned.partitionCount());
        for (int p = 0; p < planned.partitionCount(); p++) {
            List<String> liveHolders = new ArrayList<>(previous.ownersOf(p));
            liveHolders.retainAll(present);
            owners.add(Rebalancer.plannedThenHolders(planned.ownersOf(p), liveHolders, planned.replicationFactor()));
        }
        return new PartitionMap(planned.version(), planned.replicationFactor(), owners);
    }

    /**
     * Whether a map change only drops owners of a partition that is HEALTHY on its new preferred primary: the
     * second step of a move (see {@link Rebalancer}). Its runtime entry stays as it is — the heal that made it
     * HEALTHY checked that every owner, kept ones included, holds everything — and the dropped owners, no
     * longer replicas, are sent nothing more and drop their copies.
     */
    static boolean sheddingOnly(PartitionRuntime current, List<String> previousOwners, List<String> owners,
                                Set<String> present) {
        return previousOwners.containsAll(owners) && current.health() == PartitionHealth.HEALTHY
                && owners.get(0).equals(current.activeNode()) && present.contains(current.activeNode());
    }

    private void reportHealBlocker(int partition, PartitionRuntime current, String blocker) {
        if (!blocker.equals(healBlockers.put(partition, blocker)) && !blocker.equals("cooling down")) {
            log.info("node {}: partition {} ({} on {}, epoch {}) cannot heal yet: {}", nodeId, partition, current.health(),
                    current.activeNode(), current.epoch(), blocker);
        }
    }

    private boolean isDisowned(int partition, PartitionRuntime runtime) {
        Long epoch = disowned.get(partition);
        return epoch != null && epoch == runtime.epoch();
    }

    /**
     * Events thread, whenever this node is not the deciding leader: absences it saw while it led are
     * forgotten. They were not tracked while another node led, so a node that came back meanwhile would
     * otherwise count as missing since long ago and be evicted the moment this node leads again — a chaos
     * run lost two live nodes' partitions that way.
     */
    void forgetAbsences() {
        missingSince.clear();
        absentVoterSince.clear();
        rebalancer.forget();
    }

    /** Events thread: a runtime change made elsewhere (an operator hand-over) starts the partition's cooldown. */
    void recordChange(int partition) {
        lastChange.put(partition, time.nanoTime());
    }

    /** How long the partition's runtime entry has been unchanged by this leader (forever when never). */
    private long stableFor(int partition, long now) {
        Long changed = lastChange.get(partition);
        return changed == null ? Long.MAX_VALUE : now - changed;
    }

    private static Map<String, Boolean> join(Map<String, CompletableFuture<Boolean>> futures) {
        Map<String, Boolean> results = new HashMap<>();
        futures.forEach((node, future) -> results.put(node, future.getNow(false)));
        return results;
    }

    private static Map<String, Map<Integer, PartitionState>> joinStates(
            Map<String, CompletableFuture<Map<Integer, PartitionState>>> futures) {
        Map<String, Map<Integer, PartitionState>> results = new HashMap<>();
        futures.forEach((node, future) -> results.put(node, future.getNow(Map.of())));
        return results;
    }

    /**
     * The candidates' states as the failover log line shows them, e.g. {@code n1[synced 16, keys 120, revisions
     * 4410, epoch 12]}: what the choice was made from, for whoever reads a failover after the fact.
     */
    private static String describe(Map<String, PartitionState> candidates) {
        StringBuilder text = new StringBuilder();
        new java.util.TreeMap<>(candidates).forEach((node, state) -> text.append(text.isEmpty() ? "" : ", ").append(node)
                .append("[synced ").append(state.syncedSegments()).append(", keys ").append(state.keys())
                .append(", revisions ").append(state.revisionSum()).append(", epoch ").append(state.highestEpoch()).append(']'));
        return text.isEmpty() ? "none reachable" : text.toString();
    }

    private static int segmentsOf(ClusterView view, int partition) {
        return view.layout().lastSegmentOf(partition) - view.layout().firstSegmentOf(partition) + 1;
    }

    /**
     * The partition's owners, and its departed active if it is not among them, that are still members but suspended:
     * they serve nothing, yet hold what they held when their lease lapsed.
     */
    private static List<String> suspendedHolders(ClusterView view, Set<String> present, List<String> owners,
                                                 String departedActive) {
        Set<String> holders = new LinkedHashSet<>(owners);
        if (departedActive != null) {
            holders.add(departedActive);
        }
        return holders.stream().filter(node -> present.contains(node) && view.suspended().contains(node)).toList();
    }

    /** Whether {@code active} is suspended while another owner of the partition serves: failing over gains one. */
    private static boolean suspendedWithAnotherOwnerServing(ClusterView held, String active, List<String> owners,
                                                            Set<String> present) {
        return held.suspended().contains(active)
                && owners.stream().anyMatch(owner -> !owner.equals(active) && held.serves(owner, present));
    }

    private static boolean allServe(ClusterView view, List<String> owners, Set<String> present) {
        return owners.stream().allMatch(owner -> view.serves(owner, present));
    }

    /**
     * Events thread: suspends the members whose lease lapsed (see {@link #leaseLapsedWhileMember}) and resumes the
     * suspended ones this leader confirmed again or that left the view, under the next map version (same owners), so
     * every node orders the change like any map change. Returns whether it published.
     */
    private boolean suspendOrResume(ClusterView held, Set<String> present, long now, Consumer<ClusterView> publish) {
        Set<String> suspended = new TreeSet<>();
        for (String node : held.suspended()) {
            if (present.contains(node) && !leaseSteady.test(node)) {
                suspended.add(node);
            }
        }
        for (String node : held.partitionMap().nodes()) {
            if (present.contains(node) && !node.equals(nodeId) && leaseLapsedWhileMember.test(node)) {
                suspended.add(node);
            }
        }
        if (suspended.equals(held.suspended())) {
            return false;
        }
        PartitionMap map = held.partitionMap();
        PartitionMap next = new PartitionMap(Math.addExact(map.version(), 1), map.replicationFactor(), map.owners());
        Set<String> added = new TreeSet<>(suspended);
        added.removeAll(held.suspended());
        Set<String> resumed = new TreeSet<>(held.suspended());
        resumed.removeAll(suspended);
        resumed.forEach(node -> resumedAt.put(node, now));
        log.info("node {}: {}{}{}; partition map version {} -> {}", nodeId,
                added.isEmpty() ? "" : "suspends " + added + " (members without an owner lease for more than a lease: "
                        + "they serve nothing, so nothing waits for them)",
                added.isEmpty() || resumed.isEmpty() ? "" : "; ",
                resumed.isEmpty() ? "" : "resumes " + resumed + " (lease held for a whole lease again, or left the view; nothing heals to it"
                        + " for a heal cooldown)",
                map.version(), next.version());
        publish.accept(held.withSuspended(next, held.runtimeMap(), suspended));
        return true;
    }
}
