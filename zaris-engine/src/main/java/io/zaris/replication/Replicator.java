package io.zaris.replication;

import io.zaris.model.AckMode;
import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.PeerConnectionName;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.security.Credentials;
import io.zaris.security.TlsOptions;
import io.zaris.store.ChangeSink;
import io.zaris.store.NodeStore;
import io.zaris.store.SegmentSnapshot;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active owner's half of replication: keeps one {@link ReplicaLink} per node that replicates a
 * partition this node serves, brings each replica up to date with a snapshot whenever this node becomes
 * (or stays, under a new epoch) the partition's active owner, ships every change live, and answers the
 * acknowledgement question for SYNC writes.
 *
 * <p>Ordering: {@link #ship} runs under the segment's write lock (it is the store's {@link ChangeSink}),
 * and so do snapshots and catch-ups ({@link NodeStore#catchUp}); every frame for a segment therefore
 * leaves on the link's single connection in revision order, and a replica applies them in that order.
 * A link ships a segment's live changes only after that segment's snapshot was enqueued.
 *
 * <p>Threads: {@link #ship} on request threads (event loops); {@link #reconcile} on the one
 * "zaris-replication" thread, every {@link #RECONCILE_INTERVAL}, after each adopted view and when a shipment waits
 * for a replica without a link; catch-ups on the event loop that received the replica's OUT_OF_SYNC answer. Shipments
 * waiting for a replica to go live on their segment ({@link SyncWaiters}) join under the segment's lock and are
 * settled by the snapshot read under it, released by the replication thread or a link's event loop, and expire on
 * the replication thread.
 */
public final class Replicator implements ChangeSink, AutoCloseable {

    private final AtomicLong snapshotBytesSent = new AtomicLong();
    private final LongAdder segmentsCarriedOver = new LongAdder();
    private final LongAdder reducedRedundancyShipments = new LongAdder();
    /**
     * What {@link #ship} returns for an ASYNC shipment whose verdict it counts without a {@link ReplicaAcks}: nobody
     * waits for it (see {@link ChangeSink}: at once for ASYNC). Completed, so shared.
     */
    private static final CompletableFuture<Void> UNAWAITED = CompletableFuture.completedFuture(null);
    /** Made once, not per shipment: every write's {@link ReplicaAcks} gets the same two callbacks. */
    private final Runnable countReducedRedundancy = reducedRedundancyShipments::increment;
    /** Asks the majority confirmation when the check runs (it is set once, by {@link #start}). */
    private final Supplier<CompletableFuture<Void>> majorityCheck =
            () -> this.majorityConfirmation.get().orTimeout(MAJORITY_CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

    private static final Logger log = LoggerFactory.getLogger(Replicator.class);
    /** How often links are checked (opened, re-synced, closed). */
    static final Duration RECONCILE_INTERVAL = Duration.ofMillis(500);
    /**
     * How long a SYNC write waits for the leader to prove a majority (one beat's round trip when there is one)
     * before it is refused: well within an attempt, far above a round trip on a loaded network.
     */
    static final Duration MAJORITY_CHECK_TIMEOUT = Duration.ofSeconds(2);

    private final String nodeId;
    private final PartitionLayout layout;
    private final ReplicationSettings settings;
    private final EpochFence fence;
    private final Map<String, ReplicaLink> links = new ConcurrentHashMap<>();
    /**
     * Replicas whose last link was closed because they fell silent, until a new link opens or the leader stops
     * counting them as serving (suspended or excluded). Such a replica may be alive and cut off together with the
     * majority, so a SYNC write counts it as one that did not apply the change (see {@link ReplicaAcks}): the
     * write is acknowledged without it only once the leader proved a majority. Written by the replication thread
     * and link callbacks; read by writers.
     */
    private final Set<String> silentReplicas = ConcurrentHashMap.newKeySet();
    private final Set<String> opening = ConcurrentHashMap.newKeySet();
    /**
     * Serving members whose last link attempt failed (refused, handshake timed out), until an attempt succeeds or they
     * leave the serving members: a shipment does not wait for a new attempt to one of them, only for one under way (a
     * crashed replica membership still counts must not hold every write back by a connect attempt). Written by the
     * replication thread and link callbacks; read by writers.
     */
    private final Set<String> unreachable = ConcurrentHashMap.newKeySet();
    /**
     * Shipments waiting for a serving replica whose link is opening or whose segment has had no snapshot yet on it
     * (see {@link SyncWaiters} for the threads and the bound).
     */
    private final SyncWaiters syncWaiters;
    /** See {@link #shipmentsThatWaitedForReplicas()}. */
    private final LongAdder shipmentsThatWaitedForReplicas = new LongAdder();
    /** See {@link #waitDeadlinesQueued()}: in when a wait's deadline task is queued, out when it runs or is cancelled. */
    private final AtomicInteger waitDeadlinesQueued = new AtomicInteger();
    /** A reconcile asked for by a shipment that waits for a replica without a link is queued: one at a time. */
    private final AtomicBoolean reconcileAsked = new AtomicBoolean();
    /**
     * Per partition, shipments still waiting for some replica's verdict: counted in by {@link #ship} under the
     * segment's lock, counted out by their {@link ReplicaAcks} once every verdict is in. A hand-over fence waits for
     * it to reach zero ({@link #fenceForHandOver}).
     */
    private final AtomicIntegerArray shipmentsAwaitingVerdicts;
    /** Degraded partitions' confirmed replicas waiting for a heal; touched by the replication thread only. */
    private final ReplicaAudits audits = new ReplicaAudits();
    private final LongAdder segmentsAuditedOutOfSync = new LongAdder();
    private final ScheduledThreadPoolExecutor worker;
    private volatile ClusterView view;
    private volatile NodeStore store;
    /** Nodes membership currently sees; a replica outside it (hung, partitioned) is not waited for. */
    private volatile Supplier<Set<String>> present = Set::of;
    /**
     * Proves that the leader still headed a majority this node belongs to after the call (see
     * {@code ClusterMember#confirmMajority}); asked before a SYNC write is acknowledged without a connected
     * replica that did not apply it.
     */
    private volatile Supplier<CompletableFuture<Void>> majorityConfirmation = () -> CompletableFuture.completedFuture(null);
    private volatile boolean closed;
    private final Credentials peerCredentials;
    private final TakeoverGate gate;
    /** What this node's takeover pulls proved about its fellows' copies (see {@link #carryBackOrSnapshot}). */
    private final FellowCopies fellowCopies;
    /** TLS towards replicas' data ports; {@code null} for plaintext. */
    private final TlsOptions tls;
    /**
     * The node's clock: shipment, snapshot and audit deadlines and the audit cadence are read from it, and the
     * links are opened with it, so each deadline is enforced on the clock it was computed on.
     */
    private final TimeSource time;

    /**
     * @param peerCredentials what replication links log in with on replicas; {@code null} without authentication
     * @param tls             TLS towards replicas' data ports; {@code null} for plaintext
     * @param gate            partitions still catching up after a takeover, which this node does not sync from yet
     * @param fellowCopies    what this node's takeover pulls proved about its fellows' copies
     * @param time            the node's clock (see the field)
     */
    public Replicator(String nodeId, PartitionLayout layout, ReplicationSettings settings, EpochFence fence,
                      Credentials peerCredentials, TlsOptions tls, TakeoverGate gate, FellowCopies fellowCopies,
                      TimeSource time) {
        this.time = time;
        this.fellowCopies = fellowCopies;
        this.peerCredentials = peerCredentials;
        this.tls = tls;
        this.gate = gate;
        this.nodeId = nodeId;
        this.layout = layout;
        this.shipmentsAwaitingVerdicts = new AtomicIntegerArray(layout.partitionCount());
        this.syncWaiters = new SyncWaiters(layout.segmentCount());
        this.settings = settings;
        this.fence = fence;
        this.worker = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "zaris-replication-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
        // A settled SYNC waiter cancels its deadline task (see awaitLive): gone from the queue, not held until then.
        this.worker.setRemoveOnCancelPolicy(true);
    }

    /** Completes construction (the store needs this sink, this needs the store) and starts reconciling. */
    public void start(NodeStore nodeStore, Supplier<Set<String>> presentNodes,
                      Supplier<CompletableFuture<Void>> majorityConfirmation) {
        this.store = nodeStore;
        this.present = presentNodes;
        this.majorityConfirmation = majorityConfirmation;
        long interval = RECONCILE_INTERVAL.toMillis();
        worker.scheduleWithFixedDelay(this::reconcileQuietly, interval, interval, TimeUnit.MILLISECONDS);
    }

    /** Reconciles links right away (a takeover catch-up finished: the partition's replicas can be synced). */
    public void reconcileSoon() {
        if (!closed) {
            worker.execute(this::reconcileQuietly);
        }
    }

    /** Called when the node adopts a view; reconciles links right away. */
    public void onView(ClusterView adopted) {
        this.view = adopted;
        if (!closed) {
            worker.execute(this::reconcileQuietly);
        }
    }

    public AckMode ackMode() {
        return settings.ackMode();
    }

    /**
     * Whether a write to the partition can be acknowledged as {@code mode} requires: always for ASYNC; for
     * SYNC when at least {@code minSyncReplicas} replicas are connected. Checked before the write is
     * applied, so a refused write changes nothing.
     */
    public boolean canAcknowledge(int partition, AckMode mode) {
        return mode == AckMode.ASYNC || connectedReplicas(partition) >= requiredReplicas(partition);
    }

    /**
     * Replicas a SYNC write needs: {@code minSyncReplicas}, but never more than the partition has assigned
     * (a replication factor of 1 has no replica to wait for).
     */
    int requiredReplicas(int partition) {
        ClusterView current = view;
        int assignedReplicas = current == null ? 0 : current.partitionMap().ownersOf(partition).size() - 1;
        return Math.min(settings.minSyncReplicas(), assignedReplicas);
    }

    /**
     * Whether every partition this node serves has an open, fully synced link to each of its replicas that
     * membership currently sees: a fresh cluster accepts SYNC writes from then on.
     */
    public boolean isReady() {
        ClusterView current = view;
        if (current == null) {
            return false;
        }
        Set<String> members = servingMembers(current);
        for (int p = 0; p < current.layout().partitionCount(); p++) {
            PartitionRuntime runtime = current.runtimeMap().get(p);
            if (!servesAsActive(p, runtime)) {
                continue;
            }
            for (String owner : current.partitionMap().ownersOf(p)) {
                if (owner.equals(nodeId) || !members.contains(owner)) {
                    continue;
                }
                ReplicaLink link = links.get(owner);
                Long synced = link == null ? null : link.syncedEpoch(p);
                if (link == null || !link.isOpen() || synced == null || synced != runtime.epoch()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The members a replica must be among to be waited for and kept in sync: those membership sees, less those the
     * leader suspended (they serve nothing and missed changes; they get a full sync when they are resumed).
     */
    private Set<String> servingMembers(ClusterView current) {
        Set<String> members = present.get();
        if (current == null || current.suspended().isEmpty()) {
            return members;
        }
        Set<String> serving = new HashSet<>(members);
        serving.removeAll(current.suspended());
        return serving;
    }

    /**
     * Whether every replica of the partition this node has a link to speaks a protocol version with {@code op}: a
     * hash write's field changes reach a replica of the version before (mid-upgrade) in no frame it can read.
     */
    public boolean replicasKnow(int partition, OpCode op) {
        ClusterView current = view;
        if (current == null) {
            return true;
        }
        List<String> owners = current.partitionMap().ownersOf(partition);
        for (int i = 0; i < owners.size(); i++) { // indexed: no iterator per write
            String owner = owners.get(i);
            ReplicaLink link = owner.equals(nodeId) ? null : links.get(owner);
            if (link != null && !link.knows(op)) {
                return false;
            }
        }
        return true;
    }

    /** Replicas of the partition this node has an open link to. */
    public int connectedReplicas(int partition) {
        ClusterView current = view;
        if (current == null) {
            return 0;
        }
        int connected = 0;
        Set<String> members = servingMembers(current);
        List<String> owners = current.partitionMap().ownersOf(partition);
        for (int i = 0; i < owners.size(); i++) { // indexed: no iterator per write
            String owner = owners.get(i);
            ReplicaLink link = owner.equals(nodeId) ? null : links.get(owner);
            if (link != null && link.isOpen() && members.contains(owner)) {
                connected++;
            }
        }
        return connected;
    }

    /**
     * Flushes the changes waiting for a deferred flush on the links to {@code partition}'s replicas: a SYNC
     * write's caller waits for them, so its change (and everything queued before it on those links) leaves
     * now. Links to other nodes keep batching their ASYNC changes until their own flush.
     */
    public void flushShipped(int partition) {
        ClusterView current = view;
        if (current == null) {
            return;
        }
        List<String> owners = current.partitionMap().ownersOf(partition);
        for (int i = 0; i < owners.size(); i++) { // indexed: no iterator per write
            String owner = owners.get(i);
            ReplicaLink link = owner.equals(nodeId) ? null : links.get(owner);
            if (link != null) {
                link.flushDeferred();
            }
        }
    }

    /**
     * Ships live changes. They may wait up to the settings' {@code asyncFlushDelay} for a flush shared with later
     * changes; whoever waits for the returned future (a SYNC write) calls {@link #flushShipped(int)}.
     *
     * <p>A serving replica that is not live for the segment yet (its link is opening, or open before the segment's
     * snapshot) and not known silent is waited for, up to the ack timeout: the returned future then counts its
     * verdict on the first snapshot of the segment read after these changes (see {@link SyncWaiters}), or counts it
     * as not shipped to at the deadline, as it did before. The segment's lock is not held while it waits: the caller
     * waits on the future. Only a SYNC write waits so: an ASYNC write's change reaches such a replica in that snapshot,
     * and nobody waits for its verdict. A healthy partition (every replica's link open and synced) allocates nothing
     * for this.
     */
    @Override
    public CompletableFuture<Void> ship(int segment, List<Change> changes) {
        return ship(segment, changes, settings.ackMode());
    }

    /** {@link #ship(int, List)} for a write whose caller waits as {@code ack} says, whatever this node's mode. */
    @Override
    public CompletableFuture<Void> ship(int segment, List<Change> changes, AckMode ack) {
        ClusterView current = view;
        if (current == null || changes.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        if (closed) {
            // This node is stopping: its links are closed from this side, which says nothing about the replicas.
            return CompletableFuture.failedFuture(new ReplicationException("node " + nodeId + " is stopping"));
        }
        int partition = layout.partitionOf(segment);
        long epoch = changes.get(0).epoch();
        long deadline = time.nanoTime() + settings.ackTimeout().toNanos();
        long flushDelayNanos = settings.asyncFlushDelay().toNanos();
        List<String> owners = current.partitionMap().ownersOf(partition);
        // The live replicas shipped to: the first in a local, a list only from the second on (at replication
        // factor 2, the usual one, a shipment makes no list).
        ReplicaLink firstTarget = null;
        List<ReplicaLink> moreTargets = null;
        Set<String> members = servingMembers(current);
        int silent = 0;
        List<String> awaited = null; // replicas not live for the segment yet that this shipment waits for
        for (int o = 0; o < owners.size(); o++) { // indexed: no iterator per ship
            String owner = owners.get(o);
            ReplicaLink link = owner.equals(nodeId) ? null : links.get(owner);
            if (link == null || !link.isOpen() || !link.isSynced(segment)) {
                if (!owner.equals(nodeId) && members.contains(owner)) {
                    if (silentReplicas.contains(owner) || link != null && link.connection.closedForSilence()) {
                        silent++;
                    } else if (ack == AckMode.SYNC && comesLive(owner, link)) {
                        if (awaited == null) {
                            awaited = new ArrayList<>(owners.size());
                        }
                        awaited.add(owner);
                    }
                }
                continue;
            }
            if (!members.contains(owner)) {
                // an absent replica misses this change: it must be re-synced when it is back, not trusted
                link.lostTrack(partition, segment);
                continue;
            }
            if (firstTarget == null) {
                firstTarget = link;
            } else {
                if (moreTargets == null) {
                    moreTargets = new ArrayList<>(owners.size() - 2);
                }
                moreTargets.add(link);
            }
        }
        // Completes when the required replicas applied the changes: what a SYNC write waits for. An ASYNC
        // write (the node's mode or its own) does not wait; the ships below go out all the same.
        int required = requiredReplicas(partition);
        int assigned = owners.contains(nodeId) ? owners.size() - 1 : owners.size();
        int verdicts = (firstTarget == null ? 0 : 1) + (moreTargets == null ? 0 : moreTargets.size())
                + (awaited == null ? 0 : awaited.size());
        if (ack == AckMode.ASYNC && firstTarget != null && moreTargets == null && silent == 0 && awaited == null
                && verdicts >= required) {
            // Nobody waits for an ASYNC write's verdict and one replica gives it: it is followed up and counted (for a
            // hand-over's fence and the reduced-redundancy count) by its listener alone, without a ReplicaAcks.
            shipmentsAwaitingVerdicts.incrementAndGet(partition);
            firstTarget.replicateBatched(partition, epoch, segment, changes, deadline, flushDelayNanos,
                    new ShipmentVerdict(firstTarget, partition, segment, epoch, null, required, assigned));
            return UNAWAITED;
        }
        AtomicIntegerArray counted = null;
        if (verdicts > 0) {
            counted = shipmentsAwaitingVerdicts;
            counted.incrementAndGet(partition);
        }
        ReplicaAcks acks = new ReplicaAcks(partition, verdicts, silent, required, assigned, countReducedRedundancy,
                majorityCheck, counted);
        if (firstTarget != null) {
            firstTarget.replicateBatched(partition, epoch, segment, changes, deadline, flushDelayNanos,
                    new ShipmentVerdict(firstTarget, partition, segment, epoch, acks, required, assigned));
        }
        for (int i = 0; moreTargets != null && i < moreTargets.size(); i++) {
            ReplicaLink link = moreTargets.get(i);
            link.replicateBatched(partition, epoch, segment, changes, deadline, flushDelayNanos,
                    new ShipmentVerdict(link, partition, segment, epoch, acks, required, assigned));
        }
        if (awaited != null) {
            for (int i = 0; i < awaited.size(); i++) {
                awaitLive(awaited.get(i), segment, deadline).thenAccept(acks::onVerdict);
            }
        }
        if (verdicts < required) {
            return CompletableFuture.failedFuture(new ReplicationException(
                    "only " + verdicts + " of " + required + " required replicas are connected for partition " + partition));
        }
        return acks.result();
    }

    /**
     * Under the segment's lock: whether a serving, not silent replica without a live link for the segment is about to
     * get one, so a shipment waits for it. Its link is open (the segment's snapshot is due), or opening, or missing
     * while no attempt to reach it has failed since it last answered (then {@link #awaitLive} asks for a reconcile,
     * which opens one or releases the waiters).
     */
    private boolean comesLive(String owner, ReplicaLink link) {
        return link != null && link.isOpen() || opening.contains(owner) || !unreachable.contains(owner);
    }

    /**
     * Under the segment's lock: the verdict {@code peer} gives this shipment once it is live for the segment (see
     * {@link SyncWaiters}), or "not shipped" at {@code deadline}. A waiter settled before its deadline cancels the
     * deadline's task, which leaves the replication thread's queue at once (its executor removes cancelled tasks).
     */
    private CompletableFuture<ReplicaLink.Verdict> awaitLive(String peer, int segment, long deadline) {
        CompletableFuture<ReplicaLink.Verdict> waiter = syncWaiters.join(peer, segment);
        ReplicaLink link = links.get(peer);
        if ((link == null || !link.isOpen()) && !opening.contains(peer)) {
            askReconcile(); // after the waiter joined, so the pass either opens a link or releases it
        }
        shipmentsThatWaitedForReplicas.increment();
        waitDeadlinesQueued.incrementAndGet();
        try {
            ScheduledFuture<?> expiry = worker.schedule(() -> {
                waitDeadlinesQueued.decrementAndGet();
                waiter.complete(ReplicaLink.Verdict.gone());
            }, Math.max(0, deadline - time.nanoTime()), TimeUnit.NANOSECONDS);
            waiter.whenComplete((verdict, error) -> {
                if (expiry.cancel(false)) { // false when the expiry ran (and counted itself out) or runs now
                    waitDeadlinesQueued.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException stopping) {
            waitDeadlinesQueued.decrementAndGet();
            waiter.complete(ReplicaLink.Verdict.gone()); // this node is stopping: nothing will sync the replica
        }
        return waiter;
    }

    /**
     * Replica verdicts shipments waited for because the replica was not live for their segment yet (see
     * {@link SyncWaiters}): SYNC writes only, and on a healthy partition none.
     */
    public long shipmentsThatWaitedForReplicas() {
        return shipmentsThatWaitedForReplicas.sum();
    }

    /** Deadline tasks of such waits still queued on the replication thread: none once every wait is settled. */
    public int waitDeadlinesQueued() {
        return waitDeadlinesQueued.get();
    }

    /** Queues a reconcile unless one asked for this way is still queued. Any thread; never blocks. */
    private void askReconcile() {
        if (reconcileAsked.compareAndSet(false, true)) {
            try {
                worker.execute(() -> {
                    reconcileAsked.set(false); // before the pass: a shipment after this point gets a pass of its own
                    reconcileQuietly();
                });
            } catch (RejectedExecutionException stopping) {
                reconcileAsked.set(false);
            }
        }
    }

    /**
     * What a shipment that waited for the replica counts from its answer to the segment's snapshot: applied or fenced
     * as answered; otherwise not shipped to, as before the wait, unless the link closed because the replica fell
     * silent (then it counts as a connected replica that did not apply it; see {@link ReplicaAcks}).
     */
    private static ReplicaLink.Verdict waitedVerdict(ReplicaLink link, ReplicaLink.Verdict snapshotVerdict) {
        if (snapshotVerdict.applied() || snapshotVerdict.fenced()) {
            return snapshotVerdict;
        }
        return link.connection.closedForSilence() ? ReplicaLink.Verdict.failed() : ReplicaLink.Verdict.gone();
    }

    /**
     * Old active side of a planned hand-over ({@link HandOverFence}): each segment of {@code partition} refuses this
     * node's writes of epoch {@code epoch} and older from now on; completes with {@code true} once every shipment
     * made before has its replicas' verdicts, with {@code false} when that takes longer than
     * {@link HandOverFence#SETTLE_WAIT} or this node is stopping. The fence is lifted after {@link HandOverFence#HOLD}
     * unless the new active's pull made it final. Any thread; the waiting runs on the replication thread.
     */
    public CompletableFuture<Boolean> fenceForHandOver(int partition, long epoch) {
        NodeStore nodeStore = store;
        if (closed || nodeStore == null) {
            return CompletableFuture.completedFuture(false);
        }
        long bar = Math.addExact(epoch, 1);
        for (int segment = layout.firstSegmentOf(partition); segment <= layout.lastSegmentOf(partition); segment++) {
            nodeStore.fenceForHandOver(segment, bar);
        }
        // Every write applied before the fence was shipped (and counted) under its segment's lock, which the fence
        // took after it: from here the count only falls.
        try {
            worker.schedule(() -> {
                for (int segment = layout.firstSegmentOf(partition); segment <= layout.lastSegmentOf(partition); segment++) {
                    nodeStore.liftHandOverFence(segment, bar);
                }
            }, HandOverFence.HOLD.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            return CompletableFuture.completedFuture(false); // this node is stopping; it ships nothing more
        }
        CompletableFuture<Boolean> settled = new CompletableFuture<>();
        awaitVerdicts(partition, time.nanoTime() + HandOverFence.SETTLE_WAIT.toNanos(), settled);
        return settled;
    }

    private void awaitVerdicts(int partition, long deadline, CompletableFuture<Boolean> settled) {
        switch (HandOverFence.next(shipmentsAwaitingVerdicts.get(partition), time.nanoTime(), deadline)) {
            case SETTLED -> settled.complete(true);
            case GAVE_UP -> {
                log.info("node {}: partition {} still had {} shipment(s) waiting for replica verdicts {} after its"
                        + " hand-over fence went up; the hand-over goes ahead without waiting for them", nodeId, partition,
                        shipmentsAwaitingVerdicts.get(partition), HandOverFence.SETTLE_WAIT);
                settled.complete(false);
            }
            case WAIT -> {
                try {
                    worker.schedule(() -> awaitVerdicts(partition, deadline, settled), HandOverFence.POLL.toMillis(),
                            TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.RejectedExecutionException stopping) {
                    settled.complete(false);
                }
            }
        }
    }

    /**
     * One replica's verdict on one shipment: followed up ({@link #react}) and counted into the shipment's
     * {@link ReplicaAcks}, or, for an ASYNC shipment to one replica (no {@code acks}), counted here as that would count
     * it. One object per shipment and replica, called by the replica's link; no future per write.
     */
    private final class ShipmentVerdict implements ReplicaLink.VerdictListener {
        private final ReplicaLink link;
        private final int partition;
        private final int segment;
        private final long epoch;
        private final ReplicaAcks acks;
        private final int required;
        private final int assigned;

        ShipmentVerdict(ReplicaLink link, int partition, int segment, long epoch, ReplicaAcks acks, int required,
                        int assigned) {
            this.link = link;
            this.partition = partition;
            this.segment = segment;
            this.epoch = epoch;
            this.acks = acks;
            this.required = required;
            this.assigned = assigned;
        }

        @Override
        public void onVerdict(ReplicaLink.Verdict verdict) {
            try {
                react(link, partition, segment, epoch, verdict);
            } catch (RuntimeException e) {
                log.warn("node {}: following up replica {}'s verdict on segment {} failed", nodeId, link.peer, segment, e);
            } finally {
                if (acks != null) {
                    acks.onVerdict(verdict); // always counted, so a waiting SYNC write cannot be stranded
                } else {
                    shipmentsAwaitingVerdicts.decrementAndGet(partition);
                    if (ReplicaAcks.loneVerdictSucceedsReduced(verdict, required, assigned)) {
                        reducedRedundancyShipments.increment();
                    }
                }
            }
        }
    }

    /** Follows up a replica's verdict: catch it up, or learn we were fenced. */
    private void react(ReplicaLink link, int partition, int segment, long epoch, ReplicaLink.Verdict verdict) {
        link.confirm(segment, verdict.applied());
        if (verdict.status() == KvStatus.OUT_OF_SYNC) {
            catchUp(link, partition, segment, epoch, verdict.value());
        } else if (verdict.status() == KvStatus.FENCED) {
            long newer = fence.observe(partition, verdict.value());
            log.warn("node {}: replica {} fenced partition {} (epoch {} superseded by {}); this node stops writing it",
                    nodeId, link.peer, partition, epoch, newer);
        }
    }

    /**
     * Shipments of changes that succeeded with fewer copies applied than their partition has assigned replicas
     * (a replica was gone, not synced within the ack timeout, or no replica was left). On a SYNC node these are the
     * writes acknowledged with reduced redundancy: they survive the loss of this node only once a replica holds them.
     */
    public long reducedRedundancyShipments() {
        return reducedRedundancyShipments.sum();
    }

    /**
     * Snapshots count towards {@link #snapshotBytesSent}: what syncing new and lagging replicas cost. Called inside a
     * {@link NodeStore#catchUp} consumer, under the segment's lock, so the position read here is the snapshot's.
     */
    private CompletableFuture<ReplicaLink.Verdict> sendSnapshot(ReplicaLink link, int partition, SegmentSnapshot snapshot,
                                                                int segment, long deadlineNanos) {
        link.snapshotTaken(segment, store.segmentPosition(segment).foreignChanges());
        long bytes = 0;
        for (Change entry : snapshot.entries()) {
            bytes += entry.sizeBytes();
        }
        snapshotBytesSent.addAndGet(bytes);
        return link.sendSnapshot(partition, snapshot, segment, deadlineNanos);
    }

    /**
     * Bytes of segment snapshots this node sent to replicas since it started: a rebalance moves data to
     * new owners this way (as do restarted and lagging replicas).
     */
    public long snapshotBytesSent() {
        return snapshotBytesSent.get();
    }

    private void catchUp(ReplicaLink link, int partition, int segment, long epoch, long fromRevision) {
        NodeStore nodeStore = store;
        long deadline = time.nanoTime() + settings.ackTimeout().toNanos();
        nodeStore.catchUp(segment, fromRevision, epoch,
                tail -> {
                    if (!tail.isEmpty()) {
                        link.replicate(partition, epoch, segment, tail, deadline)
                                .thenAccept(verdict -> link.confirm(segment, verdict.applied()));
                    }
                },
                snapshot -> sendSnapshot(link, partition, snapshot, segment, deadline)
                        .thenAccept(verdict -> link.confirm(segment, verdict.applied())));
    }

    /** Replication thread: opens missing links, re-syncs replicas whose epoch changed, closes unneeded links. */
    private void reconcileQuietly() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            log.warn("node {}: replication reconcile failed", nodeId, e);
        }
    }

    private void reconcile() {
        ClusterView current = view;
        NodeStore nodeStore = store;
        if (current == null || nodeStore == null || closed) {
            return;
        }
        Set<String> members = servingMembers(current);
        Set<String> needed = new HashSet<>();
        for (int p = 0; p < current.layout().partitionCount(); p++) {
            PartitionRuntime runtime = current.runtimeMap().get(p);
            if (!servesAsActive(p, runtime)) {
                continue;
            }
            for (String owner : current.partitionMap().ownersOf(p)) {
                if (owner.equals(nodeId) || !members.contains(owner)) {
                    continue; // an absent replica's link is closed below; it gets a fresh one and a full sync
                }
                needed.add(owner);
                ReplicaLink link = links.get(owner);
                if (link != null && link.isOpen()) {
                    Long synced = link.syncedEpoch(p);
                    if (synced != null && synced < runtime.epoch() && link.advancesEpochs()) {
                        carryOver(link, p, synced, runtime.epoch());
                    } else if (synced == null || synced != runtime.epoch()) {
                        fullSync(link, p, runtime.epoch());
                    } else {
                        resyncUnconfirmed(link, p, runtime.epoch());
                        if (runtime.health() == PartitionHealth.DEGRADED && link.advancesEpochs()
                                && confirmsEverySegment(link, p)
                                && audits.due(owner, p, runtime.epoch(), time.nanoTime())) {
                            audit(link, p, runtime.epoch());
                        }
                    }
                }
            }
        }
        audits.endPass();
        for (String peer : needed) {
            ReplicaLink link = links.get(peer);
            NodeAddress address = current.addresses().get(peer);
            if ((link == null || !link.isOpen()) && address != null && opening.add(peer)) {
                open(peer, address);
            } else if ((link == null || !link.isOpen()) && address == null) {
                unreachable.add(peer); // no address to open a link to: shipments do not wait for it
            }
        }
        silentReplicas.retainAll(members);
        unreachable.retainAll(members);
        for (Map.Entry<String, ReplicaLink> entry : links.entrySet()) {
            if (!needed.contains(entry.getKey()) || !entry.getValue().isOpen()) {
                if (entry.getValue().connection.closedForSilence() && members.contains(entry.getKey())) {
                    silentReplicas.add(entry.getKey());
                }
                links.remove(entry.getKey(), entry.getValue());
                if (current.suspended().contains(entry.getKey())) {
                    entry.getValue().closeSuspended();
                } else {
                    entry.getValue().close();
                }
            }
        }
        releaseWaitersWithoutLink();
    }

    /**
     * Replication thread, at the end of a reconcile: shipments waiting for a replica that has no open link and none
     * opening (it is not needed, its address is unknown, or it just fell silent) stop waiting.
     */
    private void releaseWaitersWithoutLink() {
        for (String peer : syncWaiters.peers()) {
            ReplicaLink link = links.get(peer);
            if ((link == null || !link.isOpen()) && !opening.contains(peer)) {
                syncWaiters.release(peer, silentReplicas.contains(peer) ? ReplicaLink.Verdict.failed()
                        : ReplicaLink.Verdict.gone());
            }
        }
    }

    /**
     * This node is the partition's active owner, no newer epoch is known and it is not still catching up
     * after taking the partition over: only then does it sync its segments to the replicas (a fenced or
     * restarted owner must not overwrite them, nor a new one before it has what they hold).
     */
    private boolean servesAsActive(int partition, PartitionRuntime runtime) {
        return runtime.isServedBy(nodeId) && !fence.isStale(partition, runtime.epoch()) && !gate.isCatchingUp(partition);
    }

    private void open(String peer, NodeAddress address) {
        NodeConnection.open(address, PeerConnectionName.of("replication", nodeId), peerCredentials, tls, Duration.ofSeconds(2), Duration.ofSeconds(2), 1_000_000,
                        ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, event -> { },
                        lost -> syncWaiters.release(peer, lost.closedForSilence() ? ReplicaLink.Verdict.failed()
                                : ReplicaLink.Verdict.gone()), time)
                .whenComplete((connection, error) -> {
                    if (error != null || closed || !peer.equals(connection.nodeId())) {
                        // Marked before the attempt ends, so a shipment sees it opening or unreachable, never neither.
                        unreachable.add(peer);
                        opening.remove(peer);
                        syncWaiters.release(peer, ReplicaLink.Verdict.gone());
                        if (error != null) {
                            log.debug("node {}: cannot reach replica {} at {}: {}", nodeId, peer, address, error.toString());
                        } else {
                            connection.close();
                        }
                        return;
                    }
                    silentReplicas.remove(peer); // it answered a handshake: reachable again
                    unreachable.remove(peer);
                    ReplicaLink previous = links.put(peer, new ReplicaLink(peer, connection, layout.segmentCount(),
                            settings.effectiveReplicaBacklog(Runtime.getRuntime().maxMemory())));
                    opening.remove(peer); // after the link is in place: a shipment sees it opening or open
                    if (previous != null) {
                        previous.close();
                    }
                    log.info("node {}: replication link to {} open (protocol version {})", nodeId, peer, connection.protocolVersion());
                    worker.execute(this::reconcileQuietly);
                });
    }

    /**
     * Replicas of the partition (other than this node) that confirmed holding every change of every segment
     * shipped so far: the leader hands a partition back to a replica only when the active counts it here.
     */
    public int confirmedReplicas(int partition) {
        ClusterView current = view;
        if (current == null) {
            return 0;
        }
        Set<String> members = servingMembers(current);
        int confirmed = 0;
        List<String> owners = current.partitionMap().ownersOf(partition);
        for (int i = 0; i < owners.size(); i++) { // indexed: no iterator per write
            String owner = owners.get(i);
            ReplicaLink link = owner.equals(nodeId) ? null : links.get(owner);
            if (link == null || !link.isOpen() || !members.contains(owner)) {
                continue;
            }
            boolean all = true;
            for (int s = layout.firstSegmentOf(partition); s <= layout.lastSegmentOf(partition) && all; s++) {
                all = link.isConfirmed(s);
            }
            if (all) {
                confirmed++;
            }
        }
        return confirmed;
    }

    /**
     * A segment whose last shipment the replica did not confirm (a timeout, a gap) stays unconfirmed until
     * the next change reaches it — forever on an idle segment, which would block the partition's heal. Such
     * segments get a fresh snapshot, one at a time per segment.
     */
    private void resyncUnconfirmed(ReplicaLink link, int partition, long epoch) {
        NodeStore nodeStore = store;
        long deadline = time.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (int segment = layout.firstSegmentOf(partition); segment <= layout.lastSegmentOf(partition); segment++) {
            int s = segment;
            if (!link.isSynced(s) || link.isConfirmed(s) || !link.startResync(s)) {
                continue;
            }
            nodeStore.catchUp(s, -1, epoch, tail -> { }, snapshot -> sendSnapshot(link, partition, snapshot, s, deadline)
                    .whenComplete((verdict, error) -> {
                        link.confirm(s, error == null && verdict.applied());
                        link.endResync(s);
                    }));
        }
    }

    /**
     * This node synced the replica under {@code fromEpoch} and stays the partition's active under {@code toEpoch}
     * (a degrade or heal bumped the epoch, say after another replica was lost). A snapshot would clear and refill a
     * copy that is already complete, leaving the replica without a usable copy for as long as it takes, just when
     * the partition is one copy short. So each segment whose copy here has only grown by this node's own writes
     * since its last snapshot on this link is carried over: {@code ADVANCE_EPOCH} at the current revision, sent
     * under the segment's lock behind everything shipped before, which the replica accepts only if its copy is
     * still that one. Any other segment, or one the replica refuses, gets a snapshot as before; one whose answer
     * is lost stays unconfirmed and {@link #resyncUnconfirmed} snapshots it. A segment this node's copy of which
     * changed otherwise may still be one a takeover pull proved the replica holds a prefix of
     * ({@link #carryBackOrSnapshot}).
     */
    private void carryOver(ReplicaLink link, int partition, long fromEpoch, long toEpoch) {
        NodeStore nodeStore = store;
        long deadline = time.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (int segment = layout.firstSegmentOf(partition); segment <= layout.lastSegmentOf(partition); segment++) {
            int s = segment;
            nodeStore.atPosition(s, position -> {
                if (!link.isSynced(s) || !link.sameCopySinceSnapshot(s, position.foreignChanges())) {
                    carryBackOrSnapshot(link, partition, s, toEpoch, deadline);
                    return;
                }
                link.advanceEpoch(partition, s, fromEpoch, toEpoch, position.revision(), deadline).thenAccept(verdict -> {
                    link.confirm(s, verdict.applied());
                    if (verdict.applied()) {
                        segmentsCarriedOver.increment();
                    } else if (verdict.status() == KvStatus.OUT_OF_SYNC) {
                        snapshotSegment(link, partition, s, toEpoch, deadline);
                    } else if (verdict.status() == KvStatus.FENCED) {
                        fence.observe(partition, verdict.value()); // a newer epoch exists: this node stops writing
                    }
                });
            });
        }
        link.recordSyncedEpoch(partition, toEpoch);
        log.debug("node {}: partition {} carried over to {} from epoch {} to {}", nodeId, partition, link.peer,
                fromEpoch, toEpoch);
    }

    private boolean confirmsEverySegment(ReplicaLink link, int partition) {
        for (int s = layout.firstSegmentOf(partition); s <= layout.lastSegmentOf(partition); s++) {
            if (!link.isConfirmed(s)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Asks the replica, segment by segment and behind everything shipped before, whether it still counts its copy as
     * complete under {@code epoch} at this node's revision (see {@link ReplicaAudits}). A segment it does not gets a
     * snapshot, and the disagreement is logged: it should not happen, and the log is how one would find out why.
     */
    private void audit(ReplicaLink link, int partition, long epoch) {
        NodeStore nodeStore = store;
        long deadline = time.nanoTime() + settings.ackTimeout().toNanos();
        for (int segment = layout.firstSegmentOf(partition); segment <= layout.lastSegmentOf(partition); segment++) {
            int s = segment;
            nodeStore.atPosition(s, position -> link.advanceEpoch(partition, s, epoch, epoch, position.revision(), deadline)
                    .thenAccept(verdict -> {
                        if (verdict.status() == KvStatus.OUT_OF_SYNC && link.isConfirmed(s)) {
                            segmentsAuditedOutOfSync.increment();
                            log.warn("node {}: replica {} confirmed segment {} of partition {} under epoch {} but no "
                                    + "longer counts it complete (it is at revision {}, this node at {}); sending a "
                                    + "snapshot", nodeId, link.peer, s, partition, epoch, verdict.value(), position.revision());
                            snapshotSegment(link, partition, s, epoch, deadline);
                        } else if (verdict.status() == KvStatus.FENCED) {
                            fence.observe(partition, verdict.value()); // a newer epoch exists: this node stops writing
                        }
                    }));
        }
    }

    /**
     * Segments an audit found a replica no longer counted complete although it had confirmed them (see
     * {@link ReplicaAudits}); each got a snapshot. Should stay 0.
     */
    public long segmentsAuditedOutOfSync() {
        return segmentsAuditedOutOfSync.sum();
    }

    /** Replaces the replica's copy of one segment with a snapshot; the segment goes live right after it. */
    private void snapshotSegment(ReplicaLink link, int partition, int segment, long epoch, long deadline) {
        link.markSynced(segment, false);
        store.catchUp(segment, -1, epoch, tail -> { }, snapshot -> goLive(link, partition, snapshot, segment, deadline));
    }

    /**
     * In a snapshot's consumer, under the segment's lock: sends the snapshot, the segment goes live on the link right
     * after it, and the shipments waiting for this replica to go live on the segment take the snapshot's verdict (the
     * snapshot holds their changes: they were applied and registered under this lock before).
     */
    private void goLive(ReplicaLink link, int partition, SegmentSnapshot snapshot, int segment, long deadline) {
        CompletableFuture<ReplicaLink.Verdict> verdict = sendSnapshot(link, partition, snapshot, segment, deadline);
        verdict.thenAccept(answer -> link.confirm(segment, answer.applied()));
        link.markSynced(segment, true);
        if (syncWaiters.waits(link.peer, segment)) {
            syncWaiters.settle(link.peer, segment, verdict.thenApply(answer -> waitedVerdict(link, answer)));
        }
    }

    /**
     * Segment copies replicas kept under a new epoch without a snapshot, because this node stayed their active (see
     * {@link #carryOver}) or its takeover pull proved them prefixes of its own (see {@link #carryBackOrSnapshot}).
     */
    public long segmentsCarriedOver() {
        return segmentsCarriedOver.sum();
    }

    /**
     * Syncs every segment of the partition to the link: each one this node's takeover proved the replica holds a prefix
     * of is carried over ({@link #carryBackOrSnapshot}), every other one gets a snapshot; each segment goes live right
     * after.
     */
    private void fullSync(ReplicaLink link, int partition, long epoch) {
        long deadline = time.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (int segment = layout.firstSegmentOf(partition); segment <= layout.lastSegmentOf(partition); segment++) {
            link.markSynced(segment, false);
            carryBackOrSnapshot(link, partition, segment, epoch, deadline);
        }
        link.recordSyncedEpoch(partition, epoch);
        log.debug("node {}: partition {} synced to {} under epoch {}", nodeId, partition, link.peer, epoch);
    }

    /**
     * Brings the replica's copy of one segment under {@code epoch} without a snapshot when this node's takeover pull
     * proved that copy a prefix of this one and this copy has changed only by this node's own writes since
     * ({@link FellowCopies}): a partition handed back to its primary after a failover finds the previous active's
     * copy, complete under the epoch it served, equal to its own as of the pull. Under the segment's lock the segment
     * leaves the link's live segments and {@code ADVANCE_EPOCH} asks the replica to count that copy (lineage epoch,
     * fellow revision) complete under {@code epoch}; only once it answered OK does the log's tail since that revision
     * follow, read under the lock, and the segment goes live right after it. Nothing else of the segment is sent in
     * between: changes following a refused advance would apply without a gap, and a replica counts contiguous
     * changes as a complete copy. Refused, unanswered, or a log no longer reaching back: a snapshot as before.
     * Shipments made meanwhile wait for the replica as for a snapshot ({@link SyncWaiters}), and take the tail's
     * verdict. Without a proof, a snapshot at once.
     */
    private void carryBackOrSnapshot(ReplicaLink link, int partition, int segment, long epoch, long deadline) {
        NodeStore nodeStore = store;
        FellowCopies.Basis basis = fellowCopies.take(link.peer, segment);
        nodeStore.atPosition(segment, position -> {
            if (!link.advancesEpochs() || !FellowCopies.carriesOver(basis, position)) {
                snapshotSegment(link, partition, segment, epoch, deadline);
                return;
            }
            link.markSynced(segment, false);
            link.advanceEpoch(partition, segment, basis.lineageEpoch(), epoch, basis.fellowRevision(), deadline)
                    .thenAccept(verdict -> {
                        if (verdict.applied()) {
                            segmentsCarriedOver.increment();
                            log.debug("node {}: replica {} carried segment {} of partition {} over from epoch {} at "
                                    + "revision {} to epoch {}", nodeId, link.peer, segment, partition, basis.lineageEpoch(),
                                    basis.fellowRevision(), epoch);
                            goLiveFrom(link, partition, segment, epoch, basis.fellowRevision(), deadline);
                        } else if (verdict.fenced()) {
                            fence.observe(partition, verdict.value()); // a newer epoch exists: this node stops writing
                        } else {
                            log.debug("node {}: replica {} did not carry segment {} of partition {} over from epoch {} at "
                                    + "revision {} ({} {}); sending a snapshot", nodeId, link.peer, segment, partition,
                                    basis.lineageEpoch(), basis.fellowRevision(), verdict.status(), verdict.value());
                            snapshotSegment(link, partition, segment, epoch, deadline);
                        }
                    });
        });
    }

    /**
     * The replica's copy of the segment is this node's up to {@code fromRevision}, complete under {@code epoch}: under
     * the segment's lock, the log's tail since then goes out (a snapshot if the log no longer reaches back), the
     * segment goes live on the link right after it, and the shipments waiting for the replica on it take the tail's
     * verdict (it holds their changes, which were applied and registered under this lock before).
     */
    private void goLiveFrom(ReplicaLink link, int partition, int segment, long epoch, long fromRevision, long deadline) {
        store.catchUp(segment, fromRevision, epoch, tail -> {
            // The replica's copy follows this one from here: a later epoch carries it over (see carryOver).
            link.snapshotTaken(segment, store.segmentPosition(segment).foreignChanges());
            CompletableFuture<ReplicaLink.Verdict> verdict = tail.isEmpty()
                    ? CompletableFuture.completedFuture(new ReplicaLink.Verdict(KvStatus.OK, fromRevision))
                    : link.replicate(partition, epoch, segment, tail, deadline);
            verdict.thenAccept(answer -> link.confirm(segment, answer.applied()));
            link.markSynced(segment, true);
            if (syncWaiters.waits(link.peer, segment)) {
                syncWaiters.settle(link.peer, segment, verdict.thenApply(answer -> waitedVerdict(link, answer)));
            }
        }, snapshot -> goLive(link, partition, snapshot, segment, deadline));
    }

    /** Whether {@link #close()} ran: the node is stopping, and ships nothing more. */
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
        links.values().forEach(ReplicaLink::close);
        links.clear();
    }
}
