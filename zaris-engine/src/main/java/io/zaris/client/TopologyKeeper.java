package io.zaris.client;

import static io.zaris.client.ClientFailures.failure;
import static io.zaris.client.ClientFailures.rootMessage;

import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.MapFingerprint;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.protocol.SegmentInvalidations;
import io.zaris.protocol.TakeoverRevisions;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.PushListener;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the client's {@link RoutingTable} true to the cluster: bootstraps it from the seeds, installs fetched maps
 * (opening the connections they need and closing those nobody routes to), applies pushed ownership changes and
 * the hints of wrong-node answers, polls one node per interval for its map fingerprint as a backstop, and wakes the
 * retries waiting for their partition to be routed to a newer owner ({@link RoutingWatch}). Refreshes asked for by
 * retries and lost connections are coalesced by {@link MapRefresher}; the merge rules are {@link ClientViews}'.
 *
 * <p>Threads and state:
 * <ul>
 *   <li>{@code table} is immutable and published through a volatile field, so any thread reads a whole table
 *       without a lock. Every change is computed and published under {@code tableLock}, held only for the
 *       copy-on-write and never for I/O, so a push and a refresh that race cannot lose each other's updates.
 *       {@code segmentMapper} is written under the same lock (it changes only with the segment count).</li>
 *   <li>Fetched maps are installed, and connections opened for them and closed after them, only on the single
 *       "zaris-client-maps" thread (or by {@link #bootstrap} before the table is shared); {@code pollTurn} is that
 *       thread's alone. Pushes and hints run on the event loop of the connection that carried them; a connection
 *       a hint names is opened there and added under {@code tableLock}. {@code openings} (concurrent) tracks the
 *       connections installs are opening and the nodes that lately did not answer, so a hung node gets one
 *       reconnect at a time and no install waits for it.</li>
 *   <li>The counters are atomics, read by tests and the facade.</li>
 * </ul>
 */
final class TopologyKeeper implements AutoCloseable {

    /**
     * How long installing a fetched map waits for the connections it opens before it publishes the table; those
     * still opening join it when they open. Long enough for a live node's connect and handshake.
     */
    static final Duration INSTALL_CONNECT_WAIT = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(TopologyKeeper.class);
    /** Pause between rounds over the seeds while a cluster is still forming. */
    private static final Duration BOOTSTRAP_RETRY_DELAY = Duration.ofMillis(200);

    private final ZarisClientOptions options;
    private final TimeSource time;
    private final ConnectFailureLog connectFailures;
    private final ConnectionOpenings openings = new ConnectionOpenings();
    private final ClientMetrics metrics;
    /** The near cache, {@code null} when off: every connection of a client with one tracks its segments. */
    private final NearCache near;
    /** The key watches, set once right after construction; hear pushes, new tables and lost connections. */
    private volatile KeyWatches watches;
    private final PushListener pushListener;
    private final ScheduledExecutorService maps;
    private final MapRefresher refresher;
    private final Object tableLock = new Object();
    private final RoutingWatch routingWatch = new RoutingWatch();
    /** Written under {@code tableLock}; read lock-free. */
    private volatile RoutingTable table;
    private volatile SegmentMapper segmentMapper;
    private volatile boolean closed;
    private final AtomicLong mapFetches = new AtomicLong();
    private final AtomicLong mapPolls = new AtomicLong();
    /** Maps thread only: which node the next periodic poll asks. */
    private int pollTurn;

    /**
     * @param near       the near cache, {@code null} when off; hears the invalidations nodes push
     * @param takenOver  hears the takeovers nodes push
     */
    TopologyKeeper(ZarisClientOptions options, TimeSource time, NearCache near, Consumer<TakeoverRevisions> takenOver) {
        this.options = options;
        this.time = time;
        this.connectFailures = new ConnectFailureLog(log, time);
        this.metrics = options.metrics();
        this.near = near;
        this.pushListener = new PushListener() {
            @Override
            public void ownershipChanged(RuntimeOwnershipChangedEvent event) {
                onPush(event);
            }

            @Override
            public void takenOver(TakeoverRevisions takeover) {
                takenOver.accept(takeover);
            }

            @Override
            public void invalidated(SegmentInvalidations changes, NodeConnection source) {
                if (near != null) {
                    near.invalidated(changes, source);
                }
                KeyWatches keyWatches = watches;
                if (keyWatches != null) {
                    keyWatches.pushed(changes, source);
                }
            }
        };
        this.maps = Executors.newSingleThreadScheduledExecutor(daemon("zaris-client-maps"));
        this.refresher = new MapRefresher(this::fetchAndInstall, time, options.mapRefreshDebounce(),
                options.mapRefreshWait(), metrics);
    }

    // ------------------------------------------------------------------ what the client reads

    /** The table now; {@code null} before {@link #bootstrap} installed the first. Lock-free. */
    /** Once, by the client, before it connects. */
    void watches(KeyWatches keyWatches) {
        this.watches = keyWatches;
    }

    RoutingTable table() {
        return table;
    }

    /** The segment mapper of the table's layout; {@code null} before the first table. */
    SegmentMapper segmentMapper() {
        return segmentMapper;
    }

    /** Full map fetches since bootstrap, by poll or reaction. */
    long mapFetchCount() {
        return mapFetches.get();
    }

    /** Fingerprint questions the periodic poll has asked (one node each). */
    long mapPollCount() {
        return mapPolls.get();
    }

    // ------------------------------------------------------------------ what retries ask of it

    /**
     * A refresh, coalesced with any in flight; the caller waits at most {@code maxWaitNanos} (and the map refresh
     * wait). Completes normally whatever happens to the fetch.
     */
    CompletableFuture<Void> refresh(RefreshTrigger trigger, long maxWaitNanos) {
        return refresher.refresh(trigger, maxWaitNanos);
    }

    /** A refresh, coalesced with any in flight, waited for at most the map refresh wait. */
    CompletableFuture<Void> refresh(RefreshTrigger trigger) {
        return refresher.refresh(trigger);
    }

    /**
     * A wrong-node answer's hint from node {@code answeredBy}; whether the table now routes the partition to a
     * connected node (see {@link #applyOwnershipChange}).
     */
    boolean applyHint(RuntimeOwnershipChangedEvent hint, String answeredBy) {
        return applyOwnershipChange(hint, RefreshTrigger.HINT, answeredBy);
    }

    /** A waiter woken once the table routes {@code partition} other than {@code seen}. */
    RoutingWatch.Waiter changeOf(int partition, RoutingWatch.Routing seen) {
        return routingWatch.changeOf(partition, seen, () -> table);
    }

    /** The retry goes ahead without the change: its waiter is dropped. */
    void stopWaiting(RoutingWatch.Waiter waiter) {
        routingWatch.stopWaiting(waiter);
    }

    // ------------------------------------------------------------------ pushes and hints

    /**
     * Applies one partition's runtime entry (a push or a wrong-node answer's hint) copy-on-write when it is
     * newer than the table's. Returns whether the table now routes the partition to a connected node. Also
     * {@code true} when the entry is not newer but the table already routes the partition to a live owner
     * other than {@code answeredBy}: the table knows at least what the answering node knows (typically a
     * push overtook the answer of a request sent before it), so a map fetch could tell nothing more. When
     * the table's owner is the answering node itself, that node is catching up or behind; a fetch may help.
     * If the owner named has no connection yet, a refresh opens one.
     *
     * @param answeredBy the node whose answer carried the entry; {@code null} for a push
     */
    private boolean applyOwnershipChange(RuntimeOwnershipChangedEvent event, RefreshTrigger trigger, String answeredBy) {
        boolean needsConnection;
        synchronized (tableLock) {
            RoutingTable current = table;
            if (current == null) {
                return false;
            }
            ClusterView updated = ClientViews.apply(current.view(), event);
            String active = event.runtime().activeNode();
            StripedNodeConnections connection = active == null ? null : current.connections().get(active);
            if (updated == null) {
                String owner = current.liveOwnerOf(event.partition());
                if (owner != null && !owner.equals(answeredBy)) {
                    return true;
                }
                // The table may name that node without a connection to it (the refresh that should have opened
                // one was debounced away): every retry would go elsewhere.
                needsConnection = active != null && (connection == null || !connection.isOpen());
                if (needsConnection) {
                    refresher.refreshUndebounced(RefreshTrigger.REACT);
                }
                return false;
            }
            needsConnection = active != null && (connection == null || !connection.isOpen()
                    || !connection.address().equals(updated.addresses().get(active)));
            publish(current.withPartition(event.partition(), updated), trigger);
        }
        if (needsConnection) {
            // A node this client has no connection to (one that just joined, or restarted on a new address):
            // connect to it straight from the hint, and fetch the map as well (it may tell more).
            connectDirectly(event.runtime().activeNode(), event.activeAddress());
            refresher.refreshUndebounced(RefreshTrigger.REACT);
            return false;
        }
        return true;
    }

    /**
     * Opens a connection to {@code node} at {@code address}, named by a push or a wrong-node hint, and adds it to
     * the routing table if the table still names that node there and has no open connection to it (a map
     * fetch may have opened one meanwhile; then this one is closed). Retries waiting on the map wake up when
     * the table routes their partition to the new connection.
     */
    private void connectDirectly(String node, NodeAddress address) {
        if (node == null || address == null || closed) {
            return;
        }
        open(address).whenComplete((connection, error) -> {
            if (error != null) {
                log.debug("cannot connect to hinted node {} at {}: {}", node, address, rootMessage(error));
                return;
            }
            addIfStillRouted(node, address, connection);
        });
    }

    /**
     * Adds a connection opened after its table was published, if the table still names {@code node} at
     * {@code address} and has no open connection to it; closes it otherwise.
     */
    private void addIfStillRouted(String node, NodeAddress address, StripedNodeConnections connection) {
        boolean added = false;
        synchronized (tableLock) {
            RoutingTable current = table;
            StripedNodeConnections existing = current == null ? null : current.connections().get(node);
            if (current != null && !closed && node.equals(connection.nodeId())
                    && address.equals(current.view().addresses().get(node))
                    && (existing == null || !existing.isOpen())) {
                Map<String, StripedNodeConnections> connections = new HashMap<>(current.connections());
                connections.put(node, connection);
                publish(RoutingTable.build(current.view(), connections), RefreshTrigger.HINT);
                added = true;
            }
        }
        if (!added) {
            connection.close();
        }
    }

    /**
     * Under {@code tableLock}. Every publication counts as a refresh of its trigger; the table gauges hear
     * only of tables whose fingerprint differs from the previous one, so the age says how long the routing
     * has been the same, not how long since the last poll.
     */
    private void publish(RoutingTable newTable, RefreshTrigger trigger) {
        RoutingTable previous = table;
        table = newTable;
        routingWatch.published(newTable);
        KeyWatches keyWatches = watches;
        if (keyWatches != null) {
            keyWatches.routeChanged();
        }
        if (trigger != null) {
            metrics.refresh(trigger);
        }
        MapFingerprint fingerprint = MapFingerprint.of(newTable.view());
        if (previous == null || !fingerprint.equals(MapFingerprint.of(previous.view()))) {
            metrics.tablePublished(fingerprint.mapVersion(), fingerprint.epochSum());
        }
    }

    private void onPush(RuntimeOwnershipChangedEvent event) {
        if (options.ownershipPushEnabled() && !closed) {
            applyOwnershipChange(event, RefreshTrigger.PUSH, null);
        }
    }

    /** A node closed its connection (stopped, crashed, restarted): learn at once where things are now. */
    private void onConnectionLost(NodeConnection connection) {
        if (near != null) {
            near.forget(connection);
        }
        KeyWatches keyWatches = watches;
        if (keyWatches != null) {
            keyWatches.lost(connection);
        }
        if (connection.closedForSilence() && connection.nodeId() != null) {
            openings.unanswered(connection.nodeId());
        }
        if (!closed) {
            log.info("connection to {} lost; refreshing the cluster map", connection);
            refresher.refresh(RefreshTrigger.REACT);
        }
    }

    // ------------------------------------------------------------------ bootstrap, poll, fetch, install

    /**
     * Waits (up to the bootstrap timeout) until a seed hands out a cluster map, then installs it. The one blocking
     * call of the client, on the caller's thread, before the table is shared.
     *
     * @throws ZarisTransportException when no seed produced a map in time
     */
    void bootstrap() {
        long deadline = time.nanoTime() + options.bootstrapTimeout().toNanos();
        List<String> failures = new ArrayList<>();
        while (true) {
            for (NodeAddress seed : options.seeds()) {
                try {
                    StripedNodeConnections connection = open(seed).get();
                    try {
                        ClusterView view = fetchMap(connection.first()).get(options.connectTimeout().toMillis(),
                                TimeUnit.MILLISECONDS);
                        Map<String, StripedNodeConnections> connections = new HashMap<>();
                        connections.put(connection.nodeId(), connection);
                        install(view, connections, null);
                        log.info("connected to Zaris cluster: {} nodes, partition map version {}",
                                view.addresses().size(), view.partitionMap().version());
                        return;
                    } catch (ExecutionException | TimeoutException e) {
                        connection.close();
                        failures.add(seed + ": " + rootMessage(e));
                    }
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof ZarisStatusException refused && refused.status() == KvStatus.UNAUTHORIZED) {
                        // A refused login is a request error: retrying would only trip the node's login throttle.
                        throw refused;
                    }
                    failures.add(seed + ": " + rootMessage(e));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ZarisTransportException("interrupted while connecting");
                }
            }
            long left = deadline - time.nanoTime();
            if (left <= 0) {
                throw new ZarisTransportException("no seed of " + options.seeds() + " provided a cluster map within "
                        + options.bootstrapTimeout() + "; last errors: "
                        + failures.subList(Math.max(0, failures.size() - options.seeds().size()), failures.size()));
            }
            try {
                // Bootstrap is the one blocking call of the client: the caller asked to wait for a cluster.
                TimeUnit.NANOSECONDS.sleep(Math.min(left, BOOTSTRAP_RETRY_DELAY.toNanos()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ZarisTransportException("interrupted while connecting");
            }
        }
    }

    /** Starts the periodic backstop poll, every {@link ZarisClientOptions#mapRefreshInterval()}. */
    void startPolling() {
        long intervalMillis = options.mapRefreshInterval().toMillis();
        maps.scheduleWithFixedDelay(this::pollMapLoudly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * Opens {@link ZarisClientOptions#connectionsPerNode()} connections to the node; the in-flight bound per
     * node is split evenly over them (rounded up).
     */
    private CompletableFuture<StripedNodeConnections> open(NodeAddress address) {
        int count = options.connectionsPerNode();
        int maxInFlightPerConnection = (options.maxInFlightPerNode() + count - 1) / count;
        return StripedNodeConnections.open(count, () -> NodeConnection.open(address, options.clientName(),
                options.credentials(), options.tls(), options.connectTimeout(), options.connectTimeout(),
                maxInFlightPerConnection, options.maxFrameBytes(), pushListener, this::onConnectionLost, time)
                .thenCompose(this::trackedIfNearCache));
    }

    /**
     * With a near cache, asks the node to push the changes of every segment this connection reads
     * ({@code TRACK_SEGMENTS}) and completes once it agreed. The request goes before any read on the connection,
     * so the node tracks every read it answers there. A node that refuses fails the connection: a near cache
     * fed by an untracked connection could not learn of changes.
     */
    private CompletableFuture<NodeConnection> trackedIfNearCache(NodeConnection connection) {
        if (near == null) {
            return CompletableFuture.completedFuture(connection);
        }
        return connection.send(Request.TrackSegments::new, (status, body) -> {
            if (status != KvStatus.OK) {
                throw new ZarisStatusException(status, "node " + connection.nodeId() + " refused near-cache tracking: "
                        + ResponseCodec.readMessage(body));
            }
            return connection;
        }, 0, 0, time.nanoTime() + options.connectTimeout().toNanos()).whenComplete((ignored, error) -> {
            if (error != null) {
                connection.close();
            }
        });
    }

    private CompletableFuture<ClusterView> fetchMap(NodeConnection connection) {
        return connection.send(Request.ClusterMap::new, (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            return ClusterViewCodec.decode(body);
        }, 0, 0, time.nanoTime() + options.connectTimeout().toNanos());
    }

    private CompletableFuture<MapFingerprint> fetchFingerprint(NodeConnection connection) {
        return connection.send(Request.MapVersion::new, (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            return MapFingerprint.decode(body);
        }, 0, 0, time.nanoTime() + options.connectTimeout().toNanos());
    }

    /**
     * Maps thread (or bootstrap, before the table is shared): opens connections the view needs, merges the
     * view with whatever the table learned meanwhile, publishes, and closes connections nobody routes to. A node
     * still being connected to by an earlier install, or one that lately did not answer, does not hold the table
     * back: its connection joins when it opens.
     */
    private void install(ClusterView fetched, Map<String, StripedNodeConnections> known, RefreshTrigger trigger) {
        Map<String, StripedNodeConnections> connections = new HashMap<>();
        Map<String, CompletableFuture<StripedNodeConnections>> opening = new HashMap<>();
        Map<String, CompletableFuture<StripedNodeConnections>> late = new HashMap<>();
        connectFailures.retainOnly(fetched.addresses().keySet());
        openings.retainOnly(fetched.addresses().keySet());
        for (Map.Entry<String, NodeAddress> node : fetched.addresses().entrySet()) {
            StripedNodeConnections existing = known.get(node.getKey());
            if (existing != null && existing.isOpen() && existing.address().equals(node.getValue())) {
                connections.put(node.getKey(), existing);
            } else if (openings.inProgress(node.getValue())) {
                // An earlier install is still opening it (a hung node's HELLO waits out the connect timeout); that
                // install adds it when it opens. A second connection, or waiting for it again, would gain nothing.
                continue;
            } else {
                CompletableFuture<StripedNodeConnections> connecting = openings.track(node.getValue(), open(node.getValue()));
                (openings.worthWaitingFor(node.getKey()) ? opening : late).put(node.getKey(), connecting);
            }
        }
        // A node that does not answer (cut off, hung) must not hold the whole table back for a connect timeout:
        // connections not open within INSTALL_CONNECT_WAIT join the table when they open, if it still routes there.
        // One known to be silent is not waited for at all.
        long waitUntil = time.nanoTime() + INSTALL_CONNECT_WAIT.toNanos();
        for (Map.Entry<String, CompletableFuture<StripedNodeConnections>> pending : opening.entrySet()) {
            try {
                StripedNodeConnections connection;
                try {
                    connection = pending.getValue().get(Math.max(0, waitUntil - time.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    openings.unanswered(pending.getKey());
                    late.put(pending.getKey(), pending.getValue());
                    continue;
                } catch (ExecutionException e) {
                    throw new CompletionException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CompletionException(e);
                }
                if (!pending.getKey().equals(connection.nodeId())) {
                    log.warn("address of node {} answered as node {}; not routing to it", pending.getKey(),
                            connection.nodeId());
                    connection.close();
                    continue;
                }
                connections.put(pending.getKey(), connection);
                connectFailures.connected(pending.getKey());
                openings.answered(pending.getKey());
            } catch (CompletionException e) {
                connectFailures.failed(pending.getKey(), rootMessage(e));
                openings.unanswered(pending.getKey());
            }
        }
        List<StripedNodeConnections> unused = new ArrayList<>();
        synchronized (tableLock) {
            RoutingTable current = table;
            if (current != null && ClientViews.refounded(current.view(), fetched)) {
                log.warn("the cluster's partition map was computed anew (version {} after {}): its nodes restarted without "
                        + "a map, so the data it held before is gone; routing by the new map",
                        fetched.partitionMap().version(), current.view().partitionMap().version());
            }
            ClusterView merged = ClientViews.merge(current == null ? null : current.view(), fetched);
            if (segmentMapper == null || segmentMapper.segmentCount() != merged.layout().segmentCount()) {
                segmentMapper = new SegmentMapper(merged.layout().segmentCount());
            }
            publish(RoutingTable.build(merged, connections), trigger);
            for (Map.Entry<String, StripedNodeConnections> old : known.entrySet()) {
                if (connections.get(old.getKey()) != old.getValue()) {
                    unused.add(old.getValue());
                }
            }
            if (current != null) {
                for (Map.Entry<String, StripedNodeConnections> old : current.connections().entrySet()) {
                    if (connections.get(old.getKey()) != old.getValue() && !unused.contains(old.getValue())) {
                        unused.add(old.getValue());
                    }
                }
            }
        }
        unused.forEach(StripedNodeConnections::close);
        late.forEach((node, future) -> future.whenComplete((connection, error) -> {
            if (error != null) {
                connectFailures.failed(node, rootMessage(error));
                openings.unanswered(node);
            } else if (!node.equals(connection.nodeId())) {
                log.warn("address of node {} answered as node {}; not routing to it", node, connection.nodeId());
                connection.close();
            } else {
                connectFailures.connected(node);
                openings.answered(node);
                addIfStillRouted(node, fetched.addresses().get(node), connection);
            }
        }));
    }

    /** The refresher's fetch: runs on the maps thread, completes when the new table is published. */
    private CompletableFuture<Void> fetchAndInstall() {
        return CompletableFuture.runAsync(() -> refreshFrom(RefreshTrigger.REACT), maps);
    }

    /** A periodic task that throws is silently never run again: say so, at least, before it dies. */
    private void pollMapLoudly() {
        try {
            pollMap();
        } catch (RuntimeException | Error e) {
            log.error("periodic map poll failed", e);
            if (e instanceof Error error) {
                throw error;
            }
        }
    }

    /**
     * Maps thread: the backstop poll asks ONE node (round-robin over the open connections) for its map
     * fingerprint and fetches the full map only when it differs from the table's, when that node does not
     * answer, or when the table misses a connection.
     */
    private void pollMap() {
        if (closed) {
            return;
        }
        RoutingTable current = table;
        try {
            MapFingerprint remote = nextPolledFingerprint(current);
            if (remote == null) {
                log.warn("periodic map poll: no answer; fetching the map through the known nodes and seeds");
            }
            if (remote == null || !remote.equals(MapFingerprint.of(current.view())) || !allConnected(current)) {
                refreshFrom(RefreshTrigger.POLL);
            }
        } catch (RuntimeException e) {
            log.warn("periodic cluster map refresh failed: {}", e.getMessage());
        }
    }

    /** Maps thread: the fingerprint of the node whose turn it is, or {@code null} when it did not answer. */
    private MapFingerprint nextPolledFingerprint(RoutingTable current) {
        List<NodeConnection> open = new ArrayList<>();
        for (StripedNodeConnections node : new TreeMap<>(current.connections()).values()) {
            if (node.first().isOpen()) {
                open.add(node.first());
            }
        }
        if (open.isEmpty()) {
            return null;
        }
        NodeConnection asked = open.get(Math.floorMod(pollTurn++, open.size()));
        mapPolls.incrementAndGet();
        try {
            return fetchFingerprint(asked).join();
        } catch (CompletionException e) {
            log.debug("map poll of {} failed: {}", asked, rootMessage(e));
            return null;
        }
    }

    private static List<NodeConnection> openConnections(RoutingTable current) {
        List<NodeConnection> open = new ArrayList<>();
        for (StripedNodeConnections node : current.connections().values()) {
            if (node.first().isOpen()) {
                open.add(node.first());
            }
        }
        return open;
    }

    /**
     * Maps thread only: asks every open connection for the map at once and installs the first answer
     * (a node that stopped answering cannot hold the refresh up); falls back to the seeds.
     */
    private void refreshFrom(RefreshTrigger trigger) {
        mapFetches.incrementAndGet();
        RoutingTable current = table;
        ClusterView fetched = firstAnswer(openConnections(current), this::fetchMap);
        if (fetched != null) {
            install(fetched, new HashMap<>(current.connections()), trigger);
            return;
        }
        for (NodeAddress seed : options.seeds()) {
            try {
                StripedNodeConnections connection = open(seed).join();
                Map<String, StripedNodeConnections> known = new HashMap<>(current.connections());
                StripedNodeConnections replaced = known.put(connection.nodeId(), connection);
                install(fetchMap(connection.first()).join(), known, trigger);
                if (replaced != null && replaced != connection) {
                    replaced.close();
                }
                return;
            } catch (CompletionException e) {
                log.debug("map fetch via seed {} failed: {}", seed, rootMessage(e));
            }
        }
        throw new ZarisTransportException("no node or seed could provide a cluster map");
    }

    /**
     * Asks every connection at once and returns the first answer, or {@code null} when none answers: a node
     * that stopped answering cannot hold the question up.
     */
    private static <T> T firstAnswer(List<NodeConnection> connections,
                                     Function<NodeConnection, CompletableFuture<T>> question) {
        if (connections.isEmpty()) {
            return null;
        }
        CompletableFuture<T> first = new CompletableFuture<>();
        AtomicInteger failures = new AtomicInteger();
        for (NodeConnection connection : connections) {
            question.apply(connection).whenComplete((answer, error) -> {
                if (error == null) {
                    first.complete(answer);
                } else if (failures.incrementAndGet() == connections.size()) {
                    first.complete(null);
                }
            });
        }
        return first.join();
    }

    private static boolean allConnected(RoutingTable current) {
        for (String node : current.view().addresses().keySet()) {
            StripedNodeConnections connection = current.connections().get(node);
            if (connection == null || !connection.isOpen()) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ closing

    /** Stops the poll and the maps thread and closes every connection of the table; idempotent. */
    @Override
    public void close() {
        closed = true;
        maps.shutdownNow();
        RoutingTable current = table;
        if (current != null) {
            current.connections().values().forEach(StripedNodeConnections::close);
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
