package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.replication.ReplicationSettings;
import io.zaris.security.ClusterSecret;
import io.zaris.time.TimeSource;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.MergeView;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.stack.ProtocolStack;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's seat in the cluster: the JGroups adapter. It owns the channel (with the membership gate, the merge order
 * and the encryption it installs), turns JGroups' callbacks into events on one thread, reads the clock, and wires
 * the parts that decide, each of which knows no JGroups and takes the time as a value:
 *
 * <ul>
 *   <li>{@link MembershipRoster}: the membership view and what each member announced; majority and leadership.</li>
 *   <li>{@link LeaseRelay}: the lease messages, beats and majority checks (rules in {@link LeaseKeeper}).</li>
 *   <li>{@link FirstMap}: who computes the first partition map, and when.</li>
 *   <li>{@link HeldView}: the held cluster view and how a published, broadcast or fetched one replaces it (the
 *       merge of concurrent views, {@link ViewOrdering}); {@link MergePreference}: what a JGroups merge lists
 *       first.</li>
 *   <li>{@link OperatorRequests}: hand-overs, this node's drain and rebalance requests.</li>
 *   <li>{@link FailoverCoordinator}: the leader's failover, heal, eviction and rebalance rounds.</li>
 * </ul>
 *
 * <p>After every membership view it re-broadcasts the full cluster view (JGroups does not retransmit messages lost
 * across an exclusion or a merge).
 *
 * <p>Concurrency: JGroups callbacks and the timers only enqueue events; all membership state is confined to one
 * "zaris-cluster" thread, fed by a bounded queue, which is the only thread that calls the parts above. Other threads
 * read volatile snapshots only: the held view, the present nodes, the lease's end, the majority and the leadership.
 */
