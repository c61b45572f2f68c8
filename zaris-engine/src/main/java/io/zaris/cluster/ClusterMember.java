package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.replication.ReplicationSettings;
import io.zaris.security.ClusterSecret;
import io.zaris.time.TimeSource;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
 * A node's seat in the cluster: joins the JGroups channel, announces the node's data address, and holds
 * the {@link ClusterView} the leader publishes. When this node is the leader it computes partition map
 * version 1 once every expected member has announced itself, and re-broadcasts the full view after every
 * view change (JGroups does not retransmit messages lost across an exclusion or a merge).
 *
 * <p>The lease rules live in {@link LeaseKeeper}: this class reads the clock, hands each lease event to it with
 * the reading, sends the messages it asks for and logs what it reports. The majority checks are kept by a
 * {@link MajorityCheckRelay}, to which it passes the coordinator, the readings and whether it leads; this node's
 * drain by {@link DrainProgress}; an operator's hand-over is decided by {@link HandOver}.
 *
 * <p>Concurrency: JGroups callbacks only enqueue events; all membership state is confined to one
 * "zaris-cluster" thread, fed by a bounded queue. Only {@link #currentView()} is read from other threads,
 * through a volatile field holding an immutable {@link ClusterView}.
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
    private final CompletableFuture<ClusterView> firstView = new CompletableFuture<>();

    private final FailoverCoordinator failover;
    private final ScheduledExecutorService timer;
    /** Whether the last view holds a majority of the configured cluster size; writes need it. */
    private volatile boolean inMajority;
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
    /** Snapshot of {@code inheritedActives}, for the node's data path. */
    private volatile Map<Integer, Long> inheritedSnapshot = Map.of();

    // --- confined to the events thread ---
    private final Map<Address, ClusterMessages.NodeHello> announced = new HashMap<>();
    /**
     * Partitions the first view this process adopted named it active for, by epoch, although it is not
     * the incarnation the map was founded with: roles of the process before a restart, whose data this
     * one does not have. It must not serve them, and it asks the leader to move them, until their epoch
     * changes.
     */
    private final Map<Integer, Long> inheritedActives = new TreeMap<>();
    /** Events thread: the owner and leader leases, the beats and the grants (see {@link LeaseKeeper}). */
    private final LeaseKeeper<Address> leases;
    private final PeerProbe probe;
    /** Events thread: when this node last asked its peers for a newer view (see {@link #fetchNewerView}). */
    private long lastViewFetchNanos = Long.MIN_VALUE;
    /** Events thread: whether {@link #mayDecide} already said this node leads without a confirmed lease. */
    private boolean leadershipUnconfirmedLogged;
    /** Events thread: this node's majority checks, asked and (while leading) received. */
    private final MajorityCheckRelay<Address> majorityChecks = new MajorityCheckRelay<>(this::send);
    private View view;
    /**
     * What a merge this node leads lists first (see {@link MergeOrder}): its own membership view in order while that
     * view holds a majority, and the member the newest cluster view names leader (unless this node). Written on the
     * events thread after every membership view and adopted cluster view, read by JGroups' merge; immutable.
     */
    private volatile List<Address> majorityViewOrder = List.of();
    private volatile List<Address> namedLeader = List.of();
    private JChannel channel;
    /** Set with the channel (events thread); see {@link MembershipGate}. {@code null} on the in-JVM transport. */
    private MembershipGate membershipGate;

    /** This node's own drain: asked or not, its repeats and its future (written on the events thread). */
    private final DrainProgress drain = new DrainProgress();

    /** Last adopted view; written on the events thread only. */
    private volatile ClusterView current;
    /** Whether this node leads, as of the last view; written on the events thread, read anywhere. */
    private volatile boolean leading;
    /**
     * Told (on the events thread) about every adopted view: (previous or null, adopted), before
     * {@link #currentView()} returns it.
     */
    private volatile BiConsumer<ClusterView, ClusterView> viewListener = (previous, adopted) -> { };
    /** Told once a view is the one {@link #currentView()} returns (after {@link #viewListener}). */
    private volatile BiConsumer<ClusterView, ClusterView> installedListener = (previous, installed) -> { };
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
        this.leases = leaseDuration == null ? LeaseKeeper.withoutLease() : LeaseKeeper.withLease(leaseDuration);
        this.leaseValidUntil = leases.memberLeaseValidUntil();
        this.probe = probe;
        this.failover = new FailoverCoordinator(nodeId, settings, replicationSettings, probe, this::submit, time,
                this::ownerLeaseSurelyLapsed, this::leaseLapsedWhileMember, this::leaseRenewed);
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
        gms.setMembershipChangePolicy(new MergeOrder(this::mergePreference));
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
        if (leases.enabled()) {
            long tick = Math.max(100, membershipConfig.ownerLease().toMillis() / 4);
            timer.scheduleWithFixedDelay(() -> submit(this::renewLease), tick, tick, TimeUnit.MILLISECONDS);
        }
    }

    /** Events thread: the leader's periodic and view-triggered failover/heal/evict round. */
    private void reconcileFailover() {
        refreshPresent();
        fetchFirstView();
        askToDisown();
        repeatDrainRequest();
        if (mayDecide() && current != null) {
            failover.reconcile(current, presentNodes(), () -> current, this::publishIfStillLeading);
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
            publish(decided);
        } else {
            log.warn("node {}: drops a failover decision: its leadership lapsed while the round ran", nodeId);
        }
    }

    /**
     * Events thread: whether this node may change the runtime map now: it leads, and a majority confirmed its
     * leadership within the lease (see {@link LeaseKeeper#leadershipConfirmed}).
     */
    private boolean mayDecide() {
        boolean leader = isLeader();
        boolean confirmed = leases.leadershipConfirmed(time.nanoTime());
        if (leader && !confirmed && !leadershipUnconfirmedLogged) {
            log.info("node {}: coordinates its current view, but no majority confirmed its leadership within the "
                    + "lease; it makes no failover decisions until one does", nodeId);
        }
        leadershipUnconfirmedLogged = leader && !confirmed;
        return leader && confirmed;
    }

    /** Events thread: ids of the nodes in the current view that announced themselves. */
    private Set<String> presentNodes() {
        Set<String> present = new HashSet<>();
        if (view != null) {
            for (Address member : view.getMembers()) {
                ClusterMessages.NodeHello hello = announced.get(member);
                if (hello != null) {
                    present.add(hello.nodeId());
                }
            }
        }
        return present;
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

    /**
     * Events thread, every quarter lease: the leader beats (members answer; a majority of answers confirms
     * its own lease) and every node, the leader included, asks the leader to confirm its lease.
     */
    private void renewLease() {
        if (view == null || channel == null) {
            return;
        }
        long now = time.nanoTime();
        LeaseKeeper.Renewal renewal = leases.renew(now);
        if (renewal.expired()) {
            log.warn("node {}: owner lease expired (not confirmed by a leader of a majority for {} ms); it serves "
                    + "nothing until the leader confirms it again", nodeId, renewal.unconfirmedForMillis());
        }
        if (isLeader()) {
            broadcast(ClusterMessages.encodeLease(ClusterMessages.BEAT, leases.beginBeat(now, votingSize() / 2 + 1)));
        }
        send(view.getCoord(), ClusterMessages.encodeLease(ClusterMessages.LEASE_REQUEST, renewal.requestNumber()));
    }

    /** Events thread. */
    private void onLeaseMessage(Address source, ClusterMessages.LeaseMessage message) {
        if (!leases.enabled() || view == null) {
            return;
        }
        long number = message.number();
        switch (message.type()) {
            case ClusterMessages.BEAT -> {
                long now = time.nanoTime();
                if (source.equals(view.getCoord()) && leases.answersBeat(source, view::containsMember, now)) {
                    send(source, ClusterMessages.encodeLease(ClusterMessages.BEAT_ACK, number));
                }
            }
            case ClusterMessages.BEAT_ACK -> {
                // only members of the leader's view count: an excluded node's answers arrive all the same
                LeaseKeeper.BeatQuorum quorum = isLeader() && view.containsMember(source)
                        ? leases.onBeatAnswer(number, source, time.nanoTime()) : null;
                if (quorum != null) {
                    if (quorum.leadershipJustConfirmed()) {
                        // A new leader's first confirmation: the round its view change skipped runs now, not at the
                        // next tick, so a crashed leader's partitions fail over up to a tick sooner.
                        log.info("node {}: a majority confirmed its leadership; it decides failovers from now on", nodeId);
                        reconcileFailover();
                    }
                    majorityChecks.onBeatQuorum(quorum.sentNanos());
                }
            }
            case ClusterMessages.MAJORITY_CHECK -> {
                if (isLeader() && view.containsMember(source)) {
                    long now = time.nanoTime();
                    majorityChecks.onCheck(source, number, now);
                    // a beat sent now, after the check arrived, is what can prove it; waiting for the next tick
                    // would hold the asking write back for up to a quarter lease
                    broadcast(ClusterMessages.encodeLease(ClusterMessages.BEAT, leases.beginBeat(now, votingSize() / 2 + 1)));
                }
            }
            case ClusterMessages.MAJORITY_CONFIRMED -> {
                majorityChecks.onConfirmed(source, view.getCoord(), number);
            }
            case ClusterMessages.LEASE_REQUEST -> {
                long now = time.nanoTime();
                ClusterMessages.NodeHello hello = announced.get(source);
                if (isLeader() && view.containsMember(source)
                        && leases.grant(hello == null ? null : hello.nodeId(), now)) {
                    ClusterView held = current;
                    send(source, ClusterMessages.encodeGrant(number, held == null ? 0 : held.partitionMap().version()));
                } else if (isLeader() && view.containsMember(source) && !leases.leadershipConfirmed(now)) {
                    // A member asks as soon as it installs this leader's view, which it may have held back a while
                    // (MembershipGate) and so missed the beat sent at the view change: a beat now lets its answer
                    // confirm this leadership at once instead of at the next tick, a quarter lease later.
                    broadcast(ClusterMessages.encodeLease(ClusterMessages.BEAT, leases.beginBeat(now, votingSize() / 2 + 1)));
                }
            }
            case ClusterMessages.LEASE_GRANT -> {
                ClusterView heldView = current;
                if (heldView != null && message.mapVersion() > heldView.partitionMap().version()) {
                    // The leader holds a newer map: this node may have missed a view that moved its partitions away
                    // (it was suspended while its link was down, and no membership change re-broadcast views since).
                    // Serving on its old view would answer reads of partitions another node now owns.
                    fetchNewerView();
                    break;
                }
                if (source.equals(view.getCoord())) {
                    boolean confirmed = leases.onGrant(number, source.equals(channel.getAddress()), time.nanoTime());
                    leaseValidUntil = leases.memberLeaseValidUntil();
                    if (confirmed) {
                        log.info("node {}: owner lease confirmed by the leader; serving as an active owner", nodeId);
                    }
                }
            }
            default -> {
            }
        }
    }

    /** Events thread: see {@link LeaseKeeper#surelyLapsed}. */
    private boolean ownerLeaseSurelyLapsed(String node) {
        return leases.surelyLapsed(node, time.nanoTime());
    }

    /** Events thread: see {@link LeaseKeeper#lapsedWhileMember}. */
    private boolean leaseLapsedWhileMember(String node) {
        Address address = null;
        for (Map.Entry<Address, ClusterMessages.NodeHello> member : announced.entrySet()) {
            if (member.getValue().nodeId().equals(node)) {
                address = member.getKey();
            }
        }
        return leases.lapsedWhileMember(node, address, time.nanoTime());
    }

    /** Events thread: see {@link LeaseKeeper#renewedWithinLease}. */
    private boolean leaseRenewed(String node) {
        return leases.renewedWithinLease(node, time.nanoTime());
    }

    /** Whether this node sees a majority of the cluster (a node that does not must not accept writes). */
    public boolean inMajority() {
        return inMajority;
    }

    /**
     * Completes once the leader proved that, after this call, it still headed a majority of the voters that this
     * node belongs to: a beat it sent after the question arrived was answered by a majority. Never completes when
     * no leader of a majority answers (the caller bounds the wait). On a transport without leases (one JVM, where
     * nodes cannot be cut off from each other) it completes at once. See {@link MajorityChecks}.
     */
    public CompletableFuture<Void> confirmMajority() {
        if (!leases.enabled()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> confirmed = new CompletableFuture<>();
        boolean queued = submit(() -> {
            if (majorityChecks.await(confirmed) && !submit(this::sendMajorityCheck)) {
                // the send is queued after the waiters already queued, so they share one check
                majorityChecks.failAll("the cluster events queue is full");
            }
        });
        if (!queued) {
            confirmed.completeExceptionally(new IllegalStateException("node " + nodeId + " is stopping"));
        }
        return confirmed;
    }

    /** Events thread: asks the coordinator of the current view about every waiter added since the last check. */
    private void sendMajorityCheck() {
        majorityChecks.sendCheck(view == null || channel == null ? null : view.getCoord(), nodeId);
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
            ClusterView held = current;
            long now = time.nanoTime();
            if (held == null || (lastViewFetchNanos != Long.MIN_VALUE
                    && now - lastViewFetchNanos < VIEW_FETCH_INTERVAL.toNanos())) {
                return;
            }
            lastViewFetchNanos = now;
            held.addresses().forEach((node, address) -> {
                if (!node.equals(nodeId)) {
                    probe.clusterView(address).thenAccept(view -> {
                        if (view != null) {
                            submit(() -> adopt(view));
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
        this.viewListener = listener;
    }

    /**
     * Registers the one listener told, on the events thread, once an adopted view is the one {@link #currentView()}
     * returns (the data path routes by it); call before {@link #start()}.
     */
    public void onViewInstalled(BiConsumer<ClusterView, ClusterView> listener) {
        this.installedListener = listener;
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
            ClusterView held = current;
            if (!mayDecide() || held == null) {
                result.completeExceptionally(new IllegalStateException("node " + nodeId
                        + " is not the confirmed leader (or has no map); hand-overs are decided by the leader"));
                return;
            }
            HandOver.Decision decision;
            try {
                decision = HandOver.decide(held, partition, target);
            } catch (IllegalStateException e) {
                result.completeExceptionally(e);
                return;
            }
            log.info("node {}: leader hands partition {} from {} to {} (epoch {} -> {})", nodeId, partition,
                    decision.before().activeNode(), target, decision.before().epoch(), decision.after().epoch());
            publish(decision.next());
            failover.recordChange(partition);
            result.complete(decision.after().epoch());
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
        submit(() -> {
            if (drain.request()) {
                log.info("node {}: draining — asking the leader to move its partitions to the other nodes", nodeId);
            }
            repeatDrainRequest();
            checkDrained();
        });
        return drain.future();
    }

    /** The rebalance this node runs as leader; {@link RebalanceStatus#IDLE} when none runs or it does not lead. */
    public RebalanceStatus rebalanceStatus() {
        return leading ? failover.rebalanceStatus() : RebalanceStatus.IDLE;
    }

    /** Whether {@link #drain} was called. */
    public boolean isDraining() {
        return drain.isRequested();
    }

    /**
     * Asks the leader to plan the map over the present nodes now, without waiting for a newcomer's settle
     * delay; a balanced map is left as it is.
     */
    public void requestRebalance() {
        submit(() -> {
            byte[] request = ClusterMessages.encodePlanRequest(new ClusterMessages.PlanRequest(ClusterMessages.REBALANCE, nodeId));
            if (view != null && channel != null) {
                broadcast(request);
            }
        });
    }

    /**
     * Events thread: at most once a second while draining — also once drained, so a drained node that keeps
     * running stays out of the map (its request would otherwise lapse and it would be planned back in).
     */
    private void repeatDrainRequest() {
        if (!drain.isRequested() || channel == null || view == null || !drain.requestDue(time.nanoTime())) {
            return;
        }
        broadcast(ClusterMessages.encodePlanRequest(new ClusterMessages.PlanRequest(ClusterMessages.DRAIN, nodeId)));
        checkDrained();
    }

    /** Events thread: settles the drain once the held view gives this node no role (see {@link DrainProgress}). */
    private void checkDrained() {
        ClusterView held = current;
        if (!drain.isRequested() || held == null) {
            return;
        }
        if (drain.settle(held, nodeId, presentNodes()) == DrainProgress.Outcome.DRAINED) {
            log.info("node {}: drained — map version {} gives it no partition", nodeId, held.partitionMap().version());
        }
    }

    /** The latest adopted cluster view, or {@code null} before the first map is known. */
    public ClusterView currentView() {
        return current;
    }

    /** Completes with the first adopted view. */
    public ClusterView awaitFirstView(Duration timeout) throws InterruptedException, TimeoutException {
        try {
            return firstView.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cluster member " + nodeId + " failed", e.getCause());
        }
    }

    public String nodeId() {
        return nodeId;
    }

    /** Whether this node is the leader (coordinator of a majority view) as of the last view change. */
    public boolean isLeading() {
        return leading;
    }

    private void onView(View newView) {
        leases.viewChanged(newView.getMembers(), time.nanoTime());
        view = newView;
        announced.keySet().retainAll(newView.getMembers());
        refreshMajority();
        refreshPresent();
        refreshMergePreference();
        log.info("node {}: membership view {} with {} member(s){}", nodeId, newView.getViewId(), newView.size(),
                newView instanceof MergeView ? " (merge)" : "");
        sayHello();
        if (current != null) {
            // Everyone re-broadcasts what it holds: messages across an exclusion are lost, and after a
            // merge the coordinator may be the side with the stale view. Receivers keep the newest
            // (ViewOrdering), so the newest view wins everywhere, the new leader included.
            if (isLeader()) {
                publish(current);
            } else {
                broadcast(ClusterMessages.encodeView(current));
            }
        }
        maybeComputeInitialMap();
        reconcileFailover();
        if (leases.enabled()) {
            renewLease(); // a new view changes who confirms leases: ask at once rather than at the next tick
        }
    }

    /** Events thread: announces this node's data address, incarnation and the map version it holds. */
    private void sayHello() {
        ClusterView held = current;
        long mapVersion = held == null ? 0 : held.partitionMap().version();
        broadcast(ClusterMessages.encodeHello(new ClusterMessages.NodeHello(nodeId, dataAddress, incarnation, mapVersion)));
    }

    /**
     * Events thread, after every membership view and hello: whether this node sees a majority of the voting
     * nodes, and whether it leads.
     */
    private void refreshMajority() {
        int voters = votersInView();
        int size = votingSize();
        boolean majority = voters * 2 > size;
        if (inMajority && !majority) {
            int withoutHello = membersWithoutHello();
            if (LeaderRule.mayOnlyAwaitHellos(voters, withoutHello, size)) {
                log.info("node {}: counts {} of {} nodes until the hellos of {} more member(s) arrive; accepts no "
                        + "writes until then", nodeId, voters, size, withoutHello);
            } else {
                log.warn("node {}: sees only {} of {} nodes; stops accepting writes until a majority is back", nodeId,
                        voters, size);
            }
        }
        inMajority = majority;
        leading = isLeader();
        if (!leading) {
            leases.notLeading();
            majorityChecks.notLeading();
        }
    }

    /**
     * Events thread: how many nodes a majority is counted over — the view's voters once there is a map (the
     * map's nodes and the nodes whose copies were re-homed but keep their vote, see {@link VoterRetention}; a
     * node that joined but holds nothing yet does not vote), else the configured cluster size.
     */
    private int votingSize() {
        ClusterView held = current;
        return held == null ? settings.clusterSize() : held.voters().size();
    }

    /** Events thread: members of the membership view this node has no hello from yet. */
    private int membersWithoutHello() {
        if (view == null) {
            return 0;
        }
        int without = 0;
        for (Address member : view.getMembers()) {
            if (!announced.containsKey(member)) {
                without++;
            }
        }
        return without;
    }

    /** Events thread: how many voting nodes the membership view holds (see {@link #votingSize}). */
    private int votersInView() {
        if (view == null) {
            return 0;
        }
        ClusterView held = current;
        if (held == null) {
            return view.size();
        }
        Set<String> voters = held.voters();
        int count = 0;
        for (Address member : view.getMembers()) {
            ClusterMessages.NodeHello hello = announced.get(member);
            if (hello != null && voters.contains(hello.nodeId())) {
                count++;
            }
        }
        return count;
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
            announced.put(source, hello);
            refreshMajority();
            if (current != null && !hello.dataAddress().equals(current.addresses().get(hello.nodeId()))) {
                if (isLeader()) {
                    publish(current);
                } else {
                    adopt(current);
                }
            }
            maybeComputeInitialMap();
            reconcileFailover();
        } else if (message instanceof ClusterView published) {
            adopt(published);
        } else if (message instanceof ClusterMessages.LeaseMessage leaseMessage) {
            onLeaseMessage(source, leaseMessage);
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
        } else if (message instanceof ClusterMessages.Disown disown && mayDecide() && current != null) {
            failover.disown(disown.nodeId(), disown.partitions(), current);
            reconcileFailover();
        }
    }

    private void maybeComputeInitialMap() {
        if (view == null || !LeaderRule.shouldComputeInitialMap(isLeader(), current != null, announcedInView(),
                view.size(), settings.clusterSize(), !mapHoldersInView().isEmpty())) {
            return;
        }
        List<String> members = new ArrayList<>();
        for (Address member : view.getMembers()) {
            members.add(announced.get(member).nodeId());
        }
        PartitionMap map = PartitionPlanner.plan(members, settings.layout().partitionCount(),
                settings.replicationFactor(), null);
        Map<String, String> founders = new HashMap<>();
        for (Address member : view.getMembers()) {
            ClusterMessages.NodeHello hello = announced.get(member);
            founders.put(hello.nodeId(), hello.incarnation());
        }
        ClusterView initial = new ClusterView(settings.layout(), map, RuntimeMap.initial(map, 1),
                mergedAddresses(null), nodeId, founders);
        log.info("node {}: leader computed partition map version {} for members {}", nodeId, map.version(), members);
        publish(initial);
    }

    /** Adopts the view (with announced addresses, stamped with this leader's id) and broadcasts what was adopted. */
    private void publish(ClusterView newView) {
        ClusterView stamped = newView.withLeader(nodeId);
        stamped = stamped.withAddresses(mergedAddresses(stamped));
        // Sent before this node installs it: installing runs the view listener (takeover gates, catch-ups,
        // client pushes), which took 0.2 s on a loaded machine, and the other members' installs need not wait
        // for it. Members adopt a view at different moments anyway; epochs fence every copy meanwhile.
        broadcast(ClusterMessages.encodeView(stamped));
        adopt(stamped);
    }

    /**
     * Adopts a view unless it is older than the one held (lower map version or any lower epoch). The data
     * addresses members announced themselves override the view's: a peer re-broadcasting an equally new view
     * may carry the address a restarted node had before, and heal probes and clients must not go there.
     * For the same reason the leader this node sees in its own membership view overrides the stamped one.
     */
    private void adopt(ClusterView published) {
        ClusterView held = current;
        ClusterView candidate = published.withAddresses(mergedAddresses(published)).withLeader(leaderFor(published));
        if (held != null && !ViewOrdering.isAtLeastAsNew(candidate, held)) {
            RuntimeMap merged = ViewOrdering.merge(held, candidate);
            if (merged == null || merged.equals(held.runtimeMap())) {
                log.debug("node {}: ignoring stale cluster view version {}", nodeId, candidate.partitionMap().version());
                return;
            }
            // Newer here for some partitions, there for others (coordinators acted on both sides of a split):
            // keep the newest entry of each and tell everyone, or the two sides would never converge.
            log.info("node {}: merging a concurrent view of map version {}", nodeId, candidate.partitionMap().version());
            install(held, candidate.withRuntimeMap(merged));
            broadcast(ClusterMessages.encodeView(current));
            return;
        }
        install(held, candidate);
    }

    /**
     * Events thread: tells the listener, then makes {@code candidate} the held view. In that order: the node's
     * data path routes by {@link #currentView()}, and the listener first closes the takeover gates of the
     * partitions the view hands this node — visible the other way round, a request arriving in between was
     * served from a copy that had not pulled its fellows' last changes yet (a chaos run read a stale value so).
     */
    private void install(ClusterView held, ClusterView candidate) {
        trackInheritedActives(held, candidate);
        try {
            viewListener.accept(held, candidate);
        } catch (RuntimeException e) {
            log.error("node {}: view listener failed", nodeId, e);
        } finally {
            current = candidate;
        }
        try {
            installedListener.accept(held, candidate);
        } catch (RuntimeException e) {
            log.error("node {}: view-installed listener failed", nodeId, e);
        }
        refreshMajority();
        refreshMergePreference();
        if (held != null && !held.runtimeMap().equals(candidate.runtimeMap())) {
            int changed = 0;
            for (int p = 0; p < candidate.runtimeMap().partitionCount(); p++) {
                if (!candidate.runtimeMap().get(p).equals(held.runtimeMap().get(p))) {
                    changed++;
                }
            }
            log.info("node {}: adopted map version {} with {} changed partition(s)", nodeId,
                    candidate.partitionMap().version(), changed);
        }
        if (held == null) {
            log.info("node {}: adopted partition map version {} ({} partitions, {} segments)", nodeId,
                    candidate.partitionMap().version(), candidate.layout().partitionCount(),
                    candidate.layout().segmentCount());
        }
        firstView.complete(candidate);
        if (held == null && channel != null) {
            sayHello(); // members deciding whether to compute a first map must know this node holds one now
        }
        checkDrained();
    }

    /**
     * Events thread: finds the active roles of an earlier process of this node in a view that starts a
     * lineage for this process, and forgets those whose epoch changed (see {@link InheritedRoles}).
     */
    private void trackInheritedActives(ClusterView held, ClusterView candidate) {
        Map<Integer, Long> next = InheritedRoles.afterAdopting(inheritedActives, held, candidate, nodeId, incarnation);
        if (InheritedRoles.startsLineage(held, candidate) && !next.isEmpty()) {
            log.warn("node {}: restarted; the cluster{} still names it active for partitions {}; it does not serve them "
                    + "(it has none of their data) and asks the leader to fail them over", nodeId,
                    held == null ? "" : " (a map founded by other processes than the one it held)", next.keySet());
        }
        inheritedActives.clear();
        inheritedActives.putAll(next);
        inheritedSnapshot = Map.copyOf(inheritedActives);
        askToDisown();
    }

    /** Events thread: repeats the request until the leader moved every inherited role (messages can be lost). */
    private void askToDisown() {
        if (!inheritedActives.isEmpty() && channel != null) {
            broadcast(ClusterMessages.encodeDisown(new ClusterMessages.Disown(nodeId, Map.copyOf(inheritedActives))));
        }
    }

    /**
     * Partitions (with the epoch) that the cluster still names this node active for from before it
     * restarted: the node must neither serve nor replicate them; they are failed over to an owner with data.
     */
    public Map<Integer, Long> inheritedActives() {
        return inheritedSnapshot;
    }

    private Map<String, NodeAddress> mergedAddresses(ClusterView base) {
        Map<String, NodeAddress> addresses = new HashMap<>(base == null ? Map.of() : base.addresses());
        for (ClusterMessages.NodeHello hello : announced.values()) {
            addresses.put(hello.nodeId(), hello.dataAddress());
        }
        return addresses;
    }

    /**
     * Events thread: the node id of the coordinator of the current membership view when that view holds a
     * majority and the coordinator has announced itself; otherwise the leader the published view names.
     */
    private String leaderFor(ClusterView published) {
        if (view != null && LeaderRule.isLeader(true, votersInView(), votingSize())) {
            ClusterMessages.NodeHello coordinator = announced.get(view.getCoord());
            if (coordinator != null) {
                return coordinator.nodeId();
            }
        }
        return published.leader();
    }

    /** Events thread: node id → data address of the members of the current view that announced holding a map. */
    private Map<String, NodeAddress> mapHoldersInView() {
        Map<String, NodeAddress> holders = new TreeMap<>();
        if (view != null) {
            for (Address member : view.getMembers()) {
                ClusterMessages.NodeHello hello = announced.get(member);
                if (hello != null && hello.holdsMap() && !hello.nodeId().equals(nodeId)) {
                    holders.put(hello.nodeId(), hello.dataAddress());
                }
            }
        }
        return holders;
    }

    /**
     * Events thread, every round while this node holds no map: asks the members that announced one for it
     * (at most once per {@link #VIEW_FETCH_INTERVAL}). They re-broadcast their view after every membership
     * change, but such a message can be lost across a merge, and a leader without a map must not wait for
     * the next view change to learn the cluster's (it may not compute its own while they hold one).
     */
    private void fetchFirstView() {
        Map<String, NodeAddress> holders = mapHoldersInView();
        long now = time.nanoTime();
        if (current != null || holders.isEmpty() || (lastViewFetchNanos != Long.MIN_VALUE
                && now - lastViewFetchNanos < VIEW_FETCH_INTERVAL.toNanos())) {
            return;
        }
        lastViewFetchNanos = now;
        log.info("node {}: holds no partition map yet; asks {} for theirs", nodeId, holders.keySet());
        holders.values().forEach(address -> probe.clusterView(address).thenAccept(fetched -> {
            if (fetched != null) {
                submit(() -> adopt(fetched));
            }
        }));
    }

    private int announcedInView() {
        int count = 0;
        for (Address member : view.getMembers()) {
            if (announced.containsKey(member)) {
                count++;
            }
        }
        return count;
    }

    /** Events thread: keeps what {@link #mergePreference} chooses from current. */
    private void refreshMergePreference() {
        majorityViewOrder = view != null && votersInView() * 2 > votingSize() ? List.copyOf(view.getMembers()) : List.of();
        String leader = current == null ? null : current.leader();
        namedLeader = announced.entrySet().stream()
                .filter(member -> !nodeId.equals(leader) && member.getValue().nodeId().equals(leader))
                .map(Map.Entry::getKey).limit(1).toList();
    }

    /**
     * A JGroups thread, merging: the members to list first. This node's own view in order while it holds a majority
     * and this node's owner lease holds: its coordinator leads the cluster. A node whose lease ran out (back from a
     * pause or a cut) may hold a view the others left long ago; it prefers the leader its newest cluster view names,
     * never itself: a node that led before it was cut off must not take the lead back.
     */
    private List<Address> mergePreference() {
        List<Address> ownView = majorityViewOrder;
        boolean fresh = !leases.enabled() || LeaseKeeper.holds(leaseValidUntil, time.nanoTime());
        return fresh && !ownView.isEmpty() ? ownView : namedLeader;
    }

    private boolean isLeader() {
        return view != null && channel != null
                && LeaderRule.isLeader(channel.getAddress() != null && channel.getAddress().equals(view.getCoord()),
                votersInView(), votingSize());
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
        drain.stopped(nodeId);
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
