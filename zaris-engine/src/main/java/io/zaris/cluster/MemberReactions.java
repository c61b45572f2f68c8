package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.replication.ReplicationSettings;
import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a cluster member reacts to each membership event: a membership view, a cluster message, the periodic round,
 * the lease tick and an operator's request. It knows no JGroups: members are addresses of type {@code A}, messages
 * come as bytes, and what it sends goes out through a {@link Link}; every event comes with {@code now} (monotonic
 * nanos, from the node's clock). It wires the parts that decide:
 *
 * <ul>
 *   <li>{@link MembershipRoster}: the membership view and what each member announced; majority and leadership.</li>
 *   <li>{@link LeaseRelay}: the lease messages, beats and majority checks (rules in {@link LeaseKeeper}).</li>
 *   <li>{@link FirstMap}: who computes the first partition map, and when.</li>
 *   <li>{@link HeldView}: the held cluster view and how a published, broadcast or fetched one replaces it;
 *       {@link MergePreference}: what a merge this node leads lists first.</li>
 *   <li>{@link OperatorRequests}: hand-overs, this node's drain and rebalance requests.</li>
 *   <li>{@link FailoverCoordinator}: the leader's failover, heal, eviction and rebalance rounds.</li>
 * </ul>
 *
 * <p>Events:
 * <ul>
 *   <li>a membership view: the leases, the roster, the majority and the presence refreshed; a hello sent; the held
 *       view re-broadcast (JGroups does not retransmit messages lost across an exclusion or a merge); the first map
 *       computed when this node is the one to; a failover round; a lease renewal asked at once;</li>
 *   <li>a hello: the announcement recorded, the majority refreshed, a changed data address re-published;</li>
 *   <li>a cluster view: adopted when newer; a lease message: to the {@link LeaseRelay}; a drain or rebalance
 *       request and a disown: to the coordinator while this node may decide; a goodbye: to the {@link Link}'s
 *       membership gate; a member's report that it stopped following the coordinator: recorded
 *       ({@link DesertionReports}), and whether this node stops following it too decided at once;</li>
 *   <li>the round (every 250 ms): presence, the hello repeated every {@link #HELLO_REPEAT}, a first-view fetch,
 *       the disown and drain requests repeated, and the coordinator's round while this node may decide.</li>
 * </ul>
 *
 * <p>Concurrency: all its state is confined to the member's one events thread, which calls every event method
 * here; what completes elsewhere (a fetched view, a probe) re-enters through the {@code events} executor it was
 * given. Other threads read only the volatile snapshots: the held view, the present nodes, the lease's end, the
 * majority and the leadership (see {@link Standing}).
 *
 * @param <A> how membership addresses a node
 */
final class MemberReactions<A> {

    /**
     * What the member's channel does for it (called on the events thread). We do not assume a message sent arrives:
     * every message here is repeated by a later round or answered by a later view change.
     */
    interface Link<A> {

        /** This node's membership address. */
        A self();

        /** Sends one encoded cluster message to one member; a failure is the link's to log. */
        void send(A destination, byte[] message);

        /** Sends one encoded cluster message to every member; a failure is the link's to log. */
        void broadcast(byte[] message);

        /** The member said goodbye: it leaves, and its absence needs no waiting (see {@link MembershipGate}). */
        void memberLeaving(A member);

        /**
         * Whether this node heard {@code member} from {@code fromNanos} to {@code toNanos} without a silence (see
         * {@link MembershipGate#heardThroughout}); {@code false} where the transport cannot tell.
         */
        boolean heardThroughout(A member, long fromNanos, long toNanos);

        /** This node stops following {@code coordinator} (see {@link MembershipGate#coordinatorDeserted}). */
        void coordinatorDeserted(A coordinator);
    }

    /** Logs under the member's name: operators' filters and the orderly-leave check know that name. */
    private static final Logger log = LoggerFactory.getLogger(ClusterMember.class);
    /** How often a node that suspects its view is stale asks its peers for theirs. */
    static final Duration VIEW_FETCH_INTERVAL = Duration.ofSeconds(1);
    /**
     * How often a node repeats its hello between membership views. It says hello at every view, but a hello sent
     * before a receiver installed the same view is dropped as coming from a non-member, and nothing else repeats it
     * until the next view: the receiver would count this node absent, and a leader would fail its partitions over.
     */
    static final Duration HELLO_REPEAT = Duration.ofSeconds(2);

    private final String nodeId;
    private final NodeAddress dataAddress;
    /** Identifies this process start: a restarted node has a new one (see {@link ClusterView#founders()}). */
    private final String incarnation;
    private final ClusterSettings settings;
    private final PeerProbe probe;
    /** Re-enters the events thread with what completed on another one (a fetched view, a probe's answer). */
    private final Executor events;
    /**
     * Read only where a decision completes after its event: the failover coordinator (its rounds' probes and the
     * lease questions it asks then) and the publication of a round's result.
     */
    private final TimeSource time;

    private final FailoverCoordinator failover;
    /** The majority and the leadership, as of the last refresh (see {@link Standing} for its threads). */
    private final Standing standing = new Standing();
    /** Snapshot of {@link #presentNodes()}, refreshed on the events thread after views and hellos and every round. */
    private volatile Set<String> present = Set.of();
    /**
     * Until when (monotonic nanos) this node may act as an active owner; {@link Long#MAX_VALUE}: no lease. A copy of
     * {@link LeaseKeeper#memberLeaseValidUntil()}, written on the events thread after every grant, for the data path
     * and the merge order.
     */
    private volatile long leaseValidUntil;
    private volatile Runnable presenceListener = () -> { };

    // --- confined to the events thread ---
    /** The membership view and what its members announced. */
    private final MembershipRoster<A> roster = new MembershipRoster<>();
    /** The held cluster view and how a new one replaces it (see {@link HeldView} for its threads). */
    private final HeldView<A> views;
    /** The lease messages, the leases (its {@link LeaseKeeper}) and the majority checks. */
    private final LeaseRelay<A> leases;
    /** When this node last asked its peers for a cluster view. */
    private final ViewFetchPacer viewFetches = new ViewFetchPacer(VIEW_FETCH_INTERVAL);
    /** What a merge this node leads lists first; refreshed on the events thread, read by the merge. */
    private final MergePreference<A> mergePreference = new MergePreference<>();
    /** An operator's hand-overs, this node's drain and rebalance requests (see {@link OperatorRequests}). */
    private final OperatorRequests requests;
    /** The member's channel; {@code null} until it is connecting (nothing is sent before). */
    private Link<A> link;
    /**
     * When the event being handled happened (monotonic nanos): set at the start of every event method, read by the
     * parts' callbacks within it (a lease message that confirms the leadership runs the round at that time).
     */
    private long eventNow;
    /** When this node last said hello ({@link Long#MIN_VALUE}: not yet). */
    private long helloSentNanos = Long.MIN_VALUE;
    /** Events thread: the coordinator of the current membership view this node stopped following, if it did. */
    private A desertedCoordinator;
    /**
     * Events thread: the coordinator of the current membership view this node keeps following only because it did not
     * hear a majority without it all through the lease, once that was logged.
     */
    private A keptUnheardCoordinator;
    /** Events thread: the members of the current view that reported they stopped following its coordinator. */
    private final DesertionReports<A> desertionReports;

    /**
     * @param leaseDuration the owner lease; {@code null} where the transport needs none (one JVM)
     * @param time          read by the failover coordinator and its lease questions, which run after the event
     * @param events        runs a task on the events thread (the member's queue)
     */
    MemberReactions(String nodeId, NodeAddress dataAddress, String incarnation, ClusterSettings settings,
                    Duration leaseDuration, ReplicationSettings replicationSettings, PeerProbe probe, TimeSource time,
                    Executor events) {
        this.nodeId = nodeId;
        this.dataAddress = dataAddress;
        this.incarnation = incarnation;
        this.settings = settings;
        this.probe = probe;
        this.events = events;
        this.time = time;
        this.leases = new LeaseRelay<>(leaseDuration == null ? LeaseKeeper.withoutLease()
                : LeaseKeeper.withLease(leaseDuration), new LeaseEffects());
        this.leaseValidUntil = leases.keeper().memberLeaseValidUntil();
        // a deserter repeats its report every quarter lease: half a lease forgives one repetition lost or late
        this.desertionReports = new DesertionReports<>(leaseDuration == null ? Duration.ZERO : leaseDuration.dividedBy(2));
        this.views = new HeldView<>(nodeId, incarnation, roster, settings.clusterSize(), new ViewHooks());
        this.requests = new OperatorRequests(nodeId, new RequestHooks());
        LeaseKeeper<A> keeper = leases.keeper();
        this.failover = new FailoverCoordinator(nodeId, settings, replicationSettings, probe, events, time,
                node -> keeper.surelyLapsed(node, time.nanoTime()),
                node -> keeper.lapsedWhileMember(node, roster.addressOf(node), time.nanoTime()),
                node -> keeper.renewedWithinLease(node, time.nanoTime()),
                node -> keeper.renewedSteadily(node, time.nanoTime()));
    }

    // --- events (events thread) ---

    /** The member's channel is connecting: from now on this node speaks. */
    void attached(Link<A> link) {
        this.link = link;
    }

    /** A new membership view: {@code members} in JGroups' order, the coordinator first. */
    void onView(List<A> members, Object viewId, boolean merge, long now) {
        eventNow = now;
        desertedCoordinator = null;
        keptUnheardCoordinator = null;
        desertionReports.viewChanged();
        leases.keeper().viewChanged(members, now);
        roster.viewChanged(members);
        refreshMajority();
        refreshPresent();
        refreshMergePreference();
        log.info("node {}: membership view {} with {} member(s){}", nodeId, viewId, members.size(),
                merge ? " (merge)" : "");
        sayHello();
        if (views.current() != null) {
            // Everyone re-broadcasts what it holds: messages across an exclusion are lost, and after a
            // merge the coordinator may be the side with the stale view. Receivers keep the newest
            // (ViewOrdering), so the newest view wins everywhere, the new leader included.
            if (isLeader()) {
                views.publish(views.current());
            } else {
                link.broadcast(ClusterMessages.encodeView(views.current()));
            }
        }
        maybeComputeInitialMap();
        onRound(now);
        if (leases.keeper().enabled()) {
            onLeaseTick(now); // a new view changes who confirms leases: ask at once rather than at the next tick
        }
    }

    /** A cluster message from {@code source}; one that does not decode is logged and ignored. */
    void onMessage(A source, byte[] bytes, long now) {
        eventNow = now;
        Object message;
        try {
            message = ClusterMessages.decode(bytes);
        } catch (MalformedRequestException | RuntimeException e) {
            log.warn("node {}: ignoring unreadable cluster message from {}: {}", nodeId, source, e.getMessage());
            return;
        }
        if (message instanceof ClusterMessages.NodeHello hello) {
            roster.announced(source, hello);
            refreshMajority();
            if (views.current() != null && !hello.dataAddress().equals(views.current().addresses().get(hello.nodeId()))) {
                if (isLeader()) {
                    views.publish(views.current());
                } else {
                    views.adopt(views.current());
                }
            }
            maybeComputeInitialMap();
            onRound(now);
        } else if (message instanceof ClusterView published) {
            views.adopt(published);
        } else if (message instanceof ClusterMessages.LeaseMessage leaseMessage) {
            leases.onMessage(source, leaseMessage, seat(), now);
        } else if (message instanceof ClusterMessages.PlanRequest request) {
            if (mayDecide(now)) {
                if (request.type() == ClusterMessages.DRAIN) {
                    failover.drainRequested(request.nodeId());
                } else {
                    failover.rebalanceRequested(request.nodeId());
                }
            }
        } else if (message instanceof ClusterMessages.Goodbye) {
            link.memberLeaving(source);
        } else if (message instanceof ClusterMessages.Deserted deserted) {
            onDesertionReport(source, deserted.coordinatorNodeId(), now);
        } else if (message instanceof ClusterMessages.Disown disown && mayDecide(now) && views.current() != null) {
            failover.disown(disown.nodeId(), disown.partitions(), views.current());
            onRound(now);
        }
    }

    /** The periodic round (and after views and hellos): the leader's failover, heal and evict round. */
    void onRound(long now) {
        eventNow = now;
        refreshPresent();
        if (link != null && roster.hasView() && (helloSentNanos == Long.MIN_VALUE
                || now - helloSentNanos >= HELLO_REPEAT.toNanos())) {
            sayHello();
        }
        fetchFirstView(now);
        askToDisown();
        requests.repeatDrainRequest(now);
        if (leasesEnabled() && link != null && roster.hasView()) {
            // checked every round, not only at the quarter-lease renewals: the moment a silent coordinator may be
            // deserted falls between two of them, and every owner lease of the cluster waits for it (a leader's
            // SIGSTOP: up to a quarter lease, 1.25 s by default, of the stall)
            stopFollowingAnUnresponsiveCoordinator(now);
        }
        if (mayDecide(now) && views.current() != null) {
            failover.reconcile(views.current(), presentNodes(), roster.membersWithoutHello(), views::current,
                    this::publishIfStillLeading);
        } else {
            failover.forgetAbsences();
        }
    }

    /**
     * Every quarter lease and at every view change: see {@link LeaseRelay#renew}. Only where leases are enabled
     * ({@link #leasesEnabled()}); without them the keeper refuses a renewal.
     */
    void onLeaseTick(long now) {
        eventNow = now;
        if (!roster.hasView() || link == null) {
            return;
        }
        LeaseKeeper.Renewal renewal = leases.renew(seat(), now);
        if (renewal.expired()) {
            log.warn("node {}: owner lease expired (not confirmed by a leader of a majority for {} ms); it serves "
                    + "nothing until the leader confirms it again", nodeId, renewal.unconfirmedForMillis());
        }
        if (desertedCoordinator != null && desertedCoordinator.equals(roster.coordinator())) {
            reportDesertion(desertedCoordinator); // repeated: a message can be lost, and the next in line may need it
        }
        stopFollowingAnUnresponsiveCoordinator(now);
    }

    /**
     * A coordinator that answered none of this node's lease requests for a lease (it hears nobody: the others' packets
     * to it are dropped) is no longer followed while this node's view holds a majority; see
     * {@link MembershipGate#coordinatorDeserted}. Once per coordinator and view; the others are told, since JGroups
     * acts on the suspicion of the member next in line only (see {@link DesertionReports}).
     */
    private void stopFollowingAnUnresponsiveCoordinator(long now) {
        A coordinator = roster.coordinator();
        if (coordinator == null || coordinator.equals(link.self()) || coordinator.equals(desertedCoordinator)
                || !standing.inMajority() || !leases.keeper().coordinatorUnresponsive(now)) {
            return;
        }
        // and this node is not the one cut off: with the members it heard all through the last lease it makes a
        // majority, or members that did report they stopped following the coordinator and make one with it. A node on
        // a cut or flapping link hears nobody, or only since its link came back, and no report, so it keeps following
        // its coordinator and is left to the leader.
        List<A> reporters = desertionReports.freshReporters(roster.members(), now);
        boolean heardAMajority = hearsAMajorityWithout(coordinator, now);
        int votingSize = MembershipRoster.votingSize(views.current(), settings.clusterSize());
        if (!heardAMajority && !DesertionReports.majorityWithSelf(reporters, votingSize)) {
            if (!coordinator.equals(keptUnheardCoordinator)) {
                keptUnheardCoordinator = coordinator;
                log.info("node {}: the coordinator {} has confirmed none of its lease requests for {} ms, but this node did"
                        + " not hear a majority without it all through that lease; it keeps following it until it does,"
                        + " or until members that make a majority with it report they stopped following it", nodeId,
                        coordinator, leases.keeper().lease().toMillis());
            }
            return;
        }
        desertedCoordinator = coordinator;
        if (heardAMajority) {
            log.warn("node {}: the coordinator {} has confirmed none of its lease requests for {} ms although its view "
                    + "holds a majority; stops following it", nodeId, coordinator, leases.keeper().lease().toMillis());
        } else {
            log.warn("node {}: the coordinator {} has confirmed none of its lease requests for {} ms although its view "
                    + "holds a majority, and {} stopped following it too; stops following it", nodeId, coordinator,
                    leases.keeper().lease().toMillis(), reporters);
        }
        reportDesertion(coordinator);
        link.coordinatorDeserted(coordinator);
    }

    /**
     * {@code source} reported it stopped following {@code coordinatorNodeId}: recorded when that is the coordinator of
     * this node's view and the report comes from another member of it (a broadcast comes back to its sender too).
     */
    private void onDesertionReport(A source, String coordinatorNodeId, long now) {
        A coordinator = roster.coordinator();
        ClusterMessages.NodeHello coordinatorHello = coordinator == null ? null : roster.hello(coordinator);
        if (!leasesEnabled() || link == null || coordinatorHello == null || source.equals(link.self())
                || source.equals(coordinator) || !roster.contains(source)
                || !coordinatorHello.nodeId().equals(coordinatorNodeId)) {
            return;
        }
        desertionReports.reported(source, now);
        stopFollowingAnUnresponsiveCoordinator(now);
    }

    /** Tells every member that this node stopped following {@code coordinator}, when it knows its node id. */
    private void reportDesertion(A coordinator) {
        ClusterMessages.NodeHello hello = roster.hello(coordinator);
        if (hello != null) {
            link.broadcast(ClusterMessages.encodeDeserted(hello.nodeId()));
        }
    }

    /**
     * Whether this node and the members of its view it heard without a silence all through the last lease, leaving
     * out {@code coordinator}, are a majority of the voting size.
     */
    private boolean hearsAMajorityWithout(A coordinator, long now) {
        int heard = 1; // this node
        for (A member : roster.members()) {
            if (!member.equals(coordinator) && !member.equals(link.self())
                    && link.heardThroughout(member, now - leases.keeper().lease().toNanos(), now)) {
                heard++;
            }
        }
        return heard * 2 > MembershipRoster.votingSize(views.current(), settings.clusterSize());
    }

    /** A view fetched from a peer: adopted exactly as if it had been broadcast. */
    void onFetchedView(ClusterView fetched) {
        views.adopt(fetched);
    }

    /** See {@link ClusterMember#handOver}: the new epoch; {@link IllegalStateException} when this node may not. */
    long handOver(int partition, String target, long now) {
        eventNow = now;
        return requests.handOver(partition, target);
    }

    /** See {@link ClusterMember#drain}. */
    void drain(long now) {
        eventNow = now;
        requests.drain(now);
    }

    /** See {@link ClusterMember#requestRebalance}. */
    void requestRebalance() {
        requests.requestRebalance();
    }

    /**
     * Adds a waiter for the next majority check (see {@link ClusterMember#confirmMajority}).
     *
     * @return whether a check must be sent for it: call {@link #sendMajorityCheck()} in a later event, so the
     *         waiters queued meanwhile share the check
     */
    boolean awaitMajority(CompletableFuture<Void> confirmed) {
        return leases.majorityChecks().await(confirmed);
    }

    /** Fails every waiting majority check. */
    void failMajorityChecks(String why) {
        leases.majorityChecks().failAll(why);
    }

    /** Asks the coordinator of the current view about every waiter added since the last check. */
    void sendMajorityCheck() {
        leases.majorityChecks().sendCheck(link == null ? null : roster.coordinator(), nodeId);
    }

    /** See {@link ClusterMember#fetchNewerView}: asks every other node of the held view for theirs. */
    void fetchNewerView(long now) {
        eventNow = now;
        ClusterView held = views.current();
        if (held == null || !viewFetches.tryFetch(now)) {
            return;
        }
        held.addresses().forEach((node, address) -> {
            if (!node.equals(nodeId)) {
                probe.clusterView(address).thenAccept(view -> {
                    if (view != null) {
                        events.execute(() -> onFetchedView(view));
                    }
                });
            }
        });
    }

    /** The node stops: a drain that waits fails. Any thread. */
    void stopped() {
        requests.stopped();
    }

    // --- snapshots and listeners (any thread) ---

    /** Node ids in the current membership view that announced themselves; an immutable snapshot. */
    Set<String> presentNodeIds() {
        return present;
    }

    /** Whether this node may act as an active owner at {@code now} (see {@link ClusterMember#holdsLease}). */
    boolean holdsLease(long now) {
        return LeaseKeeper.holds(leaseValidUntil, now);
    }

    /** Whether the transport needs leases (it does but in one JVM). */
    boolean leasesEnabled() {
        return leases.keeper().enabled();
    }

    /** What a merge this node leads lists first at {@code now}; read by the merge, on JGroups' thread. */
    List<A> mergePreferred(long now) {
        return mergePreference.preferred(!leases.keeper().enabled() || holdsLease(now));
    }

    /** Whether a merge this node leads at {@code now} lists it last; read by the merge, on JGroups' thread. */
    boolean mergeListsSelfLast(long now) {
        return mergePreference.listsItselfLast(!leases.keeper().enabled() || holdsLease(now));
    }

    boolean inMajority() {
        return standing.inMajority();
    }

    boolean isLeading() {
        return standing.leading();
    }

    /** The rebalance this node runs as leader; {@link RebalanceStatus#IDLE} when none runs or it does not lead. */
    RebalanceStatus rebalanceStatus() {
        return standing.leading() ? failover.rebalanceStatus() : RebalanceStatus.IDLE;
    }

    boolean isDraining() {
        return requests.isDraining();
    }

    CompletableFuture<Void> drainFuture() {
        return requests.drainFuture();
    }

    /** The latest adopted cluster view, or {@code null} before the first map is known. */
    ClusterView currentView() {
        return views.current();
    }

    CompletableFuture<ClusterView> firstView() {
        return views.firstView();
    }

    /** See {@link ClusterMember#inheritedActives}. */
    Map<Integer, Long> inheritedActives() {
        return views.inheritedActives();
    }

    /** Set before the member starts. */
    void onPresenceChanged(Runnable listener) {
        this.presenceListener = listener;
    }

    /** Set before the member starts. */
    void onViewAdopted(BiConsumer<ClusterView, ClusterView> listener) {
        views.onInstalled(listener);
    }

    /** Set before the member starts. */
    void onViewInstalled(BiConsumer<ClusterView, ClusterView> listener) {
        views.onCurrent(listener);
    }

    // --- reactions (events thread) ---

    /**
     * Refreshes the snapshot of present nodes and tells the listener when it changed, so a node that (re)joined
     * gets its replication links now rather than at the replicator's next round.
     */
    private void refreshPresent() {
        Set<String> now = Set.copyOf(presentNodes());
        if (!now.equals(present)) {
            present = now;
            presenceListener.run();
        }
    }

    /**
     * A failover round's result, published only if this node still leads with a confirmed lease — the round's
     * probes took time, during which a pause or a split may have ended its leadership. The round completes later,
     * so the question is asked of the clock then.
     */
    private void publishIfStillLeading(ClusterView decided) {
        if (mayDecide(time.nanoTime())) {
            views.publish(decided);
        } else {
            log.warn("node {}: drops a failover decision: its leadership lapsed while the round ran", nodeId);
        }
    }

    /**
     * Whether this node may change the runtime map at {@code now}: it leads, and a majority confirmed its
     * leadership within the lease (see {@link LeaseKeeper#leadershipConfirmed}).
     */
    private boolean mayDecide(long now) {
        Standing.Authority authority = standing.mayDecide(isLeader(), leases.keeper().leadershipConfirmed(now));
        if (authority.unconfirmedNow()) {
            log.info("node {}: coordinates its current view, but no majority confirmed its leadership within the "
                    + "lease; it makes no failover decisions until one does", nodeId);
        }
        return authority.decides();
    }

    /** Ids of the nodes in the current view that announced themselves. */
    private Set<String> presentNodes() {
        return roster.presentNodes();
    }

    /** Where this node stands, for its lease relay. */
    private LeaseRelay.Seat<A> seat() {
        return new LeaseRelay.Seat<>(link == null ? null : link.self(), roster, views.current(),
                settings.clusterSize());
    }

    /** Announces this node's data address, incarnation and the map version it holds. */
    private void sayHello() {
        helloSentNanos = eventNow;
        ClusterView held = views.current();
        long mapVersion = held == null ? 0 : held.partitionMap().version();
        link.broadcast(ClusterMessages.encodeHello(
                new ClusterMessages.NodeHello(nodeId, dataAddress, incarnation, mapVersion)));
    }

    /** After every membership view and hello: whether this node sees a majority of the voting nodes, and leads. */
    private void refreshMajority() {
        ClusterView held = views.current();
        int voters = roster.votersInView(held);
        int size = MembershipRoster.votingSize(held, settings.clusterSize());
        int withoutHello = roster.membersWithoutHello();
        switch (standing.refresh(voters, size, withoutHello, isLeader())) {
            case AWAITING_HELLOS -> log.info("node {}: counts {} of {} nodes until the hellos of {} more member(s) "
                    + "arrive; accepts no writes until then", nodeId, voters, size, withoutHello);
            case LOST -> log.warn("node {}: sees only {} of {} nodes; stops accepting writes until a majority is back",
                    nodeId, voters, size);
            case NONE -> {
            }
        }
        if (!standing.leading()) {
            leases.keeper().notLeading();
            leases.majorityChecks().notLeading();
        }
    }

    /** Publishes the first map when this node is the one to compute it (see {@link FirstMap}). */
    private void maybeComputeInitialMap() {
        ClusterView initial = FirstMap.plan(isLeader(), views.current(), roster, settings, nodeId);
        if (initial != null) {
            log.info("node {}: leader computed partition map version {} for members {}", nodeId,
                    initial.partitionMap().version(), initial.founders().keySet());
            views.publish(initial);
        }
    }

    /** Repeats the request until the leader moved every inherited role (messages can be lost). */
    private void askToDisown() {
        byte[] request = views.disownRequest();
        if (request != null && link != null) {
            link.broadcast(request);
        }
    }

    /**
     * Every round while this node holds no map: asks the members that announced one for it (at most once per
     * {@link #VIEW_FETCH_INTERVAL}). They re-broadcast their view after every membership change, but such a
     * message can be lost across a merge, and a leader without a map must not wait for the next view change to
     * learn the cluster's (it may not compute its own while they hold one).
     */
    private void fetchFirstView(long now) {
        Map<String, NodeAddress> holders = roster.mapHolders(nodeId);
        if (views.current() != null || holders.isEmpty() || !viewFetches.tryFetch(now)) {
            return;
        }
        log.info("node {}: holds no partition map yet; asks {} for theirs", nodeId, holders.keySet());
        holders.values().forEach(address -> probe.clusterView(address).thenAccept(fetched -> {
            if (fetched != null) {
                events.execute(() -> onFetchedView(fetched));
            }
        }));
    }

    /** See {@link MergePreference}. */
    private void refreshMergePreference() {
        mergePreference.refresh(roster, views.current(), settings.clusterSize(), nodeId);
    }

    /** Whether this node coordinates a membership view that holds a majority. */
    private boolean isLeader() {
        return link != null && roster.leads(link.self(), views.current(), settings.clusterSize());
    }

    /** What the lease relay asks of this node. */
    private final class LeaseEffects implements LeaseRelay.Effects<A> {

        @Override
        public void send(A destination, byte[] message) {
            link.send(destination, message);
        }

        @Override
        public void broadcast(byte[] message) {
            link.broadcast(message);
        }

        @Override
        public void leadershipConfirmed() {
            // A new leader's first confirmation: the round its view change skipped runs now, not at the next tick,
            // so a crashed leader's partitions fail over up to a tick sooner.
            log.info("node {}: a majority confirmed its leadership; it decides failovers from now on", nodeId);
            onRound(eventNow);
        }

        @Override
        public void newerMapHeld() {
            fetchNewerView(eventNow);
        }

        @Override
        public void leaseRefused(String refused) {
            LeaseKeeper<A> keeper = leases.keeper();
            log.warn("node {}: refuses {}'s owner lease: it answered none of this leader's beats within {} ms for {} ms "
                    + "while a majority did (a congested or failing link); it is suspended and its partitions fail over "
                    + "once the lease it holds runs out, and it serves again after a lease of prompt answers", nodeId,
                    refused, keeper.promptAnswerNanos() / 1_000_000, keeper.lagWindowNanos() / 1_000_000);
        }

        @Override
        public void leaseGranted(long validUntil, boolean justConfirmed) {
            leaseValidUntil = validUntil;
            if (justConfirmed) {
                log.info("node {}: owner lease confirmed by the leader; serving as an active owner", nodeId);
            }
        }
    }

    /** What an operator's requests need of this node. */
    private final class RequestHooks implements OperatorRequests.Member {

        @Override
        public boolean mayDecide() {
            return MemberReactions.this.mayDecide(eventNow);
        }

        @Override
        public ClusterView held() {
            return views.current();
        }

        @Override
        public void publish(ClusterView decided) {
            views.publish(decided);
        }

        @Override
        public void recordChange(int partition) {
            failover.recordChange(partition);
        }

        @Override
        public boolean canBroadcast() {
            return roster.hasView() && link != null;
        }

        @Override
        public void broadcast(byte[] message) {
            link.broadcast(message);
        }

        @Override
        public Set<String> presentNodes() {
            return MemberReactions.this.presentNodes();
        }
    }

    /** What installing a view asks of this node. */
    private final class ViewHooks implements HeldView.Hooks {

        @Override
        public void broadcast(byte[] message) {
            link.broadcast(message);
        }

        @Override
        public void inheritedTracked() {
            askToDisown();
        }

        @Override
        public void standingChanged() {
            refreshMajority();
            refreshMergePreference();
        }

        @Override
        public void installed(ClusterView held, ClusterView adopted) {
            if (held == null && link != null) {
                sayHello(); // members deciding whether to compute a first map must know this node holds one now
            }
            requests.checkDrained();
        }
    }
}
