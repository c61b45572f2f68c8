package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.replication.ReplicationSettings;
import io.zaris.security.ClusterSecret;
import io.zaris.time.TimeSource;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
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
 * and the encryption it installs), turns JGroups' callbacks and its timers into events on one thread, reads the
 * clock once per event, and hands each event to its {@link MemberReactions}, which knows no JGroups and decides
 * what the member does (the roster, leases and beats, the first map, the held view, an operator's requests and the
 * leader's failover rounds). What the reactions send goes out through this channel ({@link MemberReactions.Link}).
 *
 * <p>Concurrency: JGroups callbacks, the timers and the public requests only enqueue events; all membership state is
 * confined to one "zaris-cluster" thread, fed by a bounded queue, which is the only thread that calls the reactions'
 * event methods and the only one that touches the channel after it connected. Other threads read volatile snapshots
 * only: the held view, the present nodes, the lease's end, the majority and the leadership.
 */
public final class ClusterMember implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClusterMember.class);
    /** Pending membership events; far above what view churn produces, small enough to be harmless. */
    private static final int EVENT_QUEUE_CAPACITY = 10_000;
    /** How often the leader's round runs (failover, heal, eviction) and the presence is refreshed. */
    private static final long ROUND_MILLIS = 250;

    private final String nodeId;
    private final MembershipConfig membershipConfig;
    /** {@code null}: membership traffic is neither authenticated nor encrypted. */
    private final ClusterSecret clusterSecret;
    /** The node's clock; every event's time is read from it on the events thread. */
    private final TimeSource time;
    private final ThreadPoolExecutor events;
    private final ScheduledExecutorService timer;
    /** What the member does on each event; its event methods run on the events thread only. */
    private final MemberReactions<Address> reactions;
    /**
     * Set by {@link #close()} before the channel closes. The views and messages JGroups delivers while this node
     * leaves (its own departure, down to a view of itself) are not acted on: the node no longer broadcasts,
     * leads or counts a majority, and acting on them logged a lost majority and failed broadcasts at every
     * orderly stop.
     */
    private volatile boolean leaving;

    // --- confined to the events thread ---
    private JChannel channel;
    /** Set with the channel; see {@link MembershipGate}. {@code null} on the in-JVM transport. */
    private MembershipGate membershipGate;

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
        this.membershipConfig = membershipConfig;
        this.events = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(EVENT_QUEUE_CAPACITY), runnable -> {
                    Thread thread = new Thread(runnable, "zaris-cluster-" + nodeId);
                    thread.setDaemon(true);
                    return thread;
                });
        this.reactions = new MemberReactions<>(nodeId, dataAddress, UUID.randomUUID().toString(), settings,
                membershipConfig.ownerLease(), replicationSettings, probe, time, this::submit);
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
        gms.setMembershipChangePolicy(new MergeOrder(() -> reactions.mergePreferred(time.nanoTime()),
                () -> reactions.mergeListsSelfLast(time.nanoTime()) ? List.of(newChannel.getAddress()) : List.of()));
        MembershipGate gate = null;
        if (membershipConfig.viewHoldLimit() != null) {
            HeardFrom heardFrom = new HeardFrom(time::nanoTime, membershipConfig.coordinatorSilence());
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
                submit(() -> reactions.onView(newView.getMembers(), newView.getViewId(), newView instanceof MergeView,
                        time.nanoTime()));
            }

            @Override
            public void receive(Message message) {
                byte[] payload = message.getArray();
                Address source = message.getSrc();
                int offset = message.getOffset();
                int length = message.getLength();
                submit(() -> reactions.onMessage(source, offset == 0 && length == payload.length ? payload
                        : Arrays.copyOfRange(payload, offset, offset + length), time.nanoTime()));
            }
        });
        runOnEventsThread(() -> {
            channel = newChannel;
            membershipGate = insertedGate;
            reactions.attached(new ChannelLink());
        });
        newChannel.connect(membershipConfig.clusterName());
        timer.scheduleWithFixedDelay(() -> submit(() -> reactions.onRound(time.nanoTime())), ROUND_MILLIS,
                ROUND_MILLIS, TimeUnit.MILLISECONDS);
        if (reactions.leasesEnabled()) {
            long tick = Math.max(100, membershipConfig.ownerLease().toMillis() / 4);
            timer.scheduleWithFixedDelay(() -> submit(() -> reactions.onLeaseTick(time.nanoTime())), tick, tick,
                    TimeUnit.MILLISECONDS);
        }
    }

    /** The channel, as the reactions use it (on the events thread, once it is set). */
    private final class ChannelLink implements MemberReactions.Link<Address> {

        @Override
        public Address self() {
            return channel.getAddress();
        }

        @Override
        public void send(Address destination, byte[] message) {
            try {
                channel.send(new BytesMessage(destination, message));
            } catch (Exception e) {
                log.debug("node {}: cluster message to {} failed: {}", nodeId, destination, e.toString());
            }
        }

        @Override
        public void broadcast(byte[] message) {
            ClusterMember.this.broadcast(message);
        }

        @Override
        public void memberLeaving(Address member) {
            if (membershipGate != null) {
                membershipGate.memberLeaving(member);
            }
        }

        @Override
        public boolean heardThroughout(Address member, long fromNanos, long toNanos) {
            return membershipGate != null && membershipGate.heardThroughout(member, fromNanos, toNanos);
        }

        @Override
        public void coordinatorDeserted(Address coordinator) {
            if (membershipGate != null) {
                membershipGate.coordinatorDeserted(coordinator);
            }
        }
    }

    /** Node ids in the current membership view that announced themselves; an immutable snapshot. */
    public Set<String> presentNodeIds() {
        return reactions.presentNodeIds();
    }

    /**
     * Whether this node may act as an active owner now: the leader of a majority confirmed it within the
     * lease (always, when the transport needs no lease). A paused or cut-off node loses it before the
     * majority can promote a replacement, so it never serves stale reads or acknowledges superseded writes.
     */
    public boolean holdsLease() {
        return reactions.holdsLease(time.nanoTime());
    }

    /** Whether this node sees a majority of the cluster (a node that does not must not accept writes). */
    public boolean inMajority() {
        return reactions.inMajority();
    }

    /**
     * Completes once the leader proved that, after this call, it still headed a majority of the voters that this
     * node belongs to: a beat it sent after the question arrived was answered by a majority. Never completes when
     * no leader of a majority answers (the caller bounds the wait). On a transport without leases (one JVM, where
     * nodes cannot be cut off from each other) it completes at once. See {@link MajorityChecks}.
     */
    public CompletableFuture<Void> confirmMajority() {
        if (!reactions.leasesEnabled()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> confirmed = new CompletableFuture<>();
        boolean queued = submit(() -> {
            if (reactions.awaitMajority(confirmed) && !submit(reactions::sendMajorityCheck)) {
                // the send is queued after the waiters already queued, so they share one check
                reactions.failMajorityChecks("the cluster events queue is full");
            }
        });
        if (!queued) {
            confirmed.completeExceptionally(new IllegalStateException("node " + nodeId + " is stopping"));
        }
        return confirmed;
    }

    /**
     * Any thread: asks every other node of the held view for the view it holds, over the data transport,
     * and adopts what is newer exactly as if it had been broadcast. A node that membership has not merged
     * back yet (after a pause, a split) drops the leader's broadcasts as coming from a non-member, yet
     * clients already route to it by the newer view: without this it refuses them until the merge, which
     * took 20 s in a chaos run. At most once per {@link MemberReactions#VIEW_FETCH_INTERVAL}.
     */
    public void fetchNewerView() {
        submit(() -> reactions.fetchNewerView(time.nanoTime()));
    }

    /** Registers the one listener told, on the events thread, when the set of present nodes changes; call before {@link #start()}. */
    public void onPresenceChanged(Runnable listener) {
        reactions.onPresenceChanged(listener);
    }

    /** Registers the one listener told about adopted views; call before {@link #start()}. */
    public void onViewAdopted(BiConsumer<ClusterView, ClusterView> listener) {
        reactions.onViewAdopted(listener);
    }

    /**
     * Registers the one listener told, on the events thread, once an adopted view is the one {@link #currentView()}
     * returns (the data path routes by it); call before {@link #start()}.
     */
    public void onViewInstalled(BiConsumer<ClusterView, ClusterView> listener) {
        reactions.onViewInstalled(listener);
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
                result.complete(reactions.handOver(partition, target, time.nanoTime()));
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
        submit(() -> reactions.drain(time.nanoTime()));
        return reactions.drainFuture();
    }

    /** The rebalance this node runs as leader; {@link RebalanceStatus#IDLE} when none runs or it does not lead. */
    public RebalanceStatus rebalanceStatus() {
        return reactions.rebalanceStatus();
    }

    /** Whether {@link #drain} was called. */
    public boolean isDraining() {
        return reactions.isDraining();
    }

    /**
     * Asks the leader to plan the map over the present nodes now, without waiting for a newcomer's settle
     * delay; a balanced map is left as it is.
     */
    public void requestRebalance() {
        submit(reactions::requestRebalance);
    }

    /** The latest adopted cluster view, or {@code null} before the first map is known. */
    public ClusterView currentView() {
        return reactions.currentView();
    }

    /** Completes with the first adopted view. */
    public ClusterView awaitFirstView(Duration timeout) throws InterruptedException, TimeoutException {
        try {
            return reactions.firstView().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cluster member " + nodeId + " failed", e.getCause());
        }
    }

    public String nodeId() {
        return nodeId;
    }

    /** Whether this node is the leader (coordinator of a majority view) as of the last view change. */
    public boolean isLeading() {
        return reactions.isLeading();
    }

    /**
     * Partitions (with the epoch) that the cluster still names this node active for from before it
     * restarted: the node must neither serve nor replicate them; they are failed over to an owner with data.
     */
    public Map<Integer, Long> inheritedActives() {
        return reactions.inheritedActives();
    }

    /** Events thread: one message to every member; a failure is logged (the next round or view repeats it). */
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
        reactions.stopped();
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
