package io.zaris.server;

import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.PeerConnectionName;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.replication.FellowCopies;
import io.zaris.replication.ReplicaSegments;
import io.zaris.replication.TakeoverGate;
import io.zaris.security.Credentials;
import io.zaris.security.TlsOptions;
import io.zaris.store.ApplyResult;
import io.zaris.store.NodeStore;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The possession step of a promotion: before a node serves a partition it has just taken over, it pulls
 * from every other live owner, segment by segment, the changes that owner holds beyond its own copy.
 *
 * <p><b>Why.</b> A SYNC write may be acknowledged once one of several replicas applied it (another was slow
 * or gone; see {@code AckMode.SYNC}), and each replica's link delivers changes in its own order; when the active dies, one replica may hold the newest
 * acknowledged change of one segment and another that of the next. No single replica is then a superset,
 * whichever the leader promotes. Two copies that are complete under the same epoch are prefixes of that
 * epoch's one history per segment, so the promoted node takes each segment's longer tail and then holds
 * every change any of them acknowledged.
 *
 * <p><b>Order.</b> The {@link TakeoverGate} is closed before the node's replicator sees the new view, so
 * it neither serves the partition, nor overwrites its fellow replicas with a snapshot, nor evicts from it
 * until every pull finished or the deadline passed; then the gate opens and the future {@link #start}
 * returned completes.
 *
 * <p><b>Bounds.</b> One connection per peer and attempt, one pull in flight per segment and peer, each
 * answer at most {@link #PULL_MAX_BYTES}, each attempt within {@link #ATTEMPT_TIMEOUT}. A peer that does not
 * answer is tried again every {@link #RETRY_DELAY} while membership still lists it, at most until
 * {@link #GIVE_UP_AFTER}; then it is given up with a warning, so the partition is never held hostage.
 *
 * <p><b>What it proves.</b> A pull that ends with this node holding all of a fellow's copy proves that copy a prefix
 * of this one; once every pull ended, and before the gate opens, each such proof goes to {@link FellowCopies}, so the
 * replicator carries the fellow's copy over to the new epoch instead of sending it a snapshot.
 *
 * <p>Threads: {@link #start} on the cluster events thread; pulls continue on connection threads; applying
 * a pulled tail takes the segment's write lock like any replicated change.
 */
final class TakeoverCatchUp {

    private static final Logger log = LoggerFactory.getLogger(TakeoverCatchUp.class);
    /** Bound of one attempt to reach a peer and pull from it. */
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);
    /**
     * A peer still in the membership view that does not answer (loaded, or paused but not yet excluded) is
     * tried again until this long after the takeover, then given up: half the default escalation timeout, so
     * one silent fellow never holds a failed-over partition back for as long as membership takes to exclude
     * it, yet a loaded fellow gets more than two attempts (a chaos run once lost a write when a loaded fellow
     * missed a single one). Only a second fault at once (a fellow hung as well) can leave an acknowledged write
     * on that fellow alone, which the SYNC guarantee (survives the loss of any one node) does not cover.
     */
    static final Duration GIVE_UP_AFTER = Duration.ofSeconds(5);
    static final Duration RETRY_DELAY = Duration.ofMillis(250);
    static final int PULL_MAX_BYTES = 1 << 20;

    private final String nodeId;
    private final NodeStore store;
    private final ReplicaSegments replicaSegments;
    private final TakeoverGate gate;
    /** What finished pulls proved about fellows' copies; recorded here, used by the replicator. */
    private final FellowCopies fellowCopies;
    private final Credentials credentials;
    private final TlsOptions tls;
    /** The node's own limits: a pulled tail can hold its largest key and value, which a peer accepted under them. */
    private final ProtocolLimits limits;
    private final Supplier<Set<String>> present;
    /** The node's current view: a view that moved on while a catch-up runs changes the epoch it pulls under. */
    private final Supplier<ClusterView> currentView;
    /** The node's clock: the give-up time, attempt deadlines and the retry decision read it; pulls run on it too. */
    private final TimeSource time;

    /** What follows an attempt at a fellow that failed. */
    enum AfterFailure {
        /** A newer view gave the partition to another node: nothing to catch up for any more. */
        OBSOLETE,
        /** The fellow is still a member and a retry fits before the give-up time: ask again after {@link #RETRY_DELAY}. */
        RETRY,
        /** The fellow left the membership view, or the give-up time is (nearly) reached: go on without it. */
        GIVE_UP
    }

    /**
     * @param credentials what pulls log in with on peers; {@code null} without authentication
     * @param tls         TLS towards peers' data ports; {@code null} for plaintext
     */
    TakeoverCatchUp(String nodeId, NodeStore store, ReplicaSegments replicaSegments, TakeoverGate gate,
                    FellowCopies fellowCopies, Credentials credentials, TlsOptions tls, ProtocolLimits limits,
                    Supplier<Set<String>> present, Supplier<ClusterView> currentView, TimeSource time) {
        this.time = time;
        this.limits = limits;
        this.currentView = currentView;
        this.tls = tls;
        this.present = present;
        this.nodeId = nodeId;
        this.store = store;
        this.replicaSegments = replicaSegments;
        this.gate = gate;
        this.fellowCopies = fellowCopies;
        this.credentials = credentials;
    }

    /**
     * Closes the gate of {@code partition} under its epoch in {@code adopted} and catches it up from the
     * partition's other present owners; the future completes (never exceptionally) once the gate is open.
     */
    CompletableFuture<Void> start(int partition, ClusterView previous, ClusterView adopted) {
        long epoch = adopted.runtimeMap().get(partition).epoch();
        String previousActive = previous.runtimeMap().get(partition).activeNode();
        Set<String> members = present.get();
        boolean plannedHandOver = previousActive != null && !previousActive.equals(nodeId) && members.contains(previousActive);
        gate.close(partition, epoch, plannedHandOver);
        PartitionLayout layout = adopted.layout();
        int first = layout.firstSegmentOf(partition);
        int last = layout.lastSegmentOf(partition);
        fellowCopies.forget(first, last);
        // The lineage of each segment is fixed now: what this node was a complete copy under as a replica.
        long[] lineage = new long[last - first + 1];
        for (int s = first; s <= last; s++) {
            lineage[s - first] = replicaSegments.syncedEpoch(s);
        }
        Takeover takeover = new Takeover(partition, epoch, previousActive, giveUpAt(time.nanoTime()),
                new ConcurrentLinkedQueue<>());
        List<CompletableFuture<Void>> peers = new ArrayList<>();
        List<String> asked = new ArrayList<>();
        // The previous active too, owner or not (a migration moves the partition off it): it holds every change
        // of the epoch it served, and the pull makes it refuse further writes of that epoch.
        Set<String> fellows = new java.util.LinkedHashSet<>(adopted.partitionMap().ownersOf(partition));
        if (previousActive != null) {
            fellows.add(previousActive);
        }
        for (String peer : fellows) {
            NodeAddress address = adopted.addresses().get(peer);
            // a suspended fellow has had no lease for over a lease: it wrote nothing since, and waiting for a member
            // that does not answer (a flapping or cut-off link) would keep the partition from serving for seconds
            if (!peer.equals(nodeId) && adopted.serves(peer, members) && address != null) {
                asked.add(peer);
                peers.add(pullFrom(peer, address, takeover, first, lineage));
            }
        }
        long started = time.nanoTime();
        return CompletableFuture.allOf(peers.toArray(CompletableFuture[]::new)).handle((ignored, error) -> {
            recordFellowCopies(takeover);
            gate.open(partition, epoch);
            // Nobody to ask is the common case after a crash with two copies; it is worth no line of its own.
            if (asked.isEmpty()) {
                log.debug("node {}: took over partition {} under epoch {}; no fellow to ask for newer changes", nodeId,
                        partition, epoch);
            } else {
                log.info("node {}: took over partition {} under epoch {}; asked {} for newer changes, done in {} ms", nodeId,
                        partition, epoch, asked, Duration.ofNanos(time.nanoTime() - started).toMillis());
            }
            return null;
        });
    }

    /**
     * Every pull has ended and the gate is still closed, so this node has not written to the partition: each fellow
     * copy a pull proved a prefix of this one is recorded against this copy's count of foreign changes now (a pull's
     * late answer applied after this counts as one, and voids the proof).
     */
    private void recordFellowCopies(Takeover takeover) {
        for (ProvenPrefix proven : takeover.proven()) {
            long foreignChanges = store.segmentPosition(proven.segment()).foreignChanges();
            fellowCopies.record(proven.fellow(), proven.segment(),
                    new FellowCopies.Basis(proven.lineage(), proven.fellowRevision(), foreignChanges));
        }
    }

    /** One attempt at {@code peer}; a failed one is repeated while the peer is a member and time is left. */
    private CompletableFuture<Void> pullFrom(String peer, NodeAddress address, Takeover takeover, int first, long[] lineage) {
        long deadline = attemptDeadline(time.nanoTime(), takeover.giveUpNanos());
        return NodeConnection.open(address, PeerConnectionName.of("takeover", nodeId), credentials, tls, ATTEMPT_TIMEOUT, ATTEMPT_TIMEOUT,
                        10_000, limits.maxFrameBytes(), event -> { }, lost -> { }, time)
                .thenCompose(connection -> {
                    List<CompletableFuture<Void>> segments = new ArrayList<>();
                    for (int i = 0; i < lineage.length; i++) {
                        if (lineage[i] >= 0) {
                            segments.add(pullSegment(connection, peer, takeover, first + i, lineage[i], deadline));
                        }
                    }
                    return CompletableFuture.allOf(segments.toArray(CompletableFuture[]::new))
                            .whenComplete((ignored, error) -> connection.close());
                })
                .handle((ignored, error) -> error)
                .thenCompose(error -> {
                    if (error == null) {
                        return CompletableFuture.<Void>completedFuture(null);
                    }
                    ClusterView now = currentView.get();
                    boolean member = present.get().contains(peer) && (now == null || !now.suspended().contains(peer));
                    AfterFailure next = afterFailure(isObsolete(takeover), member, time.nanoTime(), takeover.giveUpNanos());
                    if (next == AfterFailure.OBSOLETE) {
                        log.info("node {}: stops catching partition {} up from {}: a newer view gave the partition to another "
                                + "node", nodeId, takeover.partition(), peer);
                        return CompletableFuture.<Void>completedFuture(null);
                    }
                    if (next == AfterFailure.RETRY) {
                        log.info("node {}: {} did not answer the catch-up of partition {} ({}); asking again", nodeId, peer,
                                takeover.partition(), error.toString());
                        Executor later = CompletableFuture.delayedExecutor(RETRY_DELAY.toMillis(), TimeUnit.MILLISECONDS);
                        return CompletableFuture.supplyAsync(() -> null, later)
                                .thenCompose(ignored -> pullFrom(peer, address, takeover, first, lineage));
                    }
                    log.warn("node {}: gives up catching partition {} up from {} ({}): {}", nodeId, takeover.partition(),
                            peer, member ? "no answer within " + GIVE_UP_AFTER : "it left the membership view", error.toString());
                    return CompletableFuture.<Void>completedFuture(null);
                });
    }

    /** When a takeover started at {@code nowNanos} gives up on the fellows that have not answered. */
    static long giveUpAt(long nowNanos) {
        return nowNanos + GIVE_UP_AFTER.toNanos();
    }

    /** The deadline of an attempt started at {@code nowNanos}: {@link #ATTEMPT_TIMEOUT}, never past the give-up time. */
    static long attemptDeadline(long nowNanos, long giveUpNanos) {
        return Math.min(nowNanos + ATTEMPT_TIMEOUT.toNanos(), giveUpNanos);
    }

    /**
     * After an attempt at a fellow failed at {@code nowNanos}: stop when the takeover is obsolete, retry while the
     * fellow is a member and the retry starts before the give-up time, else give it up.
     */
    static AfterFailure afterFailure(boolean obsolete, boolean member, long nowNanos, long giveUpNanos) {
        if (obsolete) {
            return AfterFailure.OBSOLETE;
        }
        return member && nowNanos + RETRY_DELAY.toNanos() - giveUpNanos < 0 ? AfterFailure.RETRY : AfterFailure.GIVE_UP;
    }

    /** Pulls until the peer has nothing newer, refuses, or the tail does not apply; then completes. */
    private CompletableFuture<Void> pullSegment(NodeConnection connection, String peer, Takeover takeover, int segment,
                                               long lineage, long deadline) {
        long from = store.segmentRevision(segment);
        int partition = takeover.partition();
        long epoch = epochOf(takeover);
        return connection.send(id -> new Request.Pull(id, partition, epoch, segment, from, lineage, PULL_MAX_BYTES),
                (status, body) -> {
                    if (status == KvStatus.OK) {
                        long revision = ResponseCodec.readTailRevision(body);
                        return new Answer(revision, ResponseCodec.readChangeTail(body, limits));
                    }
                    if (status == KvStatus.OUT_OF_SYNC) {
                        return new Answer(ResponseCodec.readTailRevision(body), null);
                    }
                    throw new IllegalStateException(status + ": " + ResponseCodec.readMessage(body));
                }, 0, 0, deadline).thenCompose(answer -> {
                    if (answer.changes() == null) {
                        if (answer.revision() > from && peer.equals(takeover.previousActive())) {
                            // A hand-over from a live active (a heal): what it holds beyond this copy reached no
                            // replica, or reached the other one and came back through its pull.
                            log.info("node {}: former active {} of partition {} holds segment {} up to revision {}, this "
                                    + "copy up to {}; changes that reached no replica are dropped (ASYNC ones are named lost to clients)", nodeId, peer,
                                    partition, segment, answer.revision(), from);
                        } else if (answer.revision() > from) {
                            log.warn("node {}: {} holds segment {} of partition {} up to revision {} but cannot send what "
                                    + "follows revision {} (another history, or its log no longer reaches back; this copy was "
                                    + "complete under epoch {}); writes only it applied are not recovered", nodeId, peer, segment,
                                    partition, answer.revision(), from, lineage);
                        }
                        return CompletableFuture.completedFuture(null);
                    }
                    if (answer.changes().isEmpty()) {
                        proveIfPrefix(takeover, peer, segment, lineage, answer.revision(), from);
                        return CompletableFuture.completedFuture(null);
                    }
                    ApplyResult applied = store.applyReplicated(segment, answer.changes());
                    if (applied.gap()) {
                        log.warn("node {}: the changes {} sent for segment {} do not follow revision {}; stopping there",
                                nodeId, peer, segment, applied.appliedRevision());
                        return CompletableFuture.completedFuture(null);
                    }
                    log.info("node {}: recovered segment {} of partition {} from {} up to revision {} (was {})", nodeId,
                            segment, partition, peer, applied.appliedRevision(), from);
                    if (applied.appliedRevision() < answer.revision() && applied.appliedRevision() > from) {
                        return pullSegment(connection, peer, takeover, segment, lineage, deadline);
                    }
                    proveIfPrefix(takeover, peer, segment, lineage, answer.revision(), applied.appliedRevision());
                    return CompletableFuture.completedFuture(null);
                });
    }

    /** A tail answer left the fellow at {@code fellowRevision} and this copy at {@code ownRevision}: see {@link FellowCopies}. */
    private static void proveIfPrefix(Takeover takeover, String peer, int segment, long lineage, long fellowRevision,
                                      long ownRevision) {
        if (FellowCopies.pullProvesPrefix(fellowRevision, ownRevision)) {
            takeover.proven().add(new ProvenPrefix(peer, segment, lineage, fellowRevision));
        }
    }

    /**
     * The newest epoch under which this node is the partition's active owner. A view that moved on while the
     * catch-up runs with this node still active (a degrade, a planned move of a replica) bumps the epoch, and
     * peers that saw it fence pulls of the older one: a chaos run retried those for 15 s and then served
     * without the previous active's last changes.
     */
    private long epochOf(Takeover takeover) {
        ClusterView view = currentView.get();
        if (view != null && takeover.partition() < view.runtimeMap().partitionCount()) {
            io.zaris.model.PartitionRuntime runtime = view.runtimeMap().get(takeover.partition());
            if (nodeId.equals(runtime.activeNode()) && runtime.epoch() > takeover.epoch()) {
                return runtime.epoch();
            }
        }
        return takeover.epoch();
    }

    /** Whether a newer view made another node (or none) the partition's active owner. */
    private boolean isObsolete(Takeover takeover) {
        ClusterView view = currentView.get();
        if (view == null || takeover.partition() >= view.runtimeMap().partitionCount()) {
            return false;
        }
        io.zaris.model.PartitionRuntime runtime = view.runtimeMap().get(takeover.partition());
        return runtime.epoch() > takeover.epoch() && !nodeId.equals(runtime.activeNode());
    }

    private record Answer(long revision, List<Change> changes) {
    }

    /**
     * One takeover: the partition, its new epoch, who served it before (may be null), when to give up, and the fellow
     * copies its pulls proved prefixes of this one (added from connection threads; a retried attempt may prove a segment
     * again, and the later proof is the one recorded).
     */
    private record Takeover(int partition, long epoch, String previousActive, long giveUpNanos,
                            ConcurrentLinkedQueue<ProvenPrefix> proven) {
    }

    /** A fellow's copy of a segment is this copy's prefix up to {@code fellowRevision}, both complete under {@code lineage}. */
    private record ProvenPrefix(String fellow, int segment, long lineage, long fellowRevision) {
    }
}
