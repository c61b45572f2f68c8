package io.zaris.cluster;

import io.zaris.model.ClusterView;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster view a node holds, and how a view that arrives (published by this node as leader, broadcast by a
 * peer, fetched from one) replaces it.
 *
 * <ul>
 *   <li>The data addresses members announced override the view's: a peer re-broadcasting an equally new view may
 *       carry the address a restarted node had before, and heal probes and clients must not go there. For the same
 *       reason the leader this node sees in its own membership view overrides the stamped one.</li>
 *   <li>A view older than the held one is ignored; one newer for some partitions and older for others is merged and
 *       re-broadcast ({@link ViewOrdering#adoption}).</li>
 *   <li>Installing tells the listener first and only then makes the view current: the node's data path routes by
 *       {@link #current()}, and the listener first closes the takeover gates of the partitions the view hands this
 *       node — the other way round, a request arriving in between was served from a copy that had not pulled its
 *       fellows' last changes yet (a chaos run read a stale value so).</li>
 *   <li>It tracks the roles of an earlier process of this node (see {@link InheritedRoles}) that this process must
 *       neither serve nor replicate.</li>
 * </ul>
 *
 * <p>Concurrency: {@link #publish}, {@link #adopt} and {@link #disownRequest} run on the cluster member's events thread,
 * which owns every field. {@link #current()}, {@link #inheritedActives()} and {@link #firstView()} are read from any
 * thread: the view and the inherited roles are immutable values published through volatile fields.
 *
 * @param <A> how membership addresses a node
 */
final class HeldView<A> {

    /** The member's logger: what a node adopts is part of its membership's story, under one name. */
    private static final Logger log = LoggerFactory.getLogger(ClusterMember.class);

    /** What installing a view asks of the member, on the events thread. */
    interface Hooks {

        /** Sends one encoded cluster message to every member. */
        void broadcast(byte[] message);

        /** The inherited roles were recomputed (before the listener runs): the member repeats its disown request. */
        void inheritedTracked();

        /** A view became current: the majority, the leadership and the merge preference depend on it. */
        void standingChanged();

        /** {@code adopted} was installed over {@code held} ({@code null}: the first view), after the logs. */
        void installed(ClusterView held, ClusterView adopted);
    }

    private final String nodeId;
    private final String incarnation;
    private final MembershipRoster<A> roster;
    private final int clusterSize;
    private final Hooks hooks;
    private final CompletableFuture<ClusterView> firstView = new CompletableFuture<>();
    private volatile BiConsumer<ClusterView, ClusterView> listener = (previous, adopted) -> { };
    /** Told once an installed view is {@link #current()} (after {@link #listener}). */
    private volatile BiConsumer<ClusterView, ClusterView> currentListener = (previous, installed) -> { };

    /** The last installed view; {@code null} before the first. */
    private volatile ClusterView current;
    /**
     * Partitions the first view this process adopted named it active for, by epoch, although it is not the
     * incarnation the map was founded with: roles of the process before a restart, whose data this one does not
     * have. It must not serve them, and it asks the leader to move them, until their epoch changes.
     */
    private final Map<Integer, Long> inherited = new TreeMap<>();
    /** An immutable copy of {@link #inherited}, for the node's data path. */
    private volatile Map<Integer, Long> inheritedSnapshot = Map.of();

    /**
     * @param incarnation this process start's id (see {@link ClusterView#founders()})
     * @param roster      the member's membership view (read on the events thread)
     */
    HeldView(String nodeId, String incarnation, MembershipRoster<A> roster, int clusterSize, Hooks hooks) {
        this.nodeId = nodeId;
        this.incarnation = incarnation;
        this.roster = roster;
        this.clusterSize = clusterSize;
        this.hooks = hooks;
    }

    /**
     * Registers the one listener told, on the events thread, once an installed view is {@link #current()} (the data
     * path routes by it): (previous or null, installed); before any view.
     */
    void onCurrent(BiConsumer<ClusterView, ClusterView> newListener) {
        this.currentListener = newListener;
    }

    /** Registers the one listener told about installed views: (previous or null, adopted); before any view. */
    void onInstalled(BiConsumer<ClusterView, ClusterView> newListener) {
        this.listener = newListener;
    }

    /** Any thread: the held view, or {@code null} before the first. */
    ClusterView current() {
        return current;
    }

    /** Any thread: completes with the first installed view. */
    CompletableFuture<ClusterView> firstView() {
        return firstView;
    }

    /** Any thread: partitions (with the epoch) this node holds from before it restarted (see {@link #inherited}). */
    Map<Integer, Long> inheritedActives() {
        return inheritedSnapshot;
    }

    /** Events thread: the request to move every inherited role away, or {@code null} when there is none. */
    byte[] disownRequest() {
        return inherited.isEmpty() ? null
                : ClusterMessages.encodeDisown(new ClusterMessages.Disown(nodeId, Map.copyOf(inherited)));
    }

    /** Events thread, leading: stamps the view with this leader and the announced addresses, broadcasts and adopts it. */
    void publish(ClusterView decided) {
        ClusterView stamped = decided.withLeader(nodeId);
        stamped = stamped.withAddresses(roster.mergedAddresses(stamped));
        // Sent before this node installs it: installing runs the view listener (takeover gates, catch-ups, client
        // pushes), which took 0.2 s on a loaded machine, and the other members' installs need not wait for it.
        // Members adopt a view at different moments anyway; epochs fence every copy meanwhile.
        hooks.broadcast(ClusterMessages.encodeView(stamped));
        adopt(stamped);
    }

    /** Events thread: adopts {@code published} unless it is older than the held view (see the class comment). */
    void adopt(ClusterView published) {
        ClusterView held = current;
        String coordinator = roster.majorityCoordinatorId(held, clusterSize);
        ClusterView candidate = published.withAddresses(roster.mergedAddresses(published))
                .withLeader(coordinator != null ? coordinator : published.leader());
        ViewOrdering.Adoption adoption = ViewOrdering.adoption(held, candidate);
        if (adoption == null) {
            log.debug("node {}: ignoring stale cluster view version {}", nodeId, candidate.partitionMap().version());
            return;
        }
        if (adoption.merged()) {
            log.info("node {}: merging a concurrent view of map version {}", nodeId, candidate.partitionMap().version());
        }
        install(held, adoption.view());
        if (adoption.merged()) {
            hooks.broadcast(ClusterMessages.encodeView(current));
        }
    }

    private void install(ClusterView held, ClusterView candidate) {
        trackInherited(held, candidate);
        hooks.inheritedTracked();
        try {
            listener.accept(held, candidate);
        } catch (RuntimeException e) {
            log.error("node {}: view listener failed", nodeId, e);
        } finally {
            current = candidate;
        }
        try {
            currentListener.accept(held, candidate);
        } catch (RuntimeException e) {
            log.error("node {}: view-installed listener failed", nodeId, e);
        }
        hooks.standingChanged();
        if (held != null && !held.runtimeMap().equals(candidate.runtimeMap())) {
            log.info("node {}: adopted map version {} with {} changed partition(s)", nodeId,
                    candidate.partitionMap().version(),
                    ViewOrdering.changedPartitions(held.runtimeMap(), candidate.runtimeMap()));
        }
        if (held == null) {
            log.info("node {}: adopted partition map version {} ({} partitions, {} segments)", nodeId,
                    candidate.partitionMap().version(), candidate.layout().partitionCount(),
                    candidate.layout().segmentCount());
        }
        firstView.complete(candidate);
        hooks.installed(held, candidate);
    }

    /**
     * Finds the active roles of an earlier process of this node in a view that starts a lineage for this process,
     * and forgets those whose epoch changed.
     */
    private void trackInherited(ClusterView held, ClusterView candidate) {
        Map<Integer, Long> next = InheritedRoles.afterAdopting(inherited, held, candidate, nodeId, incarnation);
        if (InheritedRoles.startsLineage(held, candidate) && !next.isEmpty()) {
            log.warn("node {}: restarted; the cluster{} still names it active for partitions {}; it does not serve them "
                    + "(it has none of their data) and asks the leader to fail them over", nodeId,
                    held == null ? "" : " (a map founded by other processes than the one it held)", next.keySet());
        }
        inherited.clear();
        inherited.putAll(next);
        inheritedSnapshot = Map.copyOf(inherited);
    }
}
