package io.zaris.client;

import io.netty.buffer.ByteBuf;
import io.zaris.model.AckMode;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.VersionedValue;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.MapFingerprint;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.ResponseCodec.ScanPage;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.protocol.SegmentInvalidations;
import io.zaris.protocol.TakeoverRevisions;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.PushListener;
import io.zaris.transport.ResponseReader;
import io.zaris.transport.ZarisException;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Zaris client: bootstraps from seed addresses, fetches the cluster map, keeps a small fixed number of
 * connections per node ({@link ZarisClientOptions#connectionsPerNode()}, see {@link StripedNodeConnections}:
 * every segment is bound to one of them, so a segment's requests stay in order) and sends every request
 * straight to the active owner of the key's segment (one hop).
 *
 * <p>All operations are asynchronous and return {@link CompletableFuture}s that complete on a network
 * thread — do not block inside their continuations; {@link #sync()} offers blocking calls. Ownership churn
 * is handled here, not by the application: a wrong-node status or a transport fault becomes a bounded,
 * rerouted retry decided by {@link RetryPolicy}; a real answer ({@code OK}, {@code NOT_FOUND},
 * {@code CONFLICT}) is handed straight back. What the retries cannot fix fails the future with
 * {@link ZarisStatusException}, {@link ZarisTransportException} or {@link ZarisTimeoutException}.
 *
 * <p>Freshness of the routing table, three layers: <b>push</b> (nodes send ownership changes; applied only
 * if newer), <b>poll</b> (every {@code mapRefreshInterval} one node, round-robin, is asked for its map
 * fingerprint; the full map is fetched only when it differs) and <b>react</b> (the retry brain's refreshes,
 * coalesced by {@link MapRefresher}). Wrong-node answers also carry the partition's current entry, applied
 * like a push.
 *
 * <p>Concurrency: the {@link RoutingTable} is immutable and published through a volatile field. Every
 * change is computed and published under {@code tableLock} (held only for the copy-on-write, never for
 * I/O), so concurrent pushes and refreshes cannot lose each other's updates. Connections are opened and
 * closed only on the single "zaris-client-maps" thread; retry delays run on the "zaris-client-timer"
 * thread, never as sleeps.
 */
public final class ZarisClient implements AutoCloseable {

    /**
     * How long installing a fetched map waits for the connections it opens before it publishes the table; those
     * still opening join it when they open. Long enough for a live node's connect and handshake.
     */
    static final Duration INSTALL_CONNECT_WAIT = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(ZarisClient.class);
    /** Pause between rounds over the seeds while a cluster is still forming. */
    private static final Duration BOOTSTRAP_RETRY_DELAY = Duration.ofMillis(200);
    /** Keys asked for per SCAN round trip. */
    private static final int SCAN_PAGE_KEYS = 1000;
    /** An idempotent attempt unanswered this long is given up once its partition has another owner ({@link #movedAway}). */
    private static final Duration STUCK_ATTEMPT = Duration.ofMillis(500);

    private final ZarisClientOptions options;
    private final TimeSource ticker;
    private final RetryPolicy retryPolicy;
    private final ClientMetrics metrics;
    private final ScheduledExecutorService maps;
    private final ScheduledExecutorService timer;
    private final MapRefresher refresher;
    /** Blocking sockets for blocking callers ({@link DirectRequests}), {@code null} when off (or TLS is on). */
    private final DirectRequests direct;
    private final BlockingZarisClient blocking = new BlockingZarisClient(this);
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
    private final AsyncAckLedger asyncAcks;
    /** The near cache, {@code null} when off; every connection of a client with one tracks its segments. */
    private final NearCache near;
    /** Held while a takeover's lost writes are reported (see {@code takenOver}). */
    private final Object lossReports = new Object();
    private final PushListener pushListener = new PushListener() {
        @Override
        public void ownershipChanged(RuntimeOwnershipChangedEvent event) {
            onPush(event);
        }

        /**
         * The same takeover can arrive on several connections at once (the pipelined one and a direct read
         * socket); whichever comes second waits until the first has reported, so a read that follows the push on
         * any connection follows the report too.
         */
        @Override
        public void takenOver(TakeoverRevisions takeover) {
            synchronized (lossReports) {
                reportLost(asyncAcks.lostTo(takeover));
            }
        }

        @Override
        public void invalidated(SegmentInvalidations changes) {
            if (near != null) {
                near.invalidated(changes);
            }
        }
    };

    private ZarisClient(ZarisClientOptions options) {
        this.options = options;
        this.ticker = options.ticker();
        this.retryPolicy = options.retryPolicy();
        this.metrics = options.metrics();
        this.asyncAcks = new AsyncAckLedger(options.asyncAckHistory());
        this.near = options.nearCache().enabled() ? new NearCache(options.nearCache()) : null;
        this.maps = Executors.newSingleThreadScheduledExecutor(daemon("zaris-client-maps"));
        this.timer = Executors.newSingleThreadScheduledExecutor(daemon("zaris-client-timer"));
        this.refresher = new MapRefresher(this::fetchAndInstall, ticker, options.mapRefreshDebounce(),
                options.mapRefreshWait(), metrics);
        this.direct = options.directReadConnectionsPerNode() == 0 ? null
                : new DirectRequests(options.directReadConnectionsPerNode(), options.clientName(), options.credentials(),
                        options.connectTimeout(), options.maxFrameBytes(), pushListener::takenOver);
    }

    /**
     * Connects to the cluster: waits (up to the bootstrap timeout) until a seed hands out a cluster map,
     * then opens {@link ZarisClientOptions#connectionsPerNode()} connections to every node in it.
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
        client.maps.scheduleWithFixedDelay(client::pollMapLoudly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
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
        if (near == null) {
            return execute(OpCode.GET, k, true, id -> new Request.Get(id, k), ZarisClient::readGet, null);
        }
        VersionedValue cached = nearHit(k);
        if (cached != null) {
            return CompletableFuture.completedFuture(Optional.of(cached));
        }
        int segment = segmentMapper.segmentOf(k);
        long stamp = near.stampOf(segment);
        long sentAt = ticker.nanoTime();
        return execute(OpCode.GET, k, true, id -> new Request.Get(id, k), ZarisClient::readGet,
                (answer, connection, epoch) -> near.fill(k, segment, stamp, answer.orElse(null), connection, epoch, sentAt));
    }

    private static Optional<VersionedValue> readGet(KvStatus status, ByteBuf body) throws MalformedRequestException {
        if (status == KvStatus.OK) {
            return Optional.of(ResponseCodec.readValue(body));
        }
        if (status == KvStatus.NOT_FOUND) {
            return Optional.empty();
        }
        throw failure(status, body);
    }

    /**
     * The near cache's value for {@code key} if the stream it was read on is still the one the key is routed to
     * (see {@link NearCacheVerdict}); {@code null} otherwise, or without a near cache or a map.
     */
    private VersionedValue nearHit(byte[] key) {
        RoutingTable current = table;
        if (near == null || current == null) {
            return null;
        }
        int segment = segmentMapper.segmentOf(key);
        NodeConnection routed = current.connectionFor(segment);
        return routed == null ? null
                : near.lookup(key, routed, routed.isOpen(), current.epochOf(segment), ticker.nanoTime());
    }

    /** Whether blocking reads must take the pipelined path, whose answers fill the near cache. */
    boolean nearCacheEnabled() {
        return near != null;
    }

    /** The near cache's counts now; {@link NearCacheStats#NONE} without one. */
    public NearCacheStats nearCacheStats() {
        return near == null ? NearCacheStats.NONE : near.stats();
    }

    /** Drops {@code keys} from the near cache again once {@code write} of them completed, however it did. */
    private <T> CompletableFuture<T> forgetWhenDone(List<byte[]> keys, CompletableFuture<T> write) {
        return near == null ? write : write.whenComplete((value, error) -> forgetOwnWrite(keys));
    }

    /** Drops {@code keys} from the near cache: this client writes them. */
    private void forgetOwnWrite(List<byte[]> keys) {
        if (near != null && segmentMapper != null) {
            for (byte[] key : keys) {
                near.invalidate(key, segmentMapper.segmentOf(key));
            }
        }
    }

    /**
     * {@link #get} for a caller that blocks on the answer: read by the calling thread over a direct socket to the
     * key's owner ({@link DirectRequests}), answered {@code OK} or {@code NOT_FOUND} in one attempt.
     *
     * @return the answer, or {@code null} when the caller must use {@link #get} (direct sockets off or busy, no
     *         connection to the owner in the map, or anything but a plain answer)
     */
    Optional<VersionedValue> tryDirectGet(String key) {
        DirectRoute route = directRoute(OpCode.GET, key);
        if (route == null) {
            return null;
        }
        Optional<VersionedValue> answer = meteredOnFailure(OpCode.GET, route,
                () -> direct.get(route.owner(), route.key(), route.epoch(), route.timeoutMillis(), route.abandoned()));
        if (answer != null) {
            metrics.request(OpCode.GET, answer.isPresent() ? "ok" : "not_found", ticker.nanoTime() - route.startNanos());
        }
        return answer;
    }

    /**
     * {@link #put(String, byte[], Duration, AckMode)} for a caller that blocks on the answer, sent and answered on
     * the calling thread like {@link #tryDirectGet}; an ASYNC acknowledgement is remembered for loss reports
     * exactly as on the ordinary path.
     *
     * @return the new version, or {@code null} when the caller must use the ordinary path (which may then store
     *         the value a second time, as its own retry of an unconditional put would)
     */
    Long tryDirectPut(String key, byte[] value, Duration ttl, AckMode ack) {
        DirectRoute route = directRoute(OpCode.PUT, key);
        if (route == null) {
            return null;
        }
        byte[] v = requireValue(value);
        long ttlMillis = ttlMillis(ttl);
        DirectRequests.Acknowledged done = meteredOnFailure(OpCode.PUT, route,
                () -> direct.put(route.owner(), route.key(), v, ttlMillis, ack, route.epoch(), route.timeoutMillis(),
                        route.abandoned()));
        if (done == null) {
            return null;
        }
        metrics.request(OpCode.PUT, "ok", ticker.nanoTime() - route.startNanos());
        acknowledged(route.key(), done.revision(), done.signedAckEpoch());
        return done.revision();
    }

    /**
     * {@link #delete(String, AckMode)} for a caller that blocks on the answer (see {@link #tryDirectPut}).
     *
     * @return whether the key existed, or {@code null} when the caller must use the ordinary path
     */
    Boolean tryDirectDelete(String key, AckMode ack) {
        DirectRoute route = directRoute(OpCode.DELETE, key);
        if (route == null) {
            return null;
        }
        Optional<DirectRequests.Acknowledged> done = meteredOnFailure(OpCode.DELETE, route,
                () -> direct.delete(route.owner(), route.key(), ack, route.epoch(), route.timeoutMillis(),
                        route.abandoned()));
        if (done == null) {
            return null;
        }
        metrics.request(OpCode.DELETE, done.isPresent() ? "ok" : "not_found", ticker.nanoTime() - route.startNanos());
        done.ifPresent(acknowledgement -> acknowledged(route.key(), acknowledgement.revision(),
                acknowledgement.signedAckEpoch()));
        return done.isPresent();
    }

    /** A final status a direct request threw is metered as the ordinary path meters it, then passed on. */
    private <T> T meteredOnFailure(OpCode op, DirectRoute route, Supplier<T> request) {
        try {
            return request.get();
        } catch (ZarisStatusException e) {
            metrics.request(op, reasonOf(e), ticker.nanoTime() - route.startNanos());
            throw e;
        }
    }

    /**
     * Where and how long a direct request for a key goes: its owner under the current table, one attempt's wait,
     * and when to give the attempt up early (its partition moved away while it hung, {@link #movedAway}).
     */
    private record DirectRoute(byte[] key, NodeAddress owner, long epoch, int timeoutMillis, long startNanos,
                               BooleanSupplier abandoned) {
    }

    /**
     * Where a direct request ({@code op}) for {@code key} goes, with the key's bytes, counted as an attempt; {@code null} when direct sockets are off
     * (none configured, or the client closed), the client has no map yet or the table names no owner connection.
     * Those are checked before the key is encoded, so a client without direct sockets encodes it once, on the
     * ordinary path.
     */
    private DirectRoute directRoute(OpCode op, String key) {
        RoutingTable current = table;
        if (direct == null || closed || current == null || near != null) {
            // with a near cache, every request takes the tracked pipelined connections
            return null;
        }
        byte[] k = bytes(key);
        int segment = segmentMapper.segmentOf(k);
        NodeConnection owner = current.connectionFor(segment);
        if (owner == null) {
            return null;
        }
        long start = ticker.nanoTime();
        long deadline = options.requestTimeout().deadlineFrom(start);
        long waitNanos = Math.min(options.attemptTimeout().toNanos(),
                deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - start);
        int timeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(waitNanos)));
        int partition = current.view().layout().partitionOf(segment);
        metrics.attemptRouted(metrics.operationStarted(op), partition);
        return new DirectRoute(k, owner.address(), current.epochOf(segment), timeoutMillis, start,
                movedAway(partition, RoutingWatch.Routing.of(current, partition)));
    }

    /** ASYNC acknowledgements remembered for loss reports now (see {@link AsyncAckLedger}). */
    int rememberedAsyncAcknowledgements() {
        return asyncAcks.size();
    }

    /** Direct read sockets open now (see {@link ZarisClientOptions#directReadConnectionsPerNode()}). */
    int directReadConnections() {
        return direct == null ? 0 : direct.openConnections();
    }

    /** Stores the value without TTL; completes with the key's new version. */
    public CompletableFuture<Long> put(String key, byte[] value) {
        return put(key, value, null);
    }

    /** Stores the value with a TTL ({@code null} or zero for none); completes with the new version. */
    public CompletableFuture<Long> put(String key, byte[] value, Duration ttl) {
        return put(key, value, ttl, options.ackMode());
    }

    /**
     * Stores the value, acknowledged as {@code ack} asks ({@code SYNC}: after the replicas applied it;
     * {@code ASYNC}: once the active owner has; {@code null}: the cluster's configured mode).
     */
    public CompletableFuture<Long> put(String key, byte[] value, Duration ttl, AckMode ack) {
        return conditionalPut(key, value, ttl, false, Request.ANY_VERSION, ack).thenApply(WriteOutcome::version);
    }

    /** Stores the value only if the key does not exist. */
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] value, Duration ttl) {
        return conditionalPut(key, value, ttl, true, Request.ANY_VERSION, options.ackMode());
    }

    /**
     * Compare-and-set: stores the value only if the key's current version equals {@code expectedVersion}
     * ({@code 0} means "only if absent").
     */
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] value, long expectedVersion, Duration ttl) {
        if (expectedVersion < 0) {
            throw new IllegalArgumentException("expectedVersion must be >= 0 but was " + expectedVersion);
        }
        return conditionalPut(key, value, ttl, false, expectedVersion, options.ackMode());
    }

    private CompletableFuture<WriteOutcome> conditionalPut(String key, byte[] value, Duration ttl, boolean ifAbsent,
                                                           long expectedVersion, AckMode ack) {
        byte[] k = bytes(key);
        byte[] v = requireValue(value);
        long ttlMillis = ttlMillis(ttl);
        return execute(OpCode.PUT, k, !ifAbsent && expectedVersion == Request.ANY_VERSION,
                id -> new Request.Put(id, k, v, ttlMillis, ifAbsent, expectedVersion, ack),
                (status, body) -> readWriteOutcome(k, status, body));
    }

    /** Deletes the key; completes with whether it existed. */
    public CompletableFuture<Boolean> delete(String key) {
        return delete(key, options.ackMode());
    }

    /** Deletes the key, acknowledged as {@code ack} asks ({@code null}: the cluster's configured mode). */
    public CompletableFuture<Boolean> delete(String key, AckMode ack) {
        byte[] k = bytes(key);
        return execute(OpCode.DELETE, k, true, id -> new Request.Delete(id, k, Request.ANY_VERSION, ack), (status, body) -> {
            if (status == KvStatus.OK) {
                acknowledged(k, body.readLong(), body);
                return true;
            }
            if (status == KvStatus.NOT_FOUND) {
                return false;
            }
            throw failure(status, body);
        });
    }

    /** Deletes the key only if its current version equals {@code expectedVersion}. */
    public CompletableFuture<WriteOutcome> deleteIfVersion(String key, long expectedVersion) {
        if (expectedVersion < 0) {
            throw new IllegalArgumentException("expectedVersion must be >= 0 but was " + expectedVersion);
        }
        byte[] k = bytes(key);
        AckMode ack = options.ackMode();
        return execute(OpCode.DELETE, k, false, id -> new Request.Delete(id, k, expectedVersion, ack), (status, body) -> {
            if (status == KvStatus.NOT_FOUND) {
                return new WriteOutcome(false, 0);
            }
            return readWriteOutcome(k, status, body);
        });
    }

    /**
     * Atomically adds {@code delta} to the decimal counter stored at the key (absent counts as 0) and
     * completes with the new value. A value that is not a decimal integer fails with {@code WRONG_TYPE}.
     */
    public CompletableFuture<Long> increment(String key, long delta) {
        return incrementVersioned(key, delta).thenApply(CounterValue::value);
    }

    /** As {@link #increment}, completing with the version of the change as well as the new value. */
    public CompletableFuture<CounterValue> incrementVersioned(String key, long delta) {
        byte[] k = bytes(key);
        return execute(OpCode.INCREMENT, k, false, id -> new Request.Increment(id, k, delta), (status, body) -> {
            if (status == KvStatus.OK) {
                long value = body.readLong();
                long version = body.readLong();
                acknowledged(k, version, body);
                return new CounterValue(value, version);
            }
            throw failure(status, body);
        });
    }

    /**
     * Sets the key's time to live ({@code null} or zero removes the TTL); completes with whether the key
     * existed.
     */
    public CompletableFuture<Boolean> expire(String key, Duration ttl) {
        byte[] k = bytes(key);
        long ttlMillis = ttlMillis(ttl);
        return execute(OpCode.TOUCH, k, true, id -> new Request.Touch(id, k, ttlMillis), (status, body) -> {
            if (status == KvStatus.OK) {
                acknowledged(k, body.readLong(), body);
                return true;
            }
            if (status == KvStatus.NOT_FOUND) {
                return false;
            }
            throw failure(status, body);
        });
    }

    /**
     * Reads several keys in one round trip. All keys must share one segment — give them a common
     * {@code {hash tag}}; absent keys are left out of the result.
     */
    public CompletableFuture<Map<String, VersionedValue>> getAll(Collection<String> keys) {
        List<String> names = List.copyOf(keys);
        List<byte[]> k = commonSegmentKeys(names);
        return execute(OpCode.MULTI_GET, k.get(0), true, id -> new Request.MultiGet(id, k), (status, body) -> {
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
        });
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
        forgetOwnWrite(k);
        return forgetWhenDone(k, execute(OpCode.MULTI_PUT, k.get(0), true, id -> new Request.MultiPut(id, k, v, ttlMillis), (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            long[] versions = ResponseCodec.readLongs(body);
            long ackEpoch = ResponseCodec.readAckEpoch(body);
            Map<String, Long> result = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                result.put(names.get(i), versions[i]);
                acknowledged(k.get(i), versions[i], ackEpoch);
            }
            return result;
        }));
    }

    /**
     * Writes several keys only if none of them exists (Redis's MSETNX): all or nothing, decided by the
     * segment's active owner in one step. All keys must share one segment; completes with whether the entries
     * were written. Not repeated after an unknown outcome (a repeat would find its own writes and say no).
     */
    public CompletableFuture<Boolean> putAllIfAbsent(Map<String, byte[]> entries, Duration ttl) {
        List<String> names = new ArrayList<>(entries.keySet());
        List<byte[]> k = commonSegmentKeys(names);
        List<byte[]> v = new ArrayList<>(names.size());
        for (String name : names) {
            v.add(requireValue(entries.get(name)));
        }
        long ttlMillis = ttlMillis(ttl);
        forgetOwnWrite(k);
        return forgetWhenDone(k, execute(OpCode.MULTI_PUT_IF_ABSENT, k.get(0), false, id -> new Request.MultiPutIfAbsent(id, k, v, ttlMillis),
                (status, body) -> {
                    if (status == KvStatus.CONFLICT) {
                        return false;
                    }
                    if (status != KvStatus.OK) {
                        throw failure(status, body);
                    }
                    long[] versions = ResponseCodec.readLongs(body);
                    long ackEpoch = ResponseCodec.readAckEpoch(body);
                    for (int i = 0; i < names.size(); i++) {
                        acknowledged(k.get(i), versions[i], ackEpoch);
                    }
                    return true;
                }));
    }

    /** Deletes several keys that share one segment; completes with how many existed. */
    public CompletableFuture<Integer> deleteAll(Collection<String> keys) {
        List<byte[]> k = commonSegmentKeys(List.copyOf(keys));
        forgetOwnWrite(k);
        return forgetWhenDone(k, execute(OpCode.MULTI_DELETE, k.get(0), true, id -> new Request.MultiDelete(id, k), (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            return body.readInt();
        }));
    }

    /**
     * Every key in the cluster: scans each active owner in parallel, page by page, and removes duplicates
     * (a key can be reported twice if its segment changes owner during the scan). Keys written or deleted
     * during the scan may or may not appear; keys present throughout appear exactly once.
     */
    public CompletableFuture<Set<String>> scanKeys() {
        RoutingTable current = requireTable();
        ScanMerge merge = new ScanMerge(current.connections().keySet());
        List<CompletableFuture<Void>> perNode = new ArrayList<>();
        for (Map.Entry<String, StripedNodeConnections> node : current.connections().entrySet()) {
            perNode.add(scanNode(node.getKey(), node.getValue().first(), merge));
        }
        return CompletableFuture.allOf(perNode.toArray(CompletableFuture[]::new)).thenApply(ignored -> merge.keys());
    }

    /** Asks one node for its pages, one after the other, until its last one. */
    private CompletableFuture<Void> scanNode(String node, NodeConnection connection, ScanMerge merge) {
        return scanPage(connection, merge.cursor(node)).thenCompose(page ->
                merge.add(node, page) ? scanNode(node, connection, merge) : CompletableFuture.completedFuture(null));
    }

    /**
     * Visits every key in the cluster a page at a time, holding one page per node in memory rather than the
     * whole keyspace: every active owner is scanned in parallel, and a node's next page is asked for only once
     * the future {@code onPage} returned for its previous page has completed. A page is whole segments (about
     * {@value #SCAN_PAGE_KEYS} keys; more when a single segment holds more), so deleting keys of a page from
     * {@code onPage} makes no later page skip a key. Keys written or deleted during the scan may or may not be
     * visited; a key is visited twice if its segment changes owner in between.
     *
     * <p>{@code onPage} runs on client threads, for different nodes concurrently, and must not block. The
     * result fails with the first failure of a scan request or of a future {@code onPage} returned, and when a
     * node's next cursor does not move forward (the scan would never end).
     */
    public CompletableFuture<Void> scanKeyPages(Function<List<String>, ? extends CompletableFuture<?>> onPage) {
        Objects.requireNonNull(onPage, "onPage must not be null");
        RoutingTable current = requireTable();
        List<CompletableFuture<Void>> perNode = new ArrayList<>();
        for (Map.Entry<String, StripedNodeConnections> node : current.connections().entrySet()) {
            perNode.add(visitPages(node.getKey(), node.getValue().first(), 0, onPage));
        }
        return CompletableFuture.allOf(perNode.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> visitPages(String node, NodeConnection connection, int cursor,
                                               Function<List<String>, ? extends CompletableFuture<?>> onPage) {
        return scanPage(connection, cursor).thenCompose(page -> {
            if (!page.isLast() && page.nextCursor() <= cursor) {
                throw new ZarisException("node " + node + " answered SCAN at cursor " + cursor + " with next cursor "
                        + page.nextCursor() + ", which does not move forward");
            }
            List<String> keys = new ArrayList<>(page.keys().size());
            for (byte[] key : page.keys()) {
                keys.add(new String(key, StandardCharsets.UTF_8));
            }
            CompletableFuture<?> handled = Objects.requireNonNull(onPage.apply(keys), "onPage returned no future");
            return handled.thenCompose(ignored -> page.isLast() ? CompletableFuture.<Void>completedFuture(null)
                    : visitPages(node, connection, page.nextCursor(), onPage));
        });
    }

    private CompletableFuture<ScanPage> scanPage(NodeConnection connection, int cursor) {
        return connection.send(id -> new Request.Scan(id, cursor, SCAN_PAGE_KEYS), (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            return ResponseCodec.readScanPage(body);
        }, 0, 0, options.requestTimeout().deadlineFrom(System.nanoTime()));
    }

    // ------------------------------------------------------------------ the retry loop

    /**
     * Runs one operation to completion: routes it, sends it, and on failure asks the retry brain whether
     * and when to try again (after refreshing the map if the brain says the map is wrong).
     *
     * @param idempotent whether repeating it after it may already have been applied is harmless
     */
    private <T> CompletableFuture<T> execute(OpCode op, byte[] routingKey, boolean idempotent,
                                             LongFunction<Request> requestFactory, ResponseReader<T> reader) {
        return execute(op, routingKey, idempotent, requestFactory, reader, null);
    }

    /**
     * Like {@link #execute(OpCode, byte[], boolean, LongFunction, ResponseReader)}; {@code onAnswer}, when given, hears
     * the answer that completes the operation, with the connection it came on and the epoch it was routed by, on
     * that connection's event loop before any later frame of it (a push) is read. A write drops its key from the
     * near cache before it is sent and again once it is answered or failed, so this client reads its own writes.
     */
    private <T> CompletableFuture<T> execute(OpCode op, byte[] routingKey, boolean idempotent,
                                             LongFunction<Request> requestFactory, ResponseReader<T> reader,
                                             Answered<T> onAnswer) {
        requireTable();
        if (near != null && op.isWrite()) {
            List<byte[]> written = List.of(routingKey);
            forgetOwnWrite(written);
            CompletableFuture<T> result = executeRouted(op, routingKey, idempotent, requestFactory, reader, onAnswer);
            return result.whenComplete((value, error) -> forgetOwnWrite(written));
        }
        return executeRouted(op, routingKey, idempotent, requestFactory, reader, onAnswer);
    }

    /** What hears the answer that completed an operation (see {@link #execute}). */
    @FunctionalInterface
    private interface Answered<T> {
        void answered(T value, NodeConnection connection, long routedEpoch);
    }

    private <T> CompletableFuture<T> executeRouted(OpCode op, byte[] routingKey, boolean idempotent,
                                                   LongFunction<Request> requestFactory, ResponseReader<T> reader,
                                                   Answered<T> onAnswer) {
        long startNanos = ticker.nanoTime();
        long deadline = options.requestTimeout().deadlineFrom(startNanos);
        Operation<T> operation = new Operation<>(op, routingKey, idempotent, requestFactory, reader, deadline, onAnswer,
                metrics.operationStarted(op));
        if (metrics != ClientMetrics.disabled()) {
            // Without metrics the timing callback is skipped: one completion stage less per request.
            operation.result.whenComplete((value, error) -> metrics.request(op, statusOf(operation, error),
                    ticker.nanoTime() - startNanos));
        }
        attempt(operation, 1, null);
        return operation.result;
    }

    /**
     * Runs {@link #tryAttempt}; an exception escaping it would otherwise vanish inside a future callback or
     * a timer task and leave the caller waiting forever, so it fails the operation instead.
     *
     * @param lastFailure how the previous attempt failed ({@code null} for the first)
     */
    private <T> void attempt(Operation<T> operation, int attempt, Throwable lastFailure) {
        try {
            tryAttempt(operation, attempt, lastFailure);
        } catch (RuntimeException e) {
            log.error("{} attempt {} failed unexpectedly", operation.op, attempt, e);
            if (lastFailure != null) {
                e.addSuppressed(lastFailure);
            }
            operation.result.completeExceptionally(e);
        }
    }

    private <T> void tryAttempt(Operation<T> operation, int attempt, Throwable lastFailure) {
        if (closed) {
            operation.result.completeExceptionally(new ZarisException("client is closed"));
            return;
        }
        long now = ticker.nanoTime();
        // Checked again right before sending: a map refresh may have used up the time the retry brain saw when
        // it scheduled this attempt.
        if (pastDeadline(now, operation.deadline)) {
            operation.result.completeExceptionally(timedOut(operation, attempt, lastFailure));
            return;
        }
        RoutingTable current = table;
        int segment = segmentMapper.segmentOf(operation.routingKey);
        int partition = current.view().layout().partitionOf(segment);
        operation.routeTo(partition, current);
        metrics.attemptRouted(operation.observed, partition);
        NodeConnection connection = current.connectionFor(segment);
        if (connection == null) {
            // Never sent, so safe to repeat for any operation; and like a lost node it means the table may
            // be out of date: the retry brain refreshes it before the next attempt.
            PartitionRuntime runtime = current.view().runtimeOfSegment(segment);
            onAttemptFailed(operation, attempt, null, runtime.health().isServing()
                    ? new ZarisTransportException("no connection to node " + runtime.activeNode() + ", the owner of segment "
                            + segment, false)
                    : new NoServingOwnerException("partition " + current.view().layout().partitionOf(segment)
                            + " has no serving owner (" + runtime.health() + ") in the client's map"));
            return;
        }
        int deadlineMillis = operation.deadline == Long.MAX_VALUE ? 0
                : (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(operation.deadline - now)));
        // The connection measures its own timeout on System.nanoTime(); translate the deadline onto it. One
        // attempt waits at most attemptTimeout, so a node that stopped answering costs one timeout, not the
        // whole operation deadline.
        long attemptNanos = options.attemptTimeout().toNanos();
        long left = operation.deadline == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, operation.deadline - now);
        long answerDeadline = System.nanoTime() + Math.min(attemptNanos, left);
        long routedEpoch = current.epochOf(segment);
        connection.send(operation.requestFactory, operation.statusRecordingReader, routedEpoch, deadlineMillis,
                        answerDeadline, 0, operation.idempotent ? movedAway(operation.partition, operation.routing) : null)
                .whenComplete((value, error) -> {
                    if (error == null) {
                        if (operation.onAnswer != null) {
                            operation.onAnswer.answered(value, connection, routedEpoch);
                        }
                        operation.result.complete(value);
                    } else {
                        onAttemptFailed(operation, attempt, connection.nodeId(), unwrap(error));
                    }
                });
    }

    /**
     * Whether an idempotent attempt still unanswered after {@link #STUCK_ATTEMPT} should be given up because the
     * table now routes its partition to another owner: a hung owner (paused, cut off) does not answer until long
     * after the cluster replaced it, and waiting out the attempt timeout would keep the request from the new
     * owner. Asked by the connection's timeout sweep; reads only the volatile table.
     */
    private BooleanSupplier movedAway(int partition, RoutingWatch.Routing sentOn) {
        long sentAt = System.nanoTime();
        return () -> System.nanoTime() - sentAt > STUCK_ATTEMPT.toNanos()
                && !Objects.equals(RoutingWatch.Routing.of(table, partition).activeNode(), sentOn.activeNode());
    }

    /**
     * Like {@link #attempt}: whatever goes wrong deciding the next step fails the operation, never strands it.
     *
     * @param sentTo the node the failed attempt went to ({@code null} when it was not sent)
     */
    private <T> void onAttemptFailed(Operation<T> operation, int attempt, String sentTo, Throwable failure) {
        try {
            decideNextAttempt(operation, attempt, sentTo, failure);
        } catch (RuntimeException e) {
            log.error("{} attempt {}: deciding the retry failed unexpectedly", operation.op, attempt, e);
            e.addSuppressed(failure);
            operation.result.completeExceptionally(e);
        }
    }

    private <T> void decideNextAttempt(Operation<T> operation, int attempt, String sentTo, Throwable failure) {
        boolean retargeted = false;
        if (failure instanceof ZarisStatusException statusFailure && statusFailure.routingHint() != null) {
            retargeted = applyOwnershipChange(statusFailure.routingHint(), RefreshTrigger.HINT, sentTo);
        }
        long now = ticker.nanoTime();
        operation.failedOnRouting(now);
        RetryPolicy.Decision decision = retryPolicy.afterFailure(failure, operation.idempotent, operation.attemptsOnRouting,
                now, operation.deadline);
        boolean ownerUnreachable = decision.failureClass() == RetryPolicy.FailureClass.TRANSPORT
                && !(failure instanceof ZarisTimeoutException);
        if ((!decision.retry() || ownerUnreachable) && retryPolicy.maxAttempts() > 1) {
            // Attempts on this routing spent, or nobody to send to: wait on the map for the cluster to move the
            // partition (see RetryPolicy), unless that gives up while the ordinary decision would still retry.
            RetryPolicy.Decision waiting = retryPolicy.whileOwnerMoves(decision.failureClass(), operation.stalledSince,
                    now, operation.deadline, options.mapRefreshWait().toNanos());
            if (waiting.retry() || !decision.retry()) {
                decision = waiting;
            }
        }
        if (!decision.retry()) {
            if (!operation.idempotent && !RetryPolicy.classify(failure, false).retryable
                    && RetryPolicy.classify(failure, true).retryable) {
                metrics.ambiguousFailure(operation.op); // final only because repeating it could apply it twice
            }
            operation.result.completeExceptionally(failure);
            return;
        }
        metrics.retry(reasonOf(failure));
        long timeLeft = operation.deadline == Long.MAX_VALUE ? Long.MAX_VALUE : operation.deadline - now;
        // The wait for a shared refresh ends at the deadline at the latest; the next attempt then times out.
        CompletableFuture<Void> mapReady = decision.refreshMap() && !retargeted
                ? refresher.refresh(RefreshTrigger.REACT, timeLeft) : CompletableFuture.completedFuture(null);
        CompletableFuture<Void> delayElapsed = new CompletableFuture<>();
        try {
            timer.schedule(() -> delayElapsed.complete(null), decision.delayNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            operation.result.completeExceptionally(new ZarisException("client is closed"));
            return;
        }
        // A table that routes the partition differently (a push, a hint, a refresh) ends the wait at once.
        RoutingWatch.Waiter routed = routingWatch.changeOf(operation.partition, operation.routing, () -> table);
        CompletableFuture<Void> next = new CompletableFuture<>();
        routed.changed.thenRun(() -> next.complete(null));
        CompletableFuture.allOf(mapReady, delayElapsed).whenComplete((ignored, error) -> next.complete(null));
        next.whenComplete((ignored, error) -> {
            routingWatch.stopWaiting(routed);
            attempt(operation, attempt + 1, failure);
        });
    }

    private static boolean pastDeadline(long now, long deadline) {
        return deadline != Long.MAX_VALUE && now - deadline >= 0;
    }

    /** The deadline passed before attempt number {@code attempt} could start; the last failure travels along. */
    private ZarisTimeoutException timedOut(Operation<?> operation, int attempt, Throwable lastFailure) {
        ZarisTimeoutException timeout = new ZarisTimeoutException(operation.op + " did not complete within the request "
                + "timeout of " + options.requestTimeout() + " (" + (attempt - 1) + " attempt(s) made)");
        if (lastFailure != null) {
            timeout.addSuppressed(lastFailure);
        }
        return timeout;
    }

    /** One operation's fixed parts, shared by its attempts. */
    private static final class Operation<T> {
        final OpCode op;
        final byte[] routingKey;
        final boolean idempotent;
        final LongFunction<Request> requestFactory;
        final ResponseReader<T> reader;
        final long deadline;
        final CompletableFuture<T> result = new CompletableFuture<>();
        /** Hears the answer that completes the operation; {@code null} for none. */
        final Answered<T> onAnswer;
        /** What {@link ClientMetrics#operationStarted} returned for this operation (may be {@code null}). */
        final Object observed;
        /*
         * The routing of the latest attempt and the count of attempts made on it. Written by whichever thread runs
         * the attempt and read by the one deciding after it fails; one attempt at a time, each handed over through
         * a future's completion, so the writes are visible without locks.
         */
        int partition;
        RoutingWatch.Routing routing;
        int attemptsOnRouting;
        /** Ticker time of the first failure on {@link #routing}; meaningful only while {@link #stalled}. */
        long stalledSince;
        boolean stalled;
        /**
         * The status of the last answer read, so meters tell NOT_FOUND and CONFLICT from OK. Written on the
         * event loop of the attempt's connection before {@code result} completes, read after it did.
         */
        volatile KvStatus lastStatus;
        final ResponseReader<T> statusRecordingReader;

        Operation(OpCode op, byte[] routingKey, boolean idempotent, LongFunction<Request> requestFactory,
                  ResponseReader<T> reader, long deadline, Answered<T> onAnswer, Object observed) {
            this.op = op;
            this.observed = observed;
            this.onAnswer = onAnswer;
            this.routingKey = routingKey;
            this.idempotent = idempotent;
            this.requestFactory = requestFactory;
            this.reader = reader;
            this.deadline = deadline;
            this.statusRecordingReader = (status, body) -> {
                lastStatus = status;
                return reader.read(status, body);
            };
        }

        /** An attempt goes out on {@code table}'s routing of {@code partition}: a new routing starts a new count. */
        void routeTo(int partition, RoutingTable table) {
            RoutingWatch.Routing now = RoutingWatch.Routing.of(table, partition);
            if (!now.equals(routing) || partition != this.partition) {
                this.partition = partition;
                routing = now;
                attemptsOnRouting = 0;
                stalled = false;
            }
            attemptsOnRouting++;
        }

        /** The attempt on the current routing failed at {@code nowNanos}. */
        void failedOnRouting(long nowNanos) {
            if (!stalled) {
                stalled = true;
                stalledSince = nowNanos;
            }
        }
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

    /** Fetches the cluster map now (coalesced with any refresh in flight) and rebuilds the routing table. */
    public CompletableFuture<ClusterView> refreshMap() {
        return refresher.refresh(RefreshTrigger.REACT).thenApply(ignored -> requireTable().view());
    }

    /** Full map fetches this client has made since it connected (bootstrap excluded), by poll or reaction. */
    public long mapFetchCount() {
        return mapFetches.get();
    }

    /** The options this client was connected with. */
    public ZarisClientOptions options() {
        return options;
    }

    /** Fingerprint questions the periodic poll has asked (one node each). */
    long mapPollCount() {
        return mapPolls.get();
    }

    /** Blocking variants of every operation. */
    public BlockingZarisClient sync() {
        return blocking;
    }

    private RoutingTable requireTable() {
        if (closed) {
            throw new ZarisException("client is closed");
        }
        return table;
    }

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
        if (!closed) {
            log.info("connection to {} lost; refreshing the cluster map", connection);
            refresher.refresh(RefreshTrigger.REACT);
        }
    }

    private void bootstrap() {
        long deadline = System.nanoTime() + options.bootstrapTimeout().toNanos();
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
            long left = deadline - System.nanoTime();
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

    /**
     * Opens {@link ZarisClientOptions#connectionsPerNode()} connections to the node; the in-flight bound per
     * node is split evenly over them (rounded up).
     */
    private CompletableFuture<StripedNodeConnections> open(NodeAddress address) {
        int count = options.connectionsPerNode();
        int maxInFlightPerConnection = (options.maxInFlightPerNode() + count - 1) / count;
        return StripedNodeConnections.open(count, () -> NodeConnection.open(address, options.clientName(),
                options.credentials(), options.tls(), options.connectTimeout(), options.connectTimeout(),
                maxInFlightPerConnection, options.maxFrameBytes(), pushListener, this::onConnectionLost)
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
        }, 0, 0, System.nanoTime() + options.connectTimeout().toNanos()).whenComplete((ignored, error) -> {
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
        }, 0, 0, System.nanoTime() + options.connectTimeout().toNanos());
    }

    private CompletableFuture<MapFingerprint> fetchFingerprint(NodeConnection connection) {
        return connection.send(Request.MapVersion::new, (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            return MapFingerprint.decode(body);
        }, 0, 0, System.nanoTime() + options.connectTimeout().toNanos());
    }

    /**
     * Maps thread (or bootstrap, before the table is shared): opens connections the view needs, merges the
     * view with whatever the table learned meanwhile, publishes, and closes connections nobody routes to.
     */
    private void install(ClusterView fetched, Map<String, StripedNodeConnections> known, RefreshTrigger trigger) {
        Map<String, StripedNodeConnections> connections = new HashMap<>();
        Map<String, CompletableFuture<StripedNodeConnections>> opening = new HashMap<>();
        for (Map.Entry<String, NodeAddress> node : fetched.addresses().entrySet()) {
            StripedNodeConnections existing = known.get(node.getKey());
            if (existing != null && existing.isOpen() && existing.address().equals(node.getValue())) {
                connections.put(node.getKey(), existing);
            } else {
                opening.put(node.getKey(), open(node.getValue()));
            }
        }
        // A node that does not answer (cut off, hung) must not hold the whole table back for a connect timeout:
        // connections not open within INSTALL_CONNECT_WAIT join the table when they open, if it still routes there.
        long waitUntil = System.nanoTime() + INSTALL_CONNECT_WAIT.toNanos();
        Map<String, CompletableFuture<StripedNodeConnections>> late = new HashMap<>();
        for (Map.Entry<String, CompletableFuture<StripedNodeConnections>> pending : opening.entrySet()) {
            try {
                StripedNodeConnections connection;
                try {
                    connection = pending.getValue().get(Math.max(0, waitUntil - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
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
            } catch (CompletionException e) {
                log.warn("cannot connect to node {}: {}", pending.getKey(), rootMessage(e));
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
                log.warn("cannot connect to node {}: {}", node, rootMessage(error));
            } else if (!node.equals(connection.nodeId())) {
                log.warn("address of node {} answered as node {}; not routing to it", node, connection.nodeId());
                connection.close();
            } else {
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
        for (StripedNodeConnections node : new java.util.TreeMap<>(current.connections()).values()) {
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
                                     java.util.function.Function<NodeConnection, CompletableFuture<T>> question) {
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

    private WriteOutcome readWriteOutcome(byte[] key, KvStatus status, ByteBuf body) {
        if (status == KvStatus.OK) {
            long version = body.readLong();
            acknowledged(key, version, body);
            return new WriteOutcome(true, version);
        }
        if (status == KvStatus.CONFLICT) {
            return new WriteOutcome(false, body.readLong());
        }
        throw failure(status, body);
    }

    /** Reads the acknowledgement trailer after a write's version and keeps it if it was an ASYNC one. */
    private void acknowledged(byte[] key, long revision, ByteBuf body) {
        acknowledged(key, revision, ResponseCodec.readAckEpoch(body));
    }

    /**
     * A negative epoch marks an ASYNC acknowledgement (see {@link ResponseCodec#readAckEpoch}): remembered,
     * so a later takeover can name it if it was lost. SYNC acknowledgements survive by construction.
     */
    private void acknowledged(byte[] key, long revision, long signedEpoch) {
        RoutingTable current = table;
        SegmentMapper mapper = segmentMapper;
        if (signedEpoch >= 0 || current == null || mapper == null) {
            return;
        }
        int segment = mapper.segmentOf(key);
        LostWrite lost = asyncAcks.record(key, current.view().layout().partitionOf(segment), segment, -signedEpoch, revision);
        if (lost != null) {
            reportLost(List.of(lost));
        }
    }

    private void reportLost(List<LostWrite> lost) {
        if (lost.isEmpty()) {
            return;
        }
        metrics.writesLost(lost.size());
        log.warn(LostWrite.describe(lost, LostWrite.KEYS_NAMED_IN_LOG));
        for (LostWrite write : lost) {
            try {
                options.lostWriteListener().accept(write);
            } catch (RuntimeException e) {
                log.warn("lost-write listener failed: {}", e.toString());
            }
        }
    }

    /** A status that is not an answer; a routing status carries the partition's current entry after the message. */
    private static ZarisStatusException failure(KvStatus status, ByteBuf body) {
        String message = ResponseCodec.readMessage(body);
        RuntimeOwnershipChangedEvent hint = status.isRetryable() ? ResponseCodec.readRoutingHint(body) : null;
        return new ZarisStatusException(status, message, hint);
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

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The meters' {@code status} tag: the answer's status (ok, not_found, conflict) or how it failed. */
    private static String statusOf(Operation<?> operation, Throwable error) {
        if (error != null) {
            return reasonOf(unwrap(error));
        }
        KvStatus answered = operation.lastStatus;
        return answered == null ? "ok" : answered.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String reasonOf(Throwable failure) {
        if (failure instanceof ZarisStatusException statusFailure) {
            return statusFailure.status().name().toLowerCase(java.util.Locale.ROOT);
        }
        if (failure instanceof ZarisTimeoutException) {
            return "timeout";
        }
        if (failure instanceof ZarisTransportException) {
            return "transport";
        }
        return "error";
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
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
        if (direct != null) {
            direct.close();
        }
        maps.shutdownNow();
        timer.shutdownNow();
        RoutingTable current = table;
        if (current != null) {
            current.connections().values().forEach(StripedNodeConnections::close);
        }
    }
}
