package io.zaris.client;

import io.netty.buffer.ByteBuf;
import io.zaris.cluster.ClusterView;
import io.zaris.cluster.NodeAddress;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.KvStatus;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.VersionedValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Zaris client: bootstraps from seed addresses, fetches the cluster map, keeps exactly one connection
 * per node and sends every request straight to the active owner of the key's segment (one hop).
 *
 * <p>All operations are asynchronous and return {@link CompletableFuture}s that complete on a network
 * thread — do not block inside their continuations; {@link #sync()} offers blocking calls. A status that
 * is not an answer (e.g. {@code MOVED}) fails the future with {@link ZarisStatusException}; lost
 * connections fail it with {@link ZarisTransportException}, missing answers with {@link ZarisTimeoutException}.
 *
 * <p>Concurrency: the {@link RoutingTable} is immutable and published through a volatile field. It is
 * rebuilt only on the single "zaris-client-maps" thread (bootstrap, periodic poll, explicit
 * {@link #refreshMap()}), so two rebuilds never interleave and connections are opened and closed in one place.
 */
public final class ZarisClient implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ZarisClient.class);
    /** Pause between rounds over the seeds while a cluster is still forming. */
    private static final Duration BOOTSTRAP_RETRY_DELAY = Duration.ofMillis(200);
    /** Keys asked for per SCAN round trip. */
    private static final int SCAN_PAGE_KEYS = 1000;

    private final ZarisClientOptions options;
    private final ScheduledExecutorService maps;
    private final BlockingZarisClient blocking = new BlockingZarisClient(this);
    private volatile RoutingTable table;
    private volatile SegmentMapper segmentMapper;
    private volatile boolean closed;

    private ZarisClient(ZarisClientOptions options) {
        this.options = options;
        this.maps = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "zaris-client-maps");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Connects to the cluster: waits (up to the bootstrap timeout) until a seed hands out a cluster map,
     * then opens one connection to every node in it.
     *
     * @throws ZarisTransportException when no seed produced a map in time
     */
    public static ZarisClient connect(ZarisClientOptions options) {
        ZarisClient client = new ZarisClient(options);
        try {
            client.bootstrap();
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        long intervalMillis = options.mapRefreshInterval().toMillis();
        client.maps.scheduleWithFixedDelay(client::pollMap, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        return client;
    }

    /** Connects with default options to the given {@code host:port} seeds. */
    public static ZarisClient connect(String... seeds) {
        return connect(ZarisClientOptions.builder().seeds(seeds).build());
    }

    // ------------------------------------------------------------------ key/value operations

    /** The value and its version, or empty when the key does not exist. */
    public CompletableFuture<Optional<VersionedValue>> get(String key) {
        byte[] k = bytes(key);
        return route(k).send(id -> new Request.Get(id, k), (status, body) -> {
            if (status == KvStatus.OK) {
                return Optional.of(ResponseCodec.readValue(body));
            }
            if (status == KvStatus.NOT_FOUND) {
                return Optional.empty();
            }
            throw failure(status, body);
        }, options.requestTimeout());
    }

    /** Stores the value without TTL; completes with the key's new version. */
    public CompletableFuture<Long> put(String key, byte[] value) {
        return put(key, value, null);
    }

    /** Stores the value with a TTL ({@code null} or zero for none); completes with the new version. */
    public CompletableFuture<Long> put(String key, byte[] value, Duration ttl) {
        return conditionalPut(key, value, ttl, false, Request.ANY_VERSION).thenApply(WriteOutcome::version);
    }

    /** Stores the value only if the key does not exist. */
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] value, Duration ttl) {
        return conditionalPut(key, value, ttl, true, Request.ANY_VERSION);
    }

    /**
     * Compare-and-set: stores the value only if the key's current version equals {@code expectedVersion}
     * ({@code 0} means "only if absent").
     */
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] value, long expectedVersion, Duration ttl) {
        if (expectedVersion < 0) {
            throw new IllegalArgumentException("expectedVersion must be >= 0 but was " + expectedVersion);
        }
        return conditionalPut(key, value, ttl, false, expectedVersion);
    }

    private CompletableFuture<WriteOutcome> conditionalPut(String key, byte[] value, Duration ttl, boolean ifAbsent,
                                                           long expectedVersion) {
        byte[] k = bytes(key);
        byte[] v = requireValue(value);
        long ttlMillis = ttlMillis(ttl);
        return route(k).send(id -> new Request.Put(id, k, v, ttlMillis, ifAbsent, expectedVersion),
                ZarisClient::readWriteOutcome, options.requestTimeout());
    }

    /** Deletes the key; completes with whether it existed. */
    public CompletableFuture<Boolean> delete(String key) {
        byte[] k = bytes(key);
        return route(k).send(id -> new Request.Delete(id, k, Request.ANY_VERSION), (status, body) -> {
            if (status == KvStatus.OK) {
                return true;
            }
            if (status == KvStatus.NOT_FOUND) {
                return false;
            }
            throw failure(status, body);
        }, options.requestTimeout());
    }

    /** Deletes the key only if its current version equals {@code expectedVersion}. */
    public CompletableFuture<WriteOutcome> deleteIfVersion(String key, long expectedVersion) {
        if (expectedVersion < 0) {
            throw new IllegalArgumentException("expectedVersion must be >= 0 but was " + expectedVersion);
        }
        byte[] k = bytes(key);
        return route(k).send(id -> new Request.Delete(id, k, expectedVersion), (status, body) -> {
            if (status == KvStatus.NOT_FOUND) {
                return new WriteOutcome(false, 0);
            }
            return readWriteOutcome(status, body);
        }, options.requestTimeout());
    }

    /**
     * Atomically adds {@code delta} to the decimal counter stored at the key (absent counts as 0) and
     * completes with the new value. A value that is not a decimal integer fails with {@code WRONG_TYPE}.
     */
    public CompletableFuture<Long> increment(String key, long delta) {
        byte[] k = bytes(key);
        return route(k).send(id -> new Request.Increment(id, k, delta), (status, body) -> {
            if (status == KvStatus.OK) {
                return body.readLong();
            }
            throw failure(status, body);
        }, options.requestTimeout());
    }

    /**
     * Sets the key's time to live ({@code null} or zero removes the TTL); completes with whether the key
     * existed.
     */
    public CompletableFuture<Boolean> expire(String key, Duration ttl) {
        byte[] k = bytes(key);
        long ttlMillis = ttlMillis(ttl);
        return route(k).send(id -> new Request.Touch(id, k, ttlMillis), (status, body) -> {
            if (status == KvStatus.OK) {
                return true;
            }
            if (status == KvStatus.NOT_FOUND) {
                return false;
            }
            throw failure(status, body);
        }, options.requestTimeout());
    }

    /**
     * Reads several keys in one round trip. All keys must share one segment — give them a common
     * {@code {hash tag}}; absent keys are left out of the result.
     */
    public CompletableFuture<Map<String, VersionedValue>> getAll(Collection<String> keys) {
        List<String> names = List.copyOf(keys);
        List<byte[]> k = commonSegmentKeys(names);
        return route(k.get(0)).send(id -> new Request.MultiGet(id, k), (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            List<VersionedValue> values = ResponseCodec.readOptionalValues(body);
            Map<String, VersionedValue> result = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                if (values.get(i) != null) {
                    result.put(names.get(i), values.get(i));
                }
            }
            return result;
        }, options.requestTimeout());
    }

    /**
     * Writes several keys atomically with respect to other writes of their segment. All keys must share
     * one segment; completes with each key's new version.
     */
    public CompletableFuture<Map<String, Long>> putAll(Map<String, byte[]> entries, Duration ttl) {
        List<String> names = new ArrayList<>(entries.keySet());
        List<byte[]> k = commonSegmentKeys(names);
        List<byte[]> v = new ArrayList<>(names.size());
        for (String name : names) {
            v.add(requireValue(entries.get(name)));
        }
        long ttlMillis = ttlMillis(ttl);
        return route(k.get(0)).send(id -> new Request.MultiPut(id, k, v, ttlMillis), (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            long[] versions = ResponseCodec.readLongs(body);
            Map<String, Long> result = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                result.put(names.get(i), versions[i]);
            }
            return result;
        }, options.requestTimeout());
    }

    /** Deletes several keys that share one segment; completes with how many existed. */
    public CompletableFuture<Integer> deleteAll(Collection<String> keys) {
        List<byte[]> k = commonSegmentKeys(List.copyOf(keys));
        return route(k.get(0)).send(id -> new Request.MultiDelete(id, k), (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            return body.readInt();
        }, options.requestTimeout());
    }

    /**
     * Every key in the cluster: scans each active owner in parallel, page by page, and removes duplicates
     * (a key can be reported twice if its segment changes owner during the scan). Keys written or deleted
     * during the scan may or may not appear; keys present throughout appear exactly once.
     */
    public CompletableFuture<Set<String>> scanKeys() {
        RoutingTable current = requireTable();
        List<CompletableFuture<List<byte[]>>> perNode = new ArrayList<>();
        for (NodeConnection connection : current.connections().values()) {
            perNode.add(scanNode(connection, 0, new ArrayList<>()));
        }
        return CompletableFuture.allOf(perNode.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            Set<String> keys = new LinkedHashSet<>();
            for (CompletableFuture<List<byte[]>> node : perNode) {
                for (byte[] key : node.join()) {
                    keys.add(new String(key, StandardCharsets.UTF_8));
                }
            }
            return keys;
        });
    }

    private CompletableFuture<List<byte[]>> scanNode(NodeConnection connection, int cursor, List<byte[]> collected) {
        return connection.send(id -> new Request.Scan(id, cursor, SCAN_PAGE_KEYS), (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            return ResponseCodec.readScanPage(body);
        }, options.requestTimeout()).thenCompose(page -> {
            collected.addAll(page.keys());
            return page.isLast() ? CompletableFuture.completedFuture(collected)
                    : scanNode(connection, page.nextCursor(), collected);
        });
    }

    // ------------------------------------------------------------------ maps and routing

    /** The cluster view the routing table was built from. */
    public ClusterView clusterView() {
        return requireTable().view();
    }

    /** The node id that currently serves the key, per this client's routing table. */
    public String ownerOf(String key) {
        RoutingTable current = requireTable();
        return current.view().runtimeOfSegment(segmentMapper.segmentOf(bytes(key))).activeNode();
    }

    /** Fetches the cluster map now and rebuilds the routing table. */
    public CompletableFuture<ClusterView> refreshMap() {
        return CompletableFuture.supplyAsync(() -> {
            refreshFrom(requireTable().connections().values());
            return requireTable().view();
        }, maps);
    }

    /** Blocking variants of every operation. */
    public BlockingZarisClient sync() {
        return blocking;
    }

    private NodeConnection route(byte[] key) {
        RoutingTable current = requireTable();
        int segment = segmentMapper.segmentOf(key);
        NodeConnection connection = current.connectionFor(segment);
        if (connection == null) {
            throw new ZarisStatusException(KvStatus.UNAVAILABLE, "segment " + segment + " has no reachable serving owner");
        }
        return connection;
    }

    private RoutingTable requireTable() {
        RoutingTable current = table;
        if (closed) {
            throw new ZarisException("client is closed");
        }
        return current;
    }

    private void bootstrap() {
        long deadline = System.nanoTime() + options.bootstrapTimeout().toNanos();
        List<String> failures = new ArrayList<>();
        while (true) {
            for (NodeAddress seed : options.seeds()) {
                try {
                    NodeConnection connection = NodeConnection.open(seed, options.clientName(),
                            options.connectTimeout(), options.connectTimeout(), options.maxInFlightPerNode(),
                            options.maxFrameBytes()).get();
                    try {
                        ClusterView view = fetchMap(connection).get(options.connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
                        Map<String, NodeConnection> connections = new HashMap<>();
                        connections.put(connection.nodeId(), connection);
                        install(view, connections);
                        log.info("connected to Zaris cluster: {} nodes, partition map version {}",
                                view.addresses().size(), view.partitionMap().version());
                        return;
                    } catch (ExecutionException | TimeoutException e) {
                        connection.close();
                        failures.add(seed + ": " + rootMessage(e));
                    }
                } catch (ExecutionException e) {
                    failures.add(seed + ": " + rootMessage(e));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ZarisTransportException("interrupted while connecting");
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new ZarisTransportException("no seed of " + options.seeds() + " provided a cluster map within "
                        + options.bootstrapTimeout() + "; last errors: "
                        + failures.subList(Math.max(0, failures.size() - options.seeds().size()), failures.size()));
            }
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, BOOTSTRAP_RETRY_DELAY.toNanos()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ZarisTransportException("interrupted while connecting");
            }
        }
    }

    private CompletableFuture<ClusterView> fetchMap(NodeConnection connection) {
        return connection.send(Request.ClusterMap::new, (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            return ClusterViewCodec.decode(body);
        }, options.connectTimeout());
    }

    /** Maps thread (or bootstrap, before the table is shared): opens what is missing, publishes, closes the rest. */
    private void install(ClusterView view, Map<String, NodeConnection> reusable) {
        Map<String, NodeConnection> connections = new HashMap<>();
        Map<String, CompletableFuture<NodeConnection>> opening = new HashMap<>();
        for (Map.Entry<String, NodeAddress> node : view.addresses().entrySet()) {
            NodeConnection existing = reusable.get(node.getKey());
            if (existing != null && existing.isOpen() && existing.address().equals(node.getValue())) {
                connections.put(node.getKey(), existing);
            } else {
                opening.put(node.getKey(), NodeConnection.open(node.getValue(), options.clientName(),
                        options.connectTimeout(), options.connectTimeout(), options.maxInFlightPerNode(),
                        options.maxFrameBytes()));
            }
        }
        for (Map.Entry<String, CompletableFuture<NodeConnection>> pending : opening.entrySet()) {
            try {
                NodeConnection connection = pending.getValue().join();
                if (!pending.getKey().equals(connection.nodeId())) {
                    log.warn("address of node {} answered as node {}; not routing to it", pending.getKey(),
                            connection.nodeId());
                    connection.close();
                    continue;
                }
                connections.put(pending.getKey(), connection);
            } catch (CompletionException e) {
                log.warn("cannot connect to node {}: {}", pending.getKey(), rootMessage(e));
            }
        }
        segmentMapper = new SegmentMapper(view.layout().segmentCount());
        table = RoutingTable.build(view, connections);
        for (Map.Entry<String, NodeConnection> old : reusable.entrySet()) {
            if (connections.get(old.getKey()) != old.getValue()) {
                old.getValue().close();
            }
        }
    }

    private void pollMap() {
        if (closed) {
            return;
        }
        try {
            refreshFrom(table.connections().values());
        } catch (RuntimeException e) {
            log.warn("periodic cluster map refresh failed: {}", e.getMessage());
        }
    }

    /** Maps thread only. */
    private void refreshFrom(Collection<NodeConnection> candidates) {
        RoutingTable current = table;
        for (NodeConnection connection : candidates) {
            if (!connection.isOpen()) {
                continue;
            }
            ClusterView view;
            try {
                view = fetchMap(connection).join();
            } catch (CompletionException e) {
                continue;
            }
            if (view.equals(current.view()) && allConnected(current)) {
                return;
            }
            install(view, new HashMap<>(current.connections()));
            return;
        }
        throw new ZarisTransportException("no node connection could provide a cluster map");
    }

    private static boolean allConnected(RoutingTable current) {
        for (String node : current.view().addresses().keySet()) {
            NodeConnection connection = current.connections().get(node);
            if (connection == null || !connection.isOpen()) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ helpers

    private List<byte[]> commonSegmentKeys(List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("at least one key is required");
        }
        List<byte[]> keys = new ArrayList<>(names.size());
        int segment = -1;
        for (String name : names) {
            byte[] key = bytes(name);
            int keySegment = segmentMapper.segmentOf(key);
            if (segment >= 0 && keySegment != segment) {
                throw new IllegalArgumentException("keys '" + names.get(0) + "' and '" + name
                        + "' map to different segments; multi-key operations need a common {hash tag}");
            }
            segment = keySegment;
            keys.add(key);
        }
        return keys;
    }

    private static WriteOutcome readWriteOutcome(KvStatus status, ByteBuf body) {
        if (status == KvStatus.OK) {
            return new WriteOutcome(true, body.readLong());
        }
        if (status == KvStatus.CONFLICT) {
            return new WriteOutcome(false, body.readLong());
        }
        throw failure(status, body);
    }

    private static ZarisStatusException failure(KvStatus status, ByteBuf body) {
        return new ZarisStatusException(status, ResponseCodec.readMessage(body));
    }

    private static byte[] bytes(String key) {
        if (key == null) {
            throw new IllegalArgumentException("key must not be null");
        }
        return key.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] requireValue(byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("value must not be null");
        }
        return value;
    }

    private static long ttlMillis(Duration ttl) {
        if (ttl == null || ttl.isZero()) {
            return Request.NO_TTL;
        }
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must not be negative but was " + ttl);
        }
        return Math.max(1, ttl.toMillis());
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        maps.shutdownNow();
        RoutingTable current = table;
        if (current != null) {
            current.connections().values().forEach(NodeConnection::close);
        }
    }
}