public final class ClusterMember implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClusterMember.class);
    /** Pending membership events; far above what view churn produces, small enough to be harmless. */
    private static final int EVENT_QUEUE_CAPACITY = 10_000;
    /** How often a node that suspects its view is stale asks its peers for theirs. */
    static final Duration VIEW_FETCH_INTERVAL = Duration.ofSeconds(1);

    private final String nodeId;
    private final NodeAddress dataAddress;
    /** Identifies this process start: a restarted node has a new one (see {@link ClusterView#founders()}). */
    private final String incarnation = UUID.randomUUID().toString();
    private final ClusterSettings settings;
    private final MembershipConfig membershipConfig;
    /** {@code null}: membership traffic is neither authenticated nor encrypted. */
    private final ClusterSecret clusterSecret;
    /** The node's clock; every reading of time here goes through it (read on the events and timer threads). */
    private final TimeSource time;
    private final ThreadPoolExecutor events;

    private final FailoverCoordinator failover;
    private final ScheduledExecutorService timer;
    /** The majority and the leadership, as of the last refresh (see {@link Standing} for its threads). */
    private final Standing standing = new Standing();
    /**
     * Set by {@link #close()} before the channel closes. The views and messages JGroups delivers while this node
     * leaves (its own departure, down to a view of itself) are not acted on: the node no longer broadcasts,
     * leads or counts a majority, and acting on them logged a lost majority and failed broadcasts at every
     * orderly stop.
     */
    private volatile boolean leaving;
    /** Snapshot of {@link #presentNodes()}, refreshed on the events thread after views and hellos and every 250 ms. */
    private volatile Set<String> present = Set.of();

    /**
     * Until when (monotonic nanos) this node may act as an active owner; {@link Long#MAX_VALUE}: no lease. A copy of
     * {@link LeaseKeeper#memberLeaseValidUntil()}, written on the events thread after every grant, for the data path
     * and JGroups' merge.
     */
    private volatile long leaseValidUntil;

    // --- confined to the events thread ---
    /** Events thread: the membership view and what its members announced. */
    private final MembershipRoster<Address> roster = new MembershipRoster<>();
    /** The held cluster view and how a new one replaces it (see {@link HeldView} for its threads). */
    private final HeldView<Address> views;
    /** Events thread: the lease messages, the leases (its {@link LeaseKeeper}) and the majority checks. */
    private final LeaseRelay<Address> leases;
    private final PeerProbe probe;
    /** Events thread: when this node last asked its peers for a cluster view. */
    private final ViewFetchPacer viewFetches = new ViewFetchPacer(VIEW_FETCH_INTERVAL);
    /** What a merge this node leads lists first; refreshed on the events thread, read by JGroups' merge. */
    private final MergePreference<Address> mergePreference = new MergePreference<>();
    private JChannel channel;
    /** Set with the channel (events thread); see {@link MembershipGate}. {@code null} on the in-JVM transport. */
    private MembershipGate membershipGate;

    /** An operator's hand-overs, this node's drain and rebalance requests (see {@link OperatorRequests}). */
    private final OperatorRequests requests;

    private volatile Runnable presenceListener = () -> { };

    public ClusterMember(String nodeId, NodeAddress dataAddress, ClusterSettings settings,
                         MembershipConfig membershipConfig, ReplicationSettings replicationSettings, PeerProbe probe) {
        this(nodeId, dataAddress, settings, membershipConfig, replicationSettings, probe, null);
    }

    /**
     * @param clusterSecret authenticates and encrypts the membership traffic ({@link MembershipEncryption});
     *                      {@code null} for neither
     */
    public ClusterMember(String nodeId, NodeAddress dataAddress, ClusterSettings settings,
                         MembershipConfig membershipConfig, ReplicationSettings replicationSettings, PeerProbe probe,
                         ClusterSecret clusterSecret) {
        this(nodeId, dataAddress, settings, membershipConfig, replicationSettings, probe, clusterSecret,
                TimeSource.system());
    }

    /**
     * @param clusterSecret authenticates and encrypts the membership traffic ({@link MembershipEncryption});
     *                      {@code null} for neither
     * @param time          the node's clock: leases, beats, absence timers and the failover coordinator read it
     */
    public ClusterMember(String nodeId, NodeAddress dataAddress, ClusterSettings settings,
                         MembershipConfig membershipConfig, ReplicationSettings replicationSettings, PeerProbe probe,
                         ClusterSecret clusterSecret, TimeSource time) {
        this.time = time;
        this.clusterSecret = clusterSecret;
        this.nodeId = nodeId;
        this.dataAddress = dataAddress;
        this.settings = settings;
        this.membershipConfig = membershipConfig;
        this.events = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(EVENT_QUEUE_CAPACITY), runnable -> {
                    Thread thread = new Thread(runnable, "zaris-cluster-" + nodeId);
                    thread.setDaemon(true);
                    return thread;
                });
        Duration leaseDuration = membershipConfig.ownerLease();
        this.leases = new LeaseRelay<>(leaseDuration == null ? LeaseKeeper.withoutLease()
                : LeaseKeeper.withLease(leaseDuration), new LeaseEffects());
        this.leaseValidUntil = leases.keeper().memberLeaseValidUntil();
        this.probe = probe;
        this.views = new HeldView<>(nodeId, incarnation, roster, settings.clusterSize(), new ViewHooks());
        this.requests = new OperatorRequests(nodeId, new RequestHooks());
        LeaseKeeper<Address> keeper = leases.keeper();
        this.failover = new FailoverCoordinator(nodeId, settings, replicationSettings, probe, this::submit, time,
                node -> keeper.surelyLapsed(node, time.nanoTime()),
                node -> keeper.lapsedWhileMember(node, roster.addressOf(node), time.nanoTime()),
                node -> keeper.renewedWithinLease(node, time.nanoTime()));
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "zaris-cluster-timer-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Joins the cluster; returns once the channel is connected (the map may come later). */
    public void start() throws Exception {
        JChannel newChannel = new JChannel(new ByteArrayInputStream(
                membershipConfig.toJGroupsXml().getBytes(StandardCharsets.UTF_8)));
        newChannel.name(nodeId);
        GMS gms = newChannel.getProtocolStack().findProtocol(GMS.class);
        gms.setMembershipChangePolicy(new MergeOrder(() -> mergePreference.preferred(
                !leases.keeper().enabled() || LeaseKeeper.holds(leaseValidUntil, time.nanoTime()))));
        MembershipGate gate = null;
        if (membershipConfig.viewHoldLimit() != null) {
            HeardFrom heardFrom = new HeardFrom(time::nanoTime);
            gate = new MembershipGate(nodeId, membershipConfig.viewHoldLimit(), membershipConfig.coordinatorSilence(),
                    heardFrom, time::nanoTime);
            newChannel.getProtocolStack().insertProtocol(heardFrom, ProtocolStack.Position.BELOW, FD_ALL3.class);
            newChannel.getProtocolStack().insertProtocol(gate, ProtocolStack.Position.BELOW, GMS.class);
        }
        MembershipGate insertedGate = gate;
        if (clusterSecret != null) {
            MembershipEncryption.apply(newChannel, clusterSecret);
        }
        newChannel.setReceiver(new Receiver() {
            @Override
            public void viewAccepted(View newView) {
                submit(() -> onView(newView));
            }

            @Override
            public void receive(Message message) {
                byte[] payload = message.getArray();
                Address source = message.getSrc();
                submit(() -> onMessage(source, payload, message.getOffset(), message.getLength()));
            }
        });
        runOnEventsThread(() -> {
            channel = newChannel;
            membershipGate = insertedGate;
        });
        newChannel.connect(membershipConfig.clusterName());
        timer.scheduleWithFixedDelay(() -> submit(this::reconcileFailover), 250, 250, TimeUnit.MILLISECONDS);
        if (leases.keeper().enabled()) {
            long tick = Math.max(100, membershipConfig.ownerLease().toMillis() / 4);
            timer.scheduleWithFixedDelay(() -> submit(this::renewLease), tick, tick, TimeUnit.MILLISECONDS);
        }
    }

    /** Events thread: the leader's periodic and view-triggered failover/heal/evict round. */
    private void reconcileFailover() {
        refreshPresent();
        fetchFirstView();
        askToDisown();
        requests.repeatDrainRequest(time.nanoTime());
        if (mayDecide() && views.current() != null) {
            failover.reconcile(views.current(), presentNodes(), views::current, this::publishIfStillLeading);
        } else {
            failover.forgetAbsences();
        }
    }

    /**
     * Events thread: refreshes the snapshot of present nodes and tells the listener when it changed, so a
     * node that (re)joined gets its replication links now rather than at the replicator's next round.
     */
    private void refreshPresent() {
        Set<String> now = Set.copyOf(presentNodes());
        if (!now.equals(present)) {
            present = now;
            presenceListener.run();
        }
    }

    /**
     * Events thread: a failover round's result, published only if this node still leads with a confirmed
     * lease — the round's probes took time, during which a pause or a split may have ended its leadership.
     */
    private void publishIfStillLeading(ClusterView decided) {
        if (mayDecide()) {
            views.publish(decided);
        } else {
            log.warn("node {}: drops a failover decision: its leadership lapsed while the round ran", nodeId);
        }
    }

    /**
     * Events thread: whether this node may change the runtime map now: it leads, and a majority confirmed its
     * leadership within the lease (see {@link LeaseKeeper#leadershipConfirmed}).
     */
    private boolean mayDecide() {
        Standing.Authority authority = standing.mayDecide(isLeader(),
                leases.keeper().leadershipConfirmed(time.nanoTime()));
        if (authority.unconfirmedNow()) {
            log.info("node {}: coordinates its current view, but no majority confirmed its leadership within the "
                    + "lease; it makes no failover decisions until one does", nodeId);
        }
        return authority.decides();
    }

    /** Events thread: ids of the nodes in the current view that announced themselves. */
    private Set<String> presentNodes() {
        return roster.presentNodes();
    }

    /** Node ids in the current membership view that announced themselves; an immutable snapshot. */
    public Set<String> presentNodeIds() {
        return present;
    }

    /**
     * Whether this node may act as an active owner now: the leader of a majority confirmed it within the
     * lease (always, when the transport needs no lease). A paused or cut-off node loses it before the
     * majority can promote a replacement, so it never serves stale reads or acknowledges superseded writes.
     */
    public boolean holdsLease() {
        return LeaseKeeper.holds(leaseValidUntil, time.nanoTime());
    }

    /** Events thread, every quarter lease and at every view change: see {@link LeaseRelay#renew}. */
    private void renewLease() {
        if (!roster.hasView() || channel == null) {
            return;
        }
        LeaseKeeper.Renewal renewal = leases.renew(seat(), time.nanoTime());
        if (renewal.expired()) {
            log.warn("node {}: owner lease expired (not confirmed by a leader of a majority for {} ms); it serves "
                    + "nothing until the leader confirms it again", nodeId, renewal.unconfirmedForMillis());
        }
    }

    /** Events thread: where this node stands, for its lease relay. */
    private LeaseRelay.Seat<Address> seat() {
        return new LeaseRelay.Seat<>(channel == null ? null : channel.getAddress(), roster, views.current(),
                settings.clusterSize());
    }

    /** What the lease relay asks of this node (called on the events thread). */
    private final class LeaseEffects implements LeaseRelay.Effects<Address> {

        @Override
        public void send(Address destination, byte[] message) {
            ClusterMember.this.send(destination, message);
        }

        @Override
        public void broadcast(byte[] message) {
            ClusterMember.this.broadcast(message);
        }

        @Override
        public void leadershipConfirmed() {
            // A new leader's first confirmation: the round its view change skipped runs now, not at the next tick,
            // so a crashed leader's partitions fail over up to a tick sooner.
            log.info("node {}: a majority confirmed its leadership; it decides failovers from now on", nodeId);
            reconcileFailover();
        }

        @Override
        public void newerMapHeld() {
            fetchNewerView();
        }

        @Override
        public void leaseGranted(long validUntil, boolean justConfirmed) {
            leaseValidUntil = validUntil;
            if (justConfirmed) {
                log.info("node {}: owner lease confirmed by the leader; serving as an active owner", nodeId);
            }
        }
    }

    /** Whether this node sees a majority of the cluster (a node that does not must not accept writes). */
    public boolean inMajority() {
        return standing.inMajority();
    }

    /**
     * Completes once the leader proved that, after this call, it still headed a majority of the voters that this
     * node belongs to: a beat it sent after the question arrived was answered by a majority. Never completes when
     * no leader of a majority answers (the caller bounds the wait). On a transport without leases (one JVM, where
     * nodes cannot be cut off from each other) it completes at once. See {@link MajorityChecks}.
     */
    public CompletableFuture<Void> confirmMajority() {
        if (!leases.keeper().enabled()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> confirmed = new CompletableFuture<>();
        boolean queued = submit(() -> {
            if (leases.majorityChecks().await(confirmed) && !submit(this::sendMajorityCheck)) {
                // the send is queued after the waiters already queued, so they share one check
                leases.majorityChecks().failAll("the cluster events queue is full");
            }
        });
        if (!queued) {
            confirmed.completeExceptionally(new IllegalStateException("node " + nodeId + " is stopping"));
        }
        return confirmed;
    }

    /** Events thread: asks the coordinator of the current view about every waiter added since the last check. */
    private void sendMajorityCheck() {
        leases.majorityChecks().sendCheck(channel == null ? null : roster.coordinator(), nodeId);
    }

    /**
     * Any thread: asks every other node of the held view for the view it holds, over the data transport,
     * and adopts what is newer exactly as if it had been broadcast. A node that membership has not merged
     * back yet (after a pause, a split) drops the leader's broadcasts as coming from a non-member, yet
     * clients already route to it by the newer view: without this it refuses them until the merge, which
     * took 20 s in a chaos run. At most once per {@link #VIEW_FETCH_INTERVAL}.
     */
    public void fetchNewerView() {
        submit(() -> {
            ClusterView held = views.current();
            if (held == null || !viewFetches.tryFetch(time.nanoTime())) {
                return;
            }
            held.addresses().forEach((node, address) -> {
                if (!node.equals(nodeId)) {
                    probe.clusterView(address).thenAccept(view -> {
                        if (view != null) {
                            submit(() -> views.adopt(view));
                        }
                    });
                }
            });
        });
    }

    /** Registers the one listener told, on the events thread, when the set of present nodes changes; call before {@link #start()}. */
    public void onPresenceChanged(Runnable listener) {
        this.presenceListener = listener;
    }

    /** Registers the one listener told about adopted views; call before {@link #start()}. */
    public void onViewAdopted(BiConsumer<ClusterView, ClusterView> listener) {
        views.onInstalled(listener);
    }

    /**
     * Registers the one listener told, on the events thread, once an adopted view is the one {@link #currentView()}
     * returns (the data path routes by it); call before {@link #start()}.
     */
    public void onViewInstalled(BiConsumer<ClusterView, ClusterView> listener) {
        views.onCurrent(listener);
    }

    /**
     * Leader only: makes {@code target} (an assigned owner of the partition) its active owner with a new
     * epoch, and publishes the change to every node. The runtime map is the only thing that moves.
     *
     * @return completes with the new epoch; fails with {@link IllegalStateException} on a node that is
     *         not the leader, or when {@code target} is not assigned the partition
     */
    public CompletableFuture<Long> handOver(int partition, String target) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        boolean queued = submit(() -> {
            try {
                result.complete(requests.handOver(partition, target));
            } catch (IllegalStateException e) {
                result.completeExceptionally(e);
            }
        });
        if (!queued) {
            result.completeExceptionally(new IllegalStateException("node " + nodeId + " is stopping"));
        }
        return result;
    }

    /**
     * Asks the leader to move every partition off this node (it plans a map without it and moves the
     * partitions a bounded number at a time, each served by its old owners until its new ones are in sync).
     * The request is repeated every second until done, so it survives lost messages and leader changes.
     *
     * @return completes once the adopted map gives this node no role; fails when no other node is present
     *         to take its partitions, or when this node stops first
     */
    public CompletableFuture<Void> drain() {
        submit(() -> requests.drain(time.nanoTime()));
        return requests.drainFuture();
    }

    /** The rebalance this node runs as leader; {@link RebalanceStatus#IDLE} when none runs or it does not lead. */
    public RebalanceStatus rebalanceStatus() {
        return standing.leading() ? failover.rebalanceStatus() : RebalanceStatus.IDLE;
    }

    /** Whether {@link #drain} was called. */
    public boolean isDraining() {
        return requests.isDraining();
    }

    /**
     * Asks the leader to plan the map over the present nodes now, without waiting for a newcomer's settle
     * delay; a balanced map is left as it is.
     */
    public void requestRebalance() {
        submit(requests::requestRebalance);
    }

    /** What an operator's requests need of this node (on the events thread). */
    private final class RequestHooks implements OperatorRequests.Member {

        @Override
        public boolean mayDecide() {
            return ClusterMember.this.mayDecide();
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
            return roster.hasView() && channel != null;
        }

        @Override
        public void broadcast(byte[] message) {
            ClusterMember.this.broadcast(message);
        }

        @Override
        public Set<String> presentNodes() {
            return ClusterMember.this.presentNodes();
        }
    }

    /** The latest adopted cluster view, or {@code null} before the first map is known. */
    public ClusterView currentView() {
        return views.current();
    }

    /** Completes with the first adopted view. */
    public ClusterView awaitFirstView(Duration timeout) throws InterruptedException, TimeoutException {
        try {
            return views.firstView().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cluster member " + nodeId + " failed", e.getCause());
        }
    }

    public String nodeId() {
        return nodeId;
    }

    /** Whether this node is the leader (coordinator of a majority view) as of the last view change. */
    public boolean isLeading() {
        return standing.leading();
    }

    private void onView(View newView) {
        leases.keeper().viewChanged(newView.getMembers(), time.nanoTime());
        roster.viewChanged(newView.getMembers());
        refreshMajority();
        refreshPresent();
        refreshMergePreference();
        log.info("node {}: membership view {} with {} member(s){}", nodeId, newView.getViewId(), newView.size(),
                newView instanceof MergeView ? " (merge)" : "");
        sayHello();
        if (views.current() != null) {
            // Everyone re-broadcasts what it holds: messages across an exclusion are lost, and after a
            // merge the coordinator may be the side with the stale view. Receivers keep the newest
            // (ViewOrdering), so the newest view wins everywhere, the new leader included.
            if (isLeader()) {
                views.publish(views.current());
            } else {
                broadcast(ClusterMessages.encodeView(views.current()));
            }
        }
        maybeComputeInitialMap();
        reconcileFailover();
        if (leases.keeper().enabled()) {
            renewLease(); // a new view changes who confirms leases: ask at once rather than at the next tick
        }
    }

    /** Events thread: announces this node's data address, incarnation and the map version it holds. */
    private void sayHello() {
        ClusterView held = views.current();
        long mapVersion = held == null ? 0 : held.partitionMap().version();
        broadcast(ClusterMessages.encodeHello(new ClusterMessages.NodeHello(nodeId, dataAddress, incarnation, mapVersion)));
    }

    /**
     * Events thread, after every membership view and hello: whether this node sees a majority of the voting
     * nodes, and whether it leads.
     */
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

    private void onMessage(Address source, byte[] payload, int offset, int length) {
        byte[] bytes = offset == 0 && length == payload.length ? payload
                : java.util.Arrays.copyOfRange(payload, offset, offset + length);
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
            reconcileFailover();
        } else if (message instanceof ClusterView published) {
            views.adopt(published);
        } else if (message instanceof ClusterMessages.LeaseMessage leaseMessage) {
            leases.onMessage(source, leaseMessage, seat(), time.nanoTime());
        } else if (message instanceof ClusterMessages.PlanRequest request) {
            if (mayDecide()) {
                if (request.type() == ClusterMessages.DRAIN) {
                    failover.drainRequested(request.nodeId());
                } else {
                    failover.rebalanceRequested(request.nodeId());
                }
            }
        } else if (message instanceof ClusterMessages.Goodbye) {
            if (membershipGate != null) {
                membershipGate.memberLeaving(source);
            }
        } else if (message instanceof ClusterMessages.Disown disown && mayDecide() && views.current() != null) {
            failover.disown(disown.nodeId(), disown.partitions(), views.current());
            reconcileFailover();
        }
    }

    /** Events thread: publishes the first map when this node is the one to compute it (see {@link FirstMap}). */
    private void maybeComputeInitialMap() {
        ClusterView initial = FirstMap.plan(isLeader(), views.current(), roster, settings, nodeId);
        if (initial != null) {
            log.info("node {}: leader computed partition map version {} for members {}", nodeId,
                    initial.partitionMap().version(), initial.founders().keySet());
            views.publish(initial);
        }
    }

    /** Events thread: repeats the request until the leader moved every inherited role (messages can be lost). */
    private void askToDisown() {
        byte[] request = views.disownRequest();
        if (request != null && channel != null) {
            broadcast(request);
        }
    }

    /** What installing a view asks of this node (on the events thread). */
    private final class ViewHooks implements HeldView.Hooks {

        @Override
        public void broadcast(byte[] message) {
            ClusterMember.this.broadcast(message);
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
            if (held == null && channel != null) {
                sayHello(); // members deciding whether to compute a first map must know this node holds one now
            }
            requests.checkDrained();
        }
    }

    /**
     * Partitions (with the epoch) that the cluster still names this node active for from before it
     * restarted: the node must neither serve nor replicate them; they are failed over to an owner with data.
     */
    public Map<Integer, Long> inheritedActives() {
        return views.inheritedActives();
    }

    /**
     * Events thread, every round while this node holds no map: asks the members that announced one for it
     * (at most once per {@link #VIEW_FETCH_INTERVAL}). They re-broadcast their view after every membership
     * change, but such a message can be lost across a merge, and a leader without a map must not wait for
     * the next view change to learn the cluster's (it may not compute its own while they hold one).
     */
    private void fetchFirstView() {
        Map<String, NodeAddress> holders = roster.mapHolders(nodeId);
        if (views.current() != null || holders.isEmpty() || !viewFetches.tryFetch(time.nanoTime())) {
            return;
        }
        log.info("node {}: holds no partition map yet; asks {} for theirs", nodeId, holders.keySet());
        holders.values().forEach(address -> probe.clusterView(address).thenAccept(fetched -> {
            if (fetched != null) {
                submit(() -> views.adopt(fetched));
            }
        }));
    }

    /** Events thread: see {@link MergePreference}. */
    private void refreshMergePreference() {
        mergePreference.refresh(roster, views.current(), settings.clusterSize(), nodeId);
    }

    /** Events thread: whether this node coordinates a membership view that holds a majority. */
    private boolean isLeader() {
        return channel != null && roster.leads(channel.getAddress(), views.current(), settings.clusterSize());
    }

    private void send(Address destination, byte[] message) {
        try {
            channel.send(new BytesMessage(destination, message));
        } catch (Exception e) {
            log.debug("node {}: cluster message to {} failed: {}", nodeId, destination, e.toString());
        }
    }

    private void broadcast(byte[] message) {
        try {
            channel.send(new BytesMessage(null, message));
        } catch (Exception e) {
            log.warn("node {}: cluster broadcast failed: {}", nodeId, e.toString());
        }
    }

    /** Queues an event for the events thread; {@code false} when it was dropped (the node is stopping). */
    private boolean submit(Runnable event) {
        if (leaving) {
            return false;
        }
        try {
            events.execute(() -> {
                if (leaving) {
                    return; // queued before close(); see the field
                }
                try {
                    event.run();
                } catch (RuntimeException e) {
                    log.error("node {}: cluster event failed", nodeId, e);
                }
            });
        } catch (RejectedExecutionException e) {
            if (!events.isShutdown()) {
                log.error("node {}: cluster event queue full ({} events); dropping an event, the next view change "
                        + "re-synchronises", nodeId, EVENT_QUEUE_CAPACITY);
            }
            return false;
        }
        return true;
    }

    private void runOnEventsThread(Runnable action) throws InterruptedException, ExecutionException {
        CompletableFuture.runAsync(action, events).get();
    }

    @Override
    public void close() {
        leaving = true;
        requests.stopped();
        try {
            runOnEventsThread(() -> {
                if (channel != null) {
                    // before the view without this node: a member this node coordinates installs it only so
                    broadcast(ClusterMessages.encodeGoodbye());
                    channel.close();
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            log.warn("node {}: closing the cluster channel failed", nodeId, e.getCause());
        } finally {
            timer.shutdownNow();
            events.shutdown();
        }
    }
}
