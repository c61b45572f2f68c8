package io.zaris.client;

import static io.zaris.client.ClientFailures.failure;
import static io.zaris.client.RequestInputs.bytes;
import static io.zaris.client.RequestInputs.requireValue;
import static io.zaris.client.RequestInputs.ttlMillis;

import io.netty.buffer.ByteBuf;
import io.zaris.model.AckMode;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.VersionedValue;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.SegmentTrackAnswer;
import io.zaris.protocol.ResponseCodec.ScanPage;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.ResponseReader;
import io.zaris.transport.ZarisException;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongFunction;

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
 * <p>The jobs behind this facade, each in its own class: the {@link TopologyKeeper} keeps the routing table true
 * (bootstrap, the periodic poll, pushes, hints, installs of fetched maps, waiters for a newer owner); the
 * {@link RequestExecutor} runs the retry loop by the rules of {@link RetryPolicy}; the {@link DirectPath} serves
 * blocking callers on their own threads over {@link DirectRequests}; {@link LostWriteReports} names acknowledged ASYNC writes a takeover lost;
 * {@link PollingWait} runs the waits of the blocking list operations. The typed collection operations are built by
 * {@link KeyRequests} (keys of any type), {@link HashRequests}, {@link SetRequests}, {@link ListRequests} and
 * {@link SortedSetRequests} over what they share, {@link CollectionRequests} and {@link CollectionArguments}, and run
 * through this class by the narrow {@link RequestRunner}; each public operation of theirs here delegates to one of
 * them. This class encodes the other requests, reads their answers and keeps the near cache in step with this
 * client's own writes.
 *
 * <p>Threads: this class keeps no mutable state of its own but {@code closed} (volatile, set once by
 * {@link #close}); every operation reads the keeper's volatile table, and the near cache, the reports and the
 * direct sockets guard themselves.
 */
public final class ZarisClient implements AutoCloseable {

    /** Keys asked for per SCAN round trip. */
    private static final int SCAN_PAGE_KEYS = 1000;

    private final ZarisClientOptions options;
    private final TimeSource time;
    private final ClientMetrics metrics;
    private final TopologyKeeper topology;
    private final RequestExecutor executor;
    private final LostWriteReports lostWrites;
    /** The blocking fast path ({@link DirectPath}), {@code null} when off (or TLS is on). */
    private final DirectPath directPath;
    private final BlockingZarisClient blocking = new BlockingZarisClient(this);
    private volatile boolean closed;
    /** The near cache, {@code null} when off; every connection of a client with one tracks its segments. */
    private final NearCache near;
    /** Key watches; they share the nodes' per-segment streams with the near cache, with positions of their own. */
    private final KeyWatches watches;
    /** What the typed collection operations share: collection requests run through {@link Runner}, the pop waits. */
    private final CollectionRequests collections;
    /** The operations on a key of any type, then one class per structure; each operation below delegates to one. */
    private final KeyRequests anyType;
    private final HashRequests hashes;
    private final SetRequests sets;
    private final ListRequests lists;
    private final SortedSetRequests sortedSets;

    private ZarisClient(ZarisClientOptions options) {
        this.options = options;
        this.time = options.timeSource();
        this.metrics = options.metrics();
        this.lostWrites = new LostWriteReports(options.asyncAckHistory(), metrics, options.lostWriteListener());
        this.near = options.nearCache().enabled() ? new NearCache(options.nearCache()) : null;
        this.topology = new TopologyKeeper(options, time, near, lostWrites::takenOver);
        this.watches = new KeyWatches(topology::table, topology::segmentMapper, time, options.attemptTimeout());
        topology.watches(watches);
        this.executor = new RequestExecutor(options, time, topology);
        RequestRunner runner = new Runner();
        // the waits of the blocking pops, paused on the executor's timer
        this.collections = new CollectionRequests(runner, new PollingWait(time, executor::after));
        this.anyType = new KeyRequests(collections, runner);
        this.hashes = new HashRequests(collections);
        this.sets = new SetRequests(collections);
        this.lists = new ListRequests(collections);
        this.sortedSets = new SortedSetRequests(collections, runner);
        this.directPath = options.directReadConnectionsPerNode() == 0 ? null
                : new DirectPath(options, time, topology, executor, this::acknowledged,
                        new DirectRequests(options.directReadConnectionsPerNode(), options.clientName(),
                                options.credentials(), options.connectTimeout(), options.maxFrameBytes(),
                                lostWrites::takenOver, time));
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
            client.topology.bootstrap();
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        client.topology.startPolling();
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
            return remoteGet(k);
        }
        RoutingTable current = requireTable();
        int segment = topology.segmentMapper().segmentOf(k);
        VersionedValue cached = nearLookup(k, segment, current, NearCacheRead.NO_MAX_AGE);
        if (cached != null) {
            return CompletableFuture.completedFuture(Optional.of(cached));
        }
        return trackedGet(k, segment, current);
    }

    /**
     * Like {@link #get}, using the near cache as {@code how} says (see {@link NearCacheRead}), and telling whether the
     * near cache answered.
     */
    public CompletableFuture<ReadResult> read(String key, NearCacheRead how) {
        if (how == null) {
            throw new IllegalArgumentException("how must not be null; use NearCacheRead.DEFAULT");
        }
        byte[] k = bytes(key);
        if (near == null || !how.usesNearCache()) {
            return remoteGet(k).thenApply(ReadResult::remote);
        }
        RoutingTable current = requireTable();
        int segment = topology.segmentMapper().segmentOf(k);
        VersionedValue cached = nearLookup(k, segment, current, how.maxAgeNanos());
        if (cached != null) {
            return CompletableFuture.completedFuture(new ReadResult(Optional.of(cached), true));
        }
        return trackedGet(k, segment, current).thenApply(ReadResult::remote);
    }

    /** A GET from the key's owner that leaves the near cache alone. */
    private CompletableFuture<Optional<VersionedValue>> remoteGet(byte[] k) {
        return execute(OpCode.GET, k, true, id -> new Request.Get(id, k), ZarisClient::readGet, null);
    }

    /** The near cache's entry for {@code k} if it is servable and younger than {@code maxAgeNanos}, else null. */
    private VersionedValue nearLookup(byte[] k, int segment, RoutingTable current, long maxAgeNanos) {
        NodeConnection routed = current.connectionFor(segment);
        if (routed == null) {
            return null;
        }
        return near.lookup(k, segment, routed, routed.isOpen(), current.epochOf(segment), time.nanoTime(),
                maxAgeNanos);
    }

    /** A GET from the key's owner whose answer fills the near cache, with the segment's stream started first. */
    private CompletableFuture<Optional<VersionedValue>> trackedGet(byte[] k, int segment, RoutingTable current) {
        NodeConnection routed = current.connectionFor(segment);
        long generation = SegmentStreams.NO_GENERATION;
        if (routed != null) {
            long epoch = current.epochOf(segment);
            if (routed.isOpen()) {
                startTracking(segment, routed, epoch);
            }
            generation = near.generationFor(segment, routed, epoch);
        }
        long stamp = near.stampOf(segment);
        long sentAt = time.nanoTime();
        long fillGeneration = generation;
        return execute(OpCode.GET, k, true, id -> new Request.Get(id, k), ZarisClient::readGet,
                (answer, connection, epoch) -> near.fill(k, segment, stamp, fillGeneration, answer.orElse(null),
                        connection, sentAt));
    }

    /**
     * Unless {@code segment}'s stream already runs (or is starting) on {@code routed}, sends {@code TRACK_SEGMENT}
     * there, ahead of the read that follows on the same connection: the node subscribes the connection and answers
     * from where, resuming from the stream's last position when its history reaches back (see {@link NearCache#tracked}).
     * The answer is applied on the connection's event loop, before any push that follows it.
     */
    private void startTracking(int segment, NodeConnection routed, long epoch) {
        SegmentStreams.Track track = near.beginTrack(segment, routed, epoch);
        if (track == null) {
            return;
        }
        routed.send(id -> new Request.TrackSegment(id, segment, track.sinceRevision(), track.sinceEpoch()),
                (status, body) -> {
                    if (status != KvStatus.OK) {
                        throw failure(status, body);
                    }
                    near.tracked(segment, track, SegmentTrackAnswer.decode(body));
                    return null;
                }, epoch, 0, time.nanoTime() + options.attemptTimeout().toNanos())
                .whenComplete((ignored, error) -> {
                    if (error != null) {
                        near.trackFailed(segment, track.generation());
                    }
                });
    }

    /**
     * Hands every change of {@code key} to {@code listener} (key, new version, deleted or not), in the order its owner
     * applied them, from when the watch is live ({@link KeyWatch#isLive()}) until it is closed. After a failover or a
     * planned move the watch resumes on the new owner from the last change it delivered; changes it cannot deliver
     * are reported through {@link KeyWatchListener#onFellBehind}, never skipped silently.
     */
    public KeyWatch watch(String key, KeyWatchListener listener) {
        return startWatch(key, false, listener);
    }

    /** Like {@link #watch}, for every key that starts with {@code prefix} (the empty prefix watches every key). */
    public KeyWatch watchPrefix(String prefix, KeyWatchListener listener) {
        return startWatch(prefix, true, listener);
    }

    private KeyWatch startWatch(String key, boolean prefix, KeyWatchListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null");
        }
        requireTable();
        return watches.watch(bytes(key), prefix, listener);
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

    /** Whether blocking reads must take the pipelined path, whose answers fill the near cache. */
    boolean nearCacheEnabled() {
        return near != null;
    }

    /** The near cache's counts now; {@link NearCacheStats#NONE} without one. */
    public NearCacheStats nearCacheStats() {
        return near == null ? NearCacheStats.NONE : near.stats();
    }

    /**
     * How the near cache's segment streams stand now (see {@link NearCacheStreams}); {@link NearCacheStreams#NONE}
     * without a near cache. A stream counts as live only while it runs on the connection and epoch its segment is
     * routed to now, over an open connection: what a read of the segment would be served from.
     */
    public NearCacheStreams nearCacheStreams() {
        if (near == null) {
            return NearCacheStreams.NONE;
        }
        RoutingTable current = closed ? null : topology.table();
        return near.streams((segment, stream) -> {
            if (current == null) {
                return false;
            }
            NodeConnection routed = current.connectionFor(segment);
            return routed != null && routed.isOpen() && stream.liveOn(routed, current.epochOf(segment));
        });
    }

    /** Drops {@code keys} from the near cache again once {@code write} of them completed, however it did. */
    private <T> CompletableFuture<T> forgetWhenDone(List<byte[]> keys, CompletableFuture<T> write) {
        return near == null ? write : write.whenComplete((value, error) -> forgetOwnWrite(keys));
    }

    /** Drops {@code keys} from the near cache: this client writes them. */
    private void forgetOwnWrite(List<byte[]> keys) {
        SegmentMapper mapper = topology.segmentMapper();
        if (near != null && mapper != null) {
            for (byte[] key : keys) {
                near.invalidate(key, mapper.segmentOf(key));
            }
        }
    }

    /**
     * {@link #get} for a caller that blocks on the answer, over a direct socket to the key's owner
     * ({@link DirectPath#get}).
     *
     * @return the answer, or {@code null} when the caller must use {@link #get} (direct sockets off, or with a near
     *         cache, whose fills take the pipelined path; or as {@link DirectPath#get} says)
     */
    Optional<VersionedValue> tryDirectGet(String key) {
        return directPath == null || closed || near != null ? null : directPath.get(key);
    }

    /**
     * {@link #put(String, byte[], Duration, AckMode)} for a caller that blocks on the answer
     * ({@link DirectPath#put}).
     *
     * @return the new version, or {@code null} when the caller must use the ordinary path
     */
    Long tryDirectPut(String key, byte[] value, Duration ttl, AckMode ack) {
        return directPath == null || closed || near != null ? null : directPath.put(key, value, ttl, ack);
    }

    /**
     * {@link #delete(String, AckMode)} for a caller that blocks on the answer ({@link DirectPath#delete}).
     *
     * @return whether the key existed, or {@code null} when the caller must use the ordinary path
     */
    Boolean tryDirectDelete(String key, AckMode ack) {
        return directPath == null || closed || near != null ? null : directPath.delete(key, ack);
    }

    /** ASYNC acknowledgements remembered for loss reports now (see {@link AsyncAckLedger}). */
    int rememberedAsyncAcknowledgements() {
        return lostWrites.remembered();
    }

    /** Direct read sockets open now (see {@link ZarisClientOptions#directReadConnectionsPerNode()}). */
    int directReadConnections() {
        return directPath == null ? 0 : directPath.openConnections();
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
     * The type of the value at the key (TYPE: a string, hash, list, set or sorted set), or empty when the key is absent.
     * One read of the key's active owner, retried like any read.
     */
    public CompletableFuture<Optional<KeyType>> type(String key) {
        return anyType.type(key);
    }

    /** Whether the key holds a value of any type (EXISTS on one key); read as {@link #type} reads. */
    public CompletableFuture<Boolean> exists(String key) {
        return anyType.exists(key);
    }

    /**
     * Moves the value at {@code source}, of any type and with its expiry, to {@code destination}, replacing whatever
     * that held (RENAME), in one step on their owner. Both keys share one segment (a common {@code {hash tag}}), or
     * this fails with {@link CrossSegmentKeysException} before anything is sent; an absent source fails with
     * {@link ZarisNoSuchKeyException}. Not repeated once it may have been applied: a repeat would find the source gone
     * and answer "no such key" for a rename it made, so an unknown outcome fails with the transport fault or timeout.
     */
    public CompletableFuture<Void> rename(String source, String destination) {
        return anyType.rename(source, destination);
    }

    /**
     * As {@link #rename}, only when {@code destination} is absent (RENAMENX); completes with whether it renamed. Not
     * repeated once it may have been applied (a repeat would find the source gone).
     */
    public CompletableFuture<Boolean> renameIfAbsent(String source, String destination) {
        return anyType.renameIfAbsent(source, destination);
    }

    // ------------------------------------------------------------------ hashes

    /**
     * Sets fields of the hash at the key (creating it; a hash keeps its TTL) and completes with how many fields were
     * new. One request, applied atomically by the key's active owner and replicated field by field. Retried like an
     * idempotent write: after an unanswered attempt the data is the same, but the count is what the retry added.
     * A key holding a string fails with {@code WRONG_TYPE}.
     */
    public CompletableFuture<Long> hashSet(String key, Map<String, byte[]> fields) {
        return hashes.hashSet(key, fields);
    }

    /** The value of a field of the hash at the key, or {@code null} when the field or the key is absent. */
    public CompletableFuture<byte[]> hashGet(String key, String field) {
        return hashes.hashGet(key, field);
    }

    /**
     * Every field of the hash at the key with its value, in the order the fields were first set (past 128 fields, the
     * server's table order); empty when absent.
     */
    public CompletableFuture<Map<String, byte[]>> hashGetAll(String key) {
        return hashes.hashGetAll(key);
    }

    /** Removes fields of the hash at the key (the hash goes with its last field); completes with how many were there. */
    public CompletableFuture<Long> hashDelete(String key, String... fields) {
        return hashes.hashDelete(key, fields);
    }

    /**
     * Atomically adds {@code delta} to the decimal integer in a field of the hash at the key (absent counts as 0)
     * and completes with the new value; a field that is not an integer fails with {@code WRONG_TYPE}. Not retried
     * once it may have been applied, like {@link #increment}.
     */
    public CompletableFuture<Long> hashIncrement(String key, String field, long delta) {
        return hashes.hashIncrement(key, field, delta);
    }

    /**
     * As {@link #hashIncrement}, completing with the version of the change as well as the field's new value: the
     * revision a lost ASYNC write is named by ({@link LostWrite#revision()}).
     */
    public CompletableFuture<CounterValue> hashIncrementVersioned(String key, String field, long delta) {
        return hashes.hashIncrementVersioned(key, field, delta);
    }

    /**
     * The values of several fields of the hash at the key, in one request (HMGET): the fields present, in the order
     * asked; empty when the key is absent.
     */
    public CompletableFuture<Map<String, byte[]>> hashGetMany(String key, String... fields) {
        return hashes.hashGetMany(key, fields);
    }

    /** Whether the hash at the key has the field ({@code false} when the key is absent). */
    public CompletableFuture<Boolean> hashContains(String key, String field) {
        return hashes.hashContains(key, field);
    }

    /**
     * The fields of the hash at the key, in the order they were first set (past 128 fields, the server's table order);
     * empty when the key is absent (HKEYS).
     */
    public CompletableFuture<Set<String>> hashFields(String key) {
        return hashes.hashFields(key);
    }

    /** How many fields the hash at the key holds (0 when the key is absent). */
    public CompletableFuture<Long> hashSize(String key) {
        return hashes.hashSize(key);
    }

    /**
     * Sets a field of the hash at the key only when the field is absent (HSETNX; the hash is created when the key is
     * absent) and completes with whether it did. Not repeated once it may have been applied, like
     * {@link #putIfAbsent}: a repeat would find its own write and answer {@code false}.
     */
    public CompletableFuture<Boolean> hashSetIfAbsent(String key, String field, byte[] value) {
        return hashes.hashSetIfAbsent(key, field, value);
    }

    /**
     * The values of the hash at the key, in the order their fields were first set (past 128 fields, the server's table
     * order); empty when the key is absent (HVALS).
     */
    public CompletableFuture<List<byte[]>> hashValues(String key) {
        return hashes.hashValues(key);
    }

    /**
     * The length in bytes of a field's value (HSTRLEN), 0 when the field or the key is absent. Read as {@link #hashGet}
     * reads (the node has no length-only read), so the value travels.
     */
    public CompletableFuture<Long> hashValueLength(String key, String field) {
        return hashes.hashValueLength(key, field);
    }

    /**
     * Atomically adds {@code delta} to the decimal number in a field of the hash at the key (absent counts as 0;
     * HINCRBYFLOAT) and completes with the new value. The field keeps Redis's text of the sum, computed in Redis's
     * long-double precision; the answer is that text read as a double. A delta that is NaN or infinite is refused before
     * sending; a field that is not a number, or a sum out of range, fails with {@code WRONG_TYPE}. Not retried once it
     * may have been applied, like {@link #hashIncrement}.
     */
    public CompletableFuture<Double> hashIncrementFloat(String key, String field, double delta) {
        return hashes.hashIncrementFloat(key, field, delta);
    }

    /**
     * The fields of the hash at the key whose names match the glob {@code pattern} (HSCAN … MATCH; {@code *},
     * {@code ?}, {@code [a-z]}, {@code \x} as Redis reads them, over the field's UTF-8 bytes; {@code null}: every field),
     * with their values, in the order the fields were first set (past 128 fields, the server's table order); empty when
     * the key is absent. One read of the whole hash, filtered here: the answer is the RESP port's HSCAN with cursor 0,
     * every match at once, and every field travels whatever the pattern, so a large hash costs as {@link #hashGetAll}
     * does.
     */
    public CompletableFuture<Map<String, byte[]>> hashScan(String key, String pattern) {
        return hashes.hashScan(key, pattern);
    }

    /**
     * Fields of the hash at the key picked at random on its owner (HRANDFIELD key count): up to {@code count} distinct
     * ones, or, for a negative count, exactly {@code -count} that may repeat; empty when the key is absent. A count below
     * {@code -1,000,000} (the node's bound on an answer built whole) is refused before sending.
     */
    public CompletableFuture<List<String>> hashRandomFields(String key, int count) {
        return hashes.hashRandomFields(key, count);
    }

    /**
     * As {@link #hashRandomFields}, each field with its value (HRANDFIELD key count WITHVALUES); a negative count may
     * repeat a field, so the answer is a list of entries, not a map.
     */
    public CompletableFuture<List<Map.Entry<String, byte[]>>> hashRandomEntries(String key, int count) {
        return hashes.hashRandomEntries(key, count);
    }

    // ------------------------------------------------------------------ sets

    /**
     * Adds members to the set at the key (creating it; a set keeps its TTL) and completes with how many were new. One
     * request, applied atomically by the key's active owner and replicated member by member. Retried like an
     * idempotent write: after an unanswered attempt the set is the same, but the count is what the retry added. A key
     * holding a string or a hash fails with {@code WRONG_TYPE}.
     */
    public CompletableFuture<Long> setAdd(String key, String... members) {
        return sets.setAdd(key, members);
    }

    /** Removes members of the set at the key (the set goes with its last member); completes with how many were there. */
    public CompletableFuture<Long> setRemove(String key, String... members) {
        return sets.setRemove(key, members);
    }

    /**
     * Every member of the set at the key, in the order they were first added (past 128 members, the server's table
     * order); empty when the key is absent.
     */
    public CompletableFuture<Set<String>> setMembers(String key) {
        return sets.setMembers(key);
    }

    /** Whether the set at the key holds the member ({@code false} when the key is absent). */
    public CompletableFuture<Boolean> setContains(String key, String member) {
        return sets.setContains(key, member);
    }

    /** How many members the set at the key holds (0 when the key is absent). */
    public CompletableFuture<Long> setSize(String key) {
        return sets.setSize(key);
    }

    /**
     * Removes up to {@code count} members of the set at the key, chosen at random, and completes with them (SPOP; the
     * set goes with its last member); empty when the key is absent. Not repeated once it may have been applied (a
     * repeat would remove others).
     */
    public CompletableFuture<Set<String>> setPop(String key, int count) {
        return sets.setPop(key, count);
    }

    /**
     * Members of the set at the key chosen at random, leaving the set as it is (SRANDMEMBER): up to {@code count}
     * distinct ones, or, for a negative count, exactly {@code -count} that may repeat; empty when the key is absent.
     */
    public CompletableFuture<List<String>> setRandomMembers(String key, int count) {
        return sets.setRandomMembers(key, count);
    }

    /** The members every one of the sets at the keys holds (SINTER; an absent key is an empty set). Keys of one segment. */
    public CompletableFuture<Set<String>> setIntersection(String... keys) {
        return sets.setIntersection(keys);
    }

    /** The members any of the sets at the keys holds (SUNION; an absent key is an empty set). Keys of one segment. */
    public CompletableFuture<Set<String>> setUnion(String... keys) {
        return sets.setUnion(keys);
    }

    /** The members of the first key's set that none of the others holds (SDIFF). Keys of one segment. */
    public CompletableFuture<Set<String>> setDifference(String... keys) {
        return sets.setDifference(keys);
    }

    /**
     * Stores {@link #setIntersection} of the keys at {@code destination} (SINTERSTORE), replacing whatever it held (of
     * any type, and its TTL; an empty result leaves it absent), and completes with the result's size. The destination
     * shares the keys' segment.
     */
    public CompletableFuture<Long> setIntersectionStore(String destination, String... keys) {
        return sets.setIntersectionStore(destination, keys);
    }

    /** As {@link #setIntersectionStore}, storing {@link #setUnion} (SUNIONSTORE). */
    public CompletableFuture<Long> setUnionStore(String destination, String... keys) {
        return sets.setUnionStore(destination, keys);
    }

    /** As {@link #setIntersectionStore}, storing {@link #setDifference} (SDIFFSTORE). */
    public CompletableFuture<Long> setDifferenceStore(String destination, String... keys) {
        return sets.setDifferenceStore(destination, keys);
    }

    /**
     * Whether the set at the key holds each of several members, in one request (SMISMEMBER): one answer per member, in
     * the order asked; all {@code false} when the key is absent.
     */
    public CompletableFuture<List<Boolean>> setContainsMany(String key, String... members) {
        return sets.setContainsMany(key, members);
    }

    /**
     * Moves {@code member} from the set at {@code source} to the set at {@code destination} in one step on their owner
     * (SMOVE; the destination is created when absent and keeps its TTL, the source goes with its last member) and
     * completes with whether the member was in the source. Both keys share one segment (a common {@code {hash tag}}).
     * Not repeated once it may have been applied: a repeat would answer {@code false} for a move it made.
     */
    public CompletableFuture<Boolean> setMove(String source, String destination, String member) {
        return sets.setMove(source, destination, member);
    }

    /** How many members every one of the sets at the keys holds (SINTERCARD without LIMIT). Keys of one segment. */
    public CompletableFuture<Long> setIntersectionSize(String... keys) {
        return sets.setIntersectionSize(keys);
    }

    /**
     * How many members every one of the sets at the keys holds, counting at most {@code limit} (SINTERCARD … LIMIT;
     * 0: no limit). Read as {@link #setIntersection} reads: a request per key, combined here. Keys of one segment.
     */
    public CompletableFuture<Long> setIntersectionSize(long limit, String... keys) {
        return sets.setIntersectionSize(limit, keys);
    }

    /**
     * The members of the set at the key that match the glob {@code pattern} (SSCAN … MATCH, read as {@link #hashScan}
     * reads: one read of the whole set, filtered here; {@code null}: every member), in the order first added (past 128
     * members, the server's table order); empty when the key is absent.
     */
    public CompletableFuture<Set<String>> setScan(String key, String pattern) {
        return sets.setScan(key, pattern);
    }

    // ------------------------------------------------------------------ lists

    /**
     * Pushes elements at one end of the list at the key (creating it; a list keeps its TTL), one after the other, and
     * completes with the list's length after. One request, applied atomically by the key's active owner and replicated
     * element by element. Not repeated once it may have been applied (a repeat would push twice), like
     * {@link #increment}. A key holding another type fails with {@code WRONG_TYPE}.
     */
    public CompletableFuture<Long> listPush(String key, ListEnd end, byte[]... elements) {
        return lists.listPush(key, end, elements);
    }

    /**
     * Removes and returns up to {@code count} elements from one end of the list at the key, nearest the end first
     * (the list goes with its last element); empty when the key is absent. Not repeated once it may have been applied.
     */
    public CompletableFuture<List<byte[]>> listPop(String key, ListEnd end, int count) {
        return lists.listPop(key, end, count);
    }

    /** The elements from {@code start} to {@code stop}, inclusive, negative indexes counting from the end (as LRANGE). */
    public CompletableFuture<List<byte[]>> listRange(String key, long start, long stop) {
        return lists.listRange(key, start, stop);
    }

    /** How many elements the list at the key holds (0 when the key is absent). */
    public CompletableFuture<Long> listLength(String key) {
        return lists.listLength(key);
    }

    /**
     * The element at {@code index} of the list at the key (negative counts from the end, as LINDEX), or {@code null}
     * when the index is out of range or the key is absent.
     */
    public CompletableFuture<byte[]> listIndex(String key, long index) {
        return lists.listIndex(key, index);
    }

    /**
     * Replaces the element at {@code index} (negative counts from the end, as LSET). A key that is absent fails with
     * {@code BAD_REQUEST} ("no such key"), an index out of range with {@code BAD_REQUEST} ("index out of range").
     * Retried like an idempotent write: a repeat sets the same element again.
     */
    public CompletableFuture<Void> listSet(String key, long index, byte[] element) {
        return lists.listSet(key, index, element);
    }

    /**
     * Keeps only the elements from {@code start} to {@code stop}, inclusive, negative indexes counting from the end (as
     * LTRIM); a range that keeps nothing removes the key. Not repeated once it may have been applied (a repeat would
     * trim the trimmed list again).
     */
    public CompletableFuture<Void> listTrim(String key, long start, long stop) {
        return lists.listTrim(key, start, stop);
    }

    /**
     * Removes elements equal to {@code element} (LREM): the first {@code count} from the head when {@code count > 0},
     * the last {@code -count} from the tail when it is negative, every one when it is 0; completes with how many went.
     * Retried like an idempotent write only with a count of 0 (a repeat removes nothing more); otherwise not repeated
     * once it may have been applied.
     */
    public CompletableFuture<Long> listRemove(String key, long count, byte[] element) {
        return lists.listRemove(key, count, element);
    }

    /**
     * Pops the element at {@code from}'s end of the list at {@code source} and pushes it at {@code to}'s end of the
     * list at {@code destination}, in one step on the keys' owner (LMOVE; the same key rotates its list), and completes
     * with the element, or {@code null} when the source is absent. Both keys share one segment (a common
     * {@code {hash tag}}). Not repeated once it may have been applied (a repeat would move a second element).
     */
    public CompletableFuture<byte[]> listMove(String source, String destination, ListEnd from, ListEnd to) {
        return lists.listMove(source, destination, from, to);
    }

    /**
     * Pops one element from {@code end} of the list at the key, waiting up to {@code timeout} for one to arrive (as
     * BLPOP and BRPOP on one key); completes with the element, or {@code null} when the timeout passed first.
     *
     * <p>The native protocol has no request that waits on the node, so the client looks: it reads the list's length
     * and pops only when it saw an element, first after 5 ms, then less often while the list stays empty, never more
     * than 100 ms apart ({@link PopPollDelay}). Each look is an ordinary operation, routed and retried like any other,
     * so the wait goes on across a failover or a planned move of the key's partition: a length read is retried
     * whatever happened, the pop itself is not repeated once it may have been applied (see {@link #listPop}). A look
     * under way when the timeout passes is waited for, so an element it popped is returned, never dropped. Another
     * consumer may take the element between the read and the pop; this one then keeps waiting.
     */
    public CompletableFuture<byte[]> listBlockingPop(String key, ListEnd end, Duration timeout) {
        return lists.listBlockingPop(key, end, timeout);
    }

    /**
     * Pops one element from {@code end} of the first of {@code keys}, in their order, that holds a list, waiting up to
     * {@code timeout} for one to (BLPOP and BRPOP on several keys); completes with the element and its key, or
     * {@code null} when the timeout passed first. The keys share one segment (a common {@code {hash tag}}).
     *
     * <p>Waits as {@link #listBlockingPop(String, ListEnd, Duration)} does: each look reads every key's length, and only
     * when one holds an element pops, with one LMPOP on the keys' owner that takes from the first key holding a list
     * then (so the order of the keys decides, as in Redis, even when the lists changed since the read). A key of another
     * type among them fails the wait with {@code WRONG_TYPE} at the first look.
     */
    public CompletableFuture<PoppedElement> listBlockingPop(List<String> keys, ListEnd end, Duration timeout) {
        return lists.listBlockingPop(keys, end, timeout);
    }

    /**
     * Pops up to {@code count} elements from {@code end} of the first of {@code keys}, in their order, that holds a list
     * (LMPOP), in one step on the keys' owner, nearest the end first; completes with them and their key, or
     * {@code null} when no key holds a list. The keys share one segment (a common {@code {hash tag}}); a count below 1
     * is refused before sending. A key of another type met before the first list fails with {@code WRONG_TYPE}, as in
     * Redis. Not repeated once it may have been applied, like {@link #listPop(String, ListEnd, int)}.
     */
    public CompletableFuture<PoppedElements> listPop(List<String> keys, ListEnd end, int count) {
        return lists.listPop(keys, end, count);
    }

    /**
     * {@link #listPop(List, ListEnd, int)}, waiting up to {@code timeout} for one of the keys to hold a list (BLMPOP);
     * completes with the elements popped and their key, or {@code null} when the timeout passed first. Waits as
     * {@link #listBlockingPop(List, ListEnd, Duration)} does: a look reads every key's length and pops only when one
     * holds an element.
     */
    public CompletableFuture<PoppedElements> listBlockingPop(List<String> keys, ListEnd end, int count, Duration timeout) {
        return lists.listBlockingPop(keys, end, count, timeout);
    }

    /**
     * {@link #listMove}, waiting up to {@code timeout} for the source to hold an element (BLMOVE); completes with the
     * element moved, or {@code null} when the timeout passed first. Both keys share one segment. Waits as
     * {@link #listBlockingPop(String, ListEnd, Duration)} does: a look reads the source's length and moves only when it
     * saw an element; the move, like {@link #listMove}, is not repeated once it may have been applied.
     */
    public CompletableFuture<byte[]> listBlockingMove(String source, String destination, ListEnd from, ListEnd to,
                                                      Duration timeout) {
        return lists.listBlockingMove(source, destination, from, to, timeout);
    }

    /**
     * Pushes elements at one end of the list at the key only when the key holds a list (LPUSHX, RPUSHX), and completes
     * with the length after, 0 when the key is absent (nothing pushed). Not repeated once it may have been applied.
     */
    public CompletableFuture<Long> listPushIfExists(String key, ListEnd end, byte[]... elements) {
        return lists.listPushIfExists(key, end, elements);
    }

    /**
     * Inserts {@code element} just before or after the first element equal to {@code pivot} (LINSERT) and completes with
     * the list's length after; −1 when no element equals the pivot, 0 when the key is absent. Not repeated once it may
     * have been applied.
     */
    public CompletableFuture<Long> listInsert(String key, InsertPosition position, byte[] pivot, byte[] element) {
        return lists.listInsert(key, position, pivot, element);
    }

    /** The index of the first element equal to {@code element} (LPOS), or {@code null} when none is (or no key). */
    public CompletableFuture<Long> listPosition(String key, byte[] element) {
        return lists.listPosition(key, element);
    }

    /**
     * The index of the match {@code options} name (LPOS … RANK … MAXLEN …; indexes count from the head whichever way the
     * search goes), or {@code null} when there is none.
     */
    public CompletableFuture<Long> listPosition(String key, byte[] element, ListPositionOptions options) {
        return lists.listPosition(key, element, options);
    }

    /**
     * The indexes of up to {@code count} matches (LPOS … COUNT; 0 for every match), from the one {@code options} name,
     * in the order the search found them; empty when there is none.
     */
    public CompletableFuture<List<Long>> listPositions(String key, byte[] element, long count, ListPositionOptions options) {
        return lists.listPositions(key, element, count, options);
    }

    // ------------------------------------------------------------------ sorted sets

    /**
     * Gives each member its score in the sorted set at the key (creating it; a sorted set keeps its TTL) and completes
     * with how many members were new. One request, applied atomically by the key's active owner and replicated member
     * by member with each resulting score. Retried like an idempotent write: a retry leaves the same scores, its count
     * is what the retry added. A NaN score is refused here; a key of another type fails with {@code WRONG_TYPE}.
     */
    public CompletableFuture<Long> sortedSetAdd(String key, Map<String, Double> scores) {
        return sortedSets.sortedSetAdd(key, scores);
    }

    /**
     * Adds {@code delta} to the member's score (0 when absent) and completes with the new score, as ZINCRBY. Not
     * idempotent, so it is not retried after an unanswered attempt; a sum that is NaN (∞ − ∞) fails with
     * {@code BAD_REQUEST}.
     */
    public CompletableFuture<Double> sortedSetIncrement(String key, String member, double delta) {
        return sortedSets.sortedSetIncrement(key, member, delta);
    }

    /** The member's score, or {@code null} when the member or the key is absent. */
    public CompletableFuture<Double> sortedSetScore(String key, String member) {
        return sortedSets.sortedSetScore(key, member);
    }

    /**
     * The member's rank (0 for the lowest score; for the highest when {@code reverse}), or {@code null} when the member
     * or the key is absent.
     */
    public CompletableFuture<Long> sortedSetRank(String key, String member, boolean reverse) {
        return sortedSets.sortedSetRank(key, member, reverse);
    }

    /**
     * The members ranked {@code start} to {@code stop} (inclusive; negative ranks count from the highest, as
     * ZRANGE's) with their scores, lowest first; empty when the key is absent.
     */
    public CompletableFuture<List<ScoredMember>> sortedSetRange(String key, long start, long stop) {
        return sortedSets.sortedSetRange(key, start, stop);
    }

    /** The members whose scores lie within {@code min} and {@code max} (inclusive, may be infinite), lowest first. */
    public CompletableFuture<List<ScoredMember>> sortedSetRangeByScore(String key, double min, double max) {
        return sortedSets.sortedSetRangeByScore(key, min, max);
    }

    /** Removes members of the sorted set at the key (it goes with its last member); completes with how many were there. */
    public CompletableFuture<Long> sortedSetRemove(String key, String... members) {
        return sortedSets.sortedSetRemove(key, members);
    }

    /** How many members the sorted set at the key holds (0 when the key is absent). */
    public CompletableFuture<Long> sortedSetSize(String key) {
        return sortedSets.sortedSetSize(key);
    }

    /** As {@link #sortedSetRange}, ranks counted from the highest score: rank 0 is the highest, listed first (ZREVRANGE). */
    public CompletableFuture<List<ScoredMember>> sortedSetReverseRange(String key, long start, long stop) {
        return sortedSets.sortedSetReverseRange(key, start, stop);
    }

    /** As {@link #sortedSetRangeByScore}, highest score first (ZREVRANGEBYSCORE, with the bounds given lowest first). */
    public CompletableFuture<List<ScoredMember>> sortedSetReverseRangeByScore(String key, double min, double max) {
        return sortedSets.sortedSetReverseRangeByScore(key, min, max);
    }

    /** How many members have a score within {@code min} and {@code max}, inclusive (ZCOUNT; 0 when the key is absent). */
    public CompletableFuture<Long> sortedSetCount(String key, double min, double max) {
        return sortedSets.sortedSetCount(key, min, max);
    }

    /**
     * Removes the members whose scores lie within {@code min} and {@code max}, inclusive (ZREMRANGEBYSCORE; the sorted
     * set goes with its last member), and completes with how many went. Retried like an idempotent write: a repeat
     * removes what is in the range then.
     */
    public CompletableFuture<Long> sortedSetRemoveRangeByScore(String key, double min, double max) {
        return sortedSets.sortedSetRemoveRangeByScore(key, min, max);
    }

    /**
     * Removes and returns up to {@code count} members with the lowest scores, lowest first (ZPOPMIN; the sorted set goes
     * with its last member); empty when the key is absent. Not repeated once it may have been applied.
     */
    public CompletableFuture<List<ScoredMember>> sortedSetPopMin(String key, int count) {
        return sortedSets.sortedSetPopMin(key, count);
    }

    /** As {@link #sortedSetPopMin}, from the highest scores, highest first (ZPOPMAX). */
    public CompletableFuture<List<ScoredMember>> sortedSetPopMax(String key, int count) {
        return sortedSets.sortedSetPopMax(key, count);
    }

    /**
     * ZADD with conditions: gives each member its score in the sorted set at the key as {@code options} allow (only new
     * members, only existing ones, only a higher or a lower score) and completes with how many members were added, or
     * added and changed when {@link SortedSetAddOptions#countChanged}. Decided by the key's active owner in one step;
     * retried like {@link #sortedSetAdd(String, Map)}: a repeat leaves the same scores (a condition met once is not met
     * again by the same score), its count is what the repeat changed.
     */
    public CompletableFuture<Long> sortedSetAdd(String key, Map<String, Double> scores, SortedSetAddOptions options) {
        return sortedSets.sortedSetAdd(key, scores, options);
    }

    /**
     * ZADD with INCR and conditions: adds {@code delta} to the member's score (0 when absent) as {@code options} allow
     * and completes with the new score, or {@code null} when a condition kept the member as it was. Not retried once it
     * may have been applied, like {@link #sortedSetIncrement(String, String, double)}.
     */
    public CompletableFuture<Double> sortedSetIncrement(String key, String member, double delta,
                                                        SortedSetAddOptions options) {
        return sortedSets.sortedSetIncrement(key, member, delta, options);
    }

    /**
     * The scores of several members in one request (ZMSCORE): the members present, in the order asked, with their
     * scores; empty when the key is absent.
     */
    public CompletableFuture<Map<String, Double>> sortedSetScores(String key, String... members) {
        return sortedSets.sortedSetScores(key, members);
    }

    /**
     * The members whose scores lie between {@code min} and {@code max} (each inclusive, exclusive or unbounded), lowest
     * first, the part {@code limit} names (ZRANGEBYSCORE … LIMIT).
     */
    public CompletableFuture<List<ScoredMember>> sortedSetRangeByScore(String key, ScoreBound min, ScoreBound max,
                                                                       RangeLimit limit) {
        return sortedSets.sortedSetRangeByScore(key, min, max, limit);
    }

    /** As {@link #sortedSetRangeByScore(String, ScoreBound, ScoreBound, RangeLimit)}, highest first (ZREVRANGEBYSCORE). */
    public CompletableFuture<List<ScoredMember>> sortedSetReverseRangeByScore(String key, ScoreBound min, ScoreBound max,
                                                                              RangeLimit limit) {
        return sortedSets.sortedSetReverseRangeByScore(key, min, max, limit);
    }

    /** How many members have a score between {@code min} and {@code max} (ZCOUNT with exclusive or open ends). */
    public CompletableFuture<Long> sortedSetCount(String key, ScoreBound min, ScoreBound max) {
        return sortedSets.sortedSetCount(key, min, max);
    }

    /**
     * Removes the members whose scores lie between {@code min} and {@code max} (ZREMRANGEBYSCORE with exclusive or open
     * ends) and completes with how many went; retried like an idempotent write.
     */
    public CompletableFuture<Long> sortedSetRemoveRangeByScore(String key, ScoreBound min, ScoreBound max) {
        return sortedSets.sortedSetRemoveRangeByScore(key, min, max);
    }

    /**
     * The members between {@code min} and {@code max} in member order (ZRANGEBYLEX … LIMIT): members compare as their
     * UTF-8 bytes, which orders the members of a sorted set whose scores are all equal.
     */
    public CompletableFuture<List<String>> sortedSetRangeByLex(String key, LexBound min, LexBound max, RangeLimit limit) {
        return sortedSets.sortedSetRangeByLex(key, min, max, limit);
    }

    /** As {@link #sortedSetRangeByLex}, from the last member back (ZREVRANGEBYLEX, with the bounds given lowest first). */
    public CompletableFuture<List<String>> sortedSetReverseRangeByLex(String key, LexBound min, LexBound max,
                                                                      RangeLimit limit) {
        return sortedSets.sortedSetReverseRangeByLex(key, min, max, limit);
    }

    /** How many members lie between {@code min} and {@code max} in member order (ZLEXCOUNT). */
    public CompletableFuture<Long> sortedSetLexCount(String key, LexBound min, LexBound max) {
        return sortedSets.sortedSetLexCount(key, min, max);
    }

    /**
     * Removes the members between {@code min} and {@code max} in member order (ZREMRANGEBYLEX) and completes with how
     * many went; retried like an idempotent write (a repeat removes what lies in the interval then).
     */
    public CompletableFuture<Long> sortedSetRemoveRangeByLex(String key, LexBound min, LexBound max) {
        return sortedSets.sortedSetRemoveRangeByLex(key, min, max);
    }

    /**
     * Removes the members ranked {@code start} to {@code stop} (inclusive, lowest score first; negative ranks count from
     * the highest, ZREMRANGEBYRANK) and completes with how many went. Not repeated once it may have been applied: a
     * repeat would remove the members ranked so afterwards.
     */
    public CompletableFuture<Long> sortedSetRemoveRangeByRank(String key, long start, long stop) {
        return sortedSets.sortedSetRemoveRangeByRank(key, start, stop);
    }

    /**
     * The members any of the sorted sets at the keys holds, each with the sum of its scores, lowest first (ZUNION …
     * WITHSCORES; a set's members score 1, an absent key is empty). Keys of one segment.
     */
    public CompletableFuture<List<ScoredMember>> sortedSetUnion(String... keys) {
        return sortedSets.sortedSetUnion(keys);
    }

    /** As {@link #sortedSetUnion(String...)}, the scores weighted and combined as {@code options} say (WEIGHTS, AGGREGATE). */
    public CompletableFuture<List<ScoredMember>> sortedSetUnion(SortedSetCombineOptions options, String... keys) {
        return sortedSets.sortedSetUnion(options, keys);
    }

    /** The members every one of the sorted sets at the keys holds, scores summed, lowest first (ZINTER). */
    public CompletableFuture<List<ScoredMember>> sortedSetIntersection(String... keys) {
        return sortedSets.sortedSetIntersection(keys);
    }

    /** As {@link #sortedSetIntersection(String...)}, the scores weighted and combined as {@code options} say. */
    public CompletableFuture<List<ScoredMember>> sortedSetIntersection(SortedSetCombineOptions options, String... keys) {
        return sortedSets.sortedSetIntersection(options, keys);
    }

    /** The members of the first key's sorted set that none of the others holds, with their scores, lowest first (ZDIFF). */
    public CompletableFuture<List<ScoredMember>> sortedSetDifference(String... keys) {
        return sortedSets.sortedSetDifference(keys);
    }

    /**
     * Stores {@link #sortedSetUnion(String...)} of the keys at {@code destination} (ZUNIONSTORE), replacing whatever it
     * held (of any type, and its TTL; an empty result leaves it absent), in one step on their owner, and completes with
     * the result's size. The destination shares the keys' segment. Retried like an idempotent write (a repeat stores
     * the same result) unless the destination is among the keys: a repeat would then combine its own result again, so
     * it is not repeated once it may have been applied.
     */
    public CompletableFuture<Long> sortedSetUnionStore(String destination, String... keys) {
        return sortedSets.sortedSetUnionStore(destination, keys);
    }

    /** As {@link #sortedSetUnionStore(String, String...)}, the scores weighted and combined as {@code options} say. */
    public CompletableFuture<Long> sortedSetUnionStore(String destination, SortedSetCombineOptions options, String... keys) {
        return sortedSets.sortedSetUnionStore(destination, options, keys);
    }

    /** As {@link #sortedSetUnionStore(String, String...)}, storing {@link #sortedSetIntersection(String...)} (ZINTERSTORE). */
    public CompletableFuture<Long> sortedSetIntersectionStore(String destination, String... keys) {
        return sortedSets.sortedSetIntersectionStore(destination, keys);
    }

    /** As {@link #sortedSetIntersectionStore(String, String...)}, the scores weighted and combined as {@code options} say. */
    public CompletableFuture<Long> sortedSetIntersectionStore(String destination, SortedSetCombineOptions options,
                                                              String... keys) {
        return sortedSets.sortedSetIntersectionStore(destination, options, keys);
    }

    /** As {@link #sortedSetUnionStore(String, String...)}, storing {@link #sortedSetDifference} (ZDIFFSTORE). */
    public CompletableFuture<Long> sortedSetDifferenceStore(String destination, String... keys) {
        return sortedSets.sortedSetDifferenceStore(destination, keys);
    }

    /** How many members every one of the sorted sets at the keys holds (ZINTERCARD without LIMIT). Keys of one segment. */
    public CompletableFuture<Long> sortedSetIntersectionSize(String... keys) {
        return sortedSets.sortedSetIntersectionSize(keys);
    }

    /**
     * How many members every one of the sorted sets at the keys holds, counting at most {@code limit} (ZINTERCARD …
     * LIMIT; 0: no limit). The owner computes the intersection in one step and this client counts it, as the RESP
     * port's ZINTERCARD does. Keys of one segment.
     */
    public CompletableFuture<Long> sortedSetIntersectionSize(long limit, String... keys) {
        return sortedSets.sortedSetIntersectionSize(limit, keys);
    }

    /**
     * Stores the members of the sorted set at {@code source} ranked {@code start} to {@code stop} (as
     * {@link #sortedSetRange}) with their scores at {@code destination} (ZRANGESTORE), replacing whatever it held (of any
     * type, and its TTL; an empty range leaves it absent), and completes with how many members it stored. Both keys
     * share one segment (a common {@code {hash tag}}).
     *
     * <p>Two steps on their owner, as {@link #setIntersectionStore} is: the range is read, then the destination
     * replaced by it in one write (a RESTORE … REPLACE of the members, or a delete of an empty range), each retried as
     * an idempotent step; a write to the source between the two is not in the stored range. The stored range travels
     * as one value, so it is bounded by the nodes' largest value ({@code TOO_LARGE} beyond).
     */
    public CompletableFuture<Long> sortedSetRangeStore(String destination, String source, long start, long stop) {
        return sortedSets.sortedSetRangeStore(destination, source, start, stop);
    }

    /** As {@link #sortedSetRangeStore}, ranks counted from the highest score (ZRANGESTORE … REV). */
    public CompletableFuture<Long> sortedSetReverseRangeStore(String destination, String source, long start, long stop) {
        return sortedSets.sortedSetReverseRangeStore(destination, source, start, stop);
    }

    /**
     * As {@link #sortedSetRangeStore}, storing the members whose scores lie between {@code min} and {@code max}, the
     * part {@code limit} names (ZRANGESTORE … BYSCORE [LIMIT]).
     */
    public CompletableFuture<Long> sortedSetRangeByScoreStore(String destination, String source, ScoreBound min,
                                                              ScoreBound max, RangeLimit limit) {
        return sortedSets.sortedSetRangeByScoreStore(destination, source, min, max, limit);
    }

    /**
     * As {@link #sortedSetRangeByScoreStore}, the range taken from the highest score down (ZRANGESTORE … BYSCORE REV,
     * with the bounds given lowest first), so {@code limit} counts from the top.
     */
    public CompletableFuture<Long> sortedSetReverseRangeByScoreStore(String destination, String source, ScoreBound min,
                                                                     ScoreBound max, RangeLimit limit) {
        return sortedSets.sortedSetReverseRangeByScoreStore(destination, source, min, max, limit);
    }

    /**
     * As {@link #sortedSetRangeStore}, storing the members between {@code min} and {@code max} in member order, the part
     * {@code limit} names (ZRANGESTORE … BYLEX [LIMIT]), with their scores.
     */
    public CompletableFuture<Long> sortedSetRangeByLexStore(String destination, String source, LexBound min, LexBound max,
                                                            RangeLimit limit) {
        return sortedSets.sortedSetRangeByLexStore(destination, source, min, max, limit);
    }

    /** As {@link #sortedSetRangeByLexStore}, the range taken from the last member back (ZRANGESTORE … BYLEX REV). */
    public CompletableFuture<Long> sortedSetReverseRangeByLexStore(String destination, String source, LexBound min,
                                                                   LexBound max, RangeLimit limit) {
        return sortedSets.sortedSetReverseRangeByLexStore(destination, source, min, max, limit);
    }

    /**
     * Pops the member with the lowest score from the first of {@code keys}, in their order, that holds a sorted set,
     * waiting up to {@code timeout} for one to (BZPOPMIN); completes with the member and its key, or {@code null} when
     * the timeout passed first. The keys share one segment (a common {@code {hash tag}}).
     *
     * <p>Waits as {@link #listBlockingPop(List, ListEnd, Duration)} does: each look reads every key's size, and only when
     * one holds a member pops, with one ZMPOP on the keys' owner that takes from the first key holding a sorted set then.
     * The pop is not repeated once it may have been applied; a key of another type fails the wait with
     * {@code WRONG_TYPE} at the first look.
     */
    public CompletableFuture<PoppedMember> sortedSetBlockingPopMin(List<String> keys, Duration timeout) {
        return sortedSets.sortedSetBlockingPopMin(keys, timeout);
    }

    /** As {@link #sortedSetBlockingPopMin}, the member with the highest score (BZPOPMAX). */
    public CompletableFuture<PoppedMember> sortedSetBlockingPopMax(List<String> keys, Duration timeout) {
        return sortedSets.sortedSetBlockingPopMax(keys, timeout);
    }

    /**
     * Pops up to {@code count} members with the lowest scores from the first of {@code keys}, in their order, that holds
     * a sorted set (ZMPOP … MIN COUNT count), in one step on the keys' owner, lowest first; completes with them and their
     * key, or {@code null} when no key holds a sorted set. The keys share one segment (a common {@code {hash tag}}); a
     * count below 1 is refused before sending. A key of another type met before the first sorted set fails with
     * {@code WRONG_TYPE}, as in Redis. Not repeated once it may have been applied, like {@link #sortedSetPopMin(String, int)}.
     */
    public CompletableFuture<PoppedMembers> sortedSetPopMin(List<String> keys, int count) {
        return sortedSets.sortedSetPopMin(keys, count);
    }

    /** As {@link #sortedSetPopMin(List, int)}, the members with the highest scores, highest first (ZMPOP … MAX). */
    public CompletableFuture<PoppedMembers> sortedSetPopMax(List<String> keys, int count) {
        return sortedSets.sortedSetPopMax(keys, count);
    }

    /**
     * {@link #sortedSetPopMin(List, int)}, waiting up to {@code timeout} for one of the keys to hold a sorted set (BZMPOP
     * … MIN); completes with the members popped and their key, or {@code null} when the timeout passed first. Waits as
     * {@link #sortedSetBlockingPopMin(List, Duration)} does.
     */
    public CompletableFuture<PoppedMembers> sortedSetBlockingPopMin(List<String> keys, int count, Duration timeout) {
        return sortedSets.sortedSetBlockingPopMin(keys, count, timeout);
    }

    /** As {@link #sortedSetBlockingPopMin(List, int, Duration)}, the highest scores first (BZMPOP … MAX). */
    public CompletableFuture<PoppedMembers> sortedSetBlockingPopMax(List<String> keys, int count, Duration timeout) {
        return sortedSets.sortedSetBlockingPopMax(keys, count, timeout);
    }

    /**
     * The members of the sorted set at the key that match the glob {@code pattern}, with their scores, lowest score
     * first (ZSCAN … MATCH, read as {@link #hashScan} reads: one read of the whole sorted set, filtered here;
     * {@code null}: every member); empty when the key is absent.
     */
    public CompletableFuture<List<ScoredMember>> sortedSetScan(String key, String pattern) {
        return sortedSets.sortedSetScan(key, pattern);
    }

    /**
     * Members of the sorted set at the key picked at random on its owner (ZRANDMEMBER key count), by
     * {@link #hashRandomFields}'s count rule; empty when the key is absent.
     */
    public CompletableFuture<List<String>> sortedSetRandomMembers(String key, int count) {
        return sortedSets.sortedSetRandomMembers(key, count);
    }

    /** As {@link #sortedSetRandomMembers}, each member with its score (ZRANDMEMBER key count WITHSCORES). */
    public CompletableFuture<List<ScoredMember>> sortedSetRandomMembersWithScores(String key, int count) {
        return sortedSets.sortedSetRandomMembersWithScores(key, count);
    }

    // ------------------------------------------------------------------ keys of one segment, and scans

    /**
     * Reads several keys in one round trip. All keys must share one segment — give them a common
     * {@code {hash tag}}; absent keys are left out of the result.
     */
    public CompletableFuture<Map<String, VersionedValue>> getAll(Collection<String> keys) {
        List<String> names = List.copyOf(keys);
        List<byte[]> k = collections.commonSegmentKeys(names);
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
        List<byte[]> k = collections.commonSegmentKeys(names);
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
        List<byte[]> k = collections.commonSegmentKeys(names);
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
        List<byte[]> k = collections.commonSegmentKeys(List.copyOf(keys));
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
        }, 0, 0, options.requestTimeout().deadlineFrom(time.nanoTime()));
    }

    // ------------------------------------------------------------------ running operations

    /**
     * Runs one operation to completion through the {@link RequestExecutor}.
     *
     * @param idempotent whether repeating it after it may already have been applied is harmless
     */
    private <T> CompletableFuture<T> execute(OpCode op, byte[] routingKey, boolean idempotent,
                                             LongFunction<Request> requestFactory, ResponseReader<T> reader) {
        return execute(op, routingKey, idempotent, requestFactory, reader, null);
    }

    /**
     * Like {@link #execute(OpCode, byte[], boolean, LongFunction, ResponseReader)}; {@code onAnswer}, when given, hears
     * the answer that completes the operation (see {@link RequestExecutor#execute}). A write drops its key from the
     * near cache before it is sent and again once it is answered or failed, so this client reads its own writes.
     */
    private <T> CompletableFuture<T> execute(OpCode op, byte[] routingKey, boolean idempotent,
                                             LongFunction<Request> requestFactory, ResponseReader<T> reader,
                                             RequestExecutor.Answered<T> onAnswer) {
        requireTable();
        if (near != null && op.isWrite()) {
            List<byte[]> written = List.of(routingKey);
            forgetOwnWrite(written);
            CompletableFuture<T> result = executor.execute(op, routingKey, idempotent, requestFactory, reader, onAnswer);
            return result.whenComplete((value, error) -> forgetOwnWrite(written));
        }
        return executor.execute(op, routingKey, idempotent, requestFactory, reader, onAnswer);
    }

    /**
     * The seam the collection requests run through ({@link RequestRunner}): this client's own private steps, handed to
     * {@link CollectionRequests} and the structures' classes without making them public.
     */
    private final class Runner implements RequestRunner {

        @Override
        public <T> CompletableFuture<T> execute(OpCode op, byte[] routingKey, boolean idempotent,
                                                LongFunction<Request> requestFactory, ResponseReader<T> reader) {
            return ZarisClient.this.execute(op, routingKey, idempotent, requestFactory, reader);
        }

        @Override
        public void acknowledged(byte[] key, long revision, ByteBuf body) {
            ZarisClient.this.acknowledged(key, revision, body);
        }

        @Override
        public SegmentMapper segmentMapper() {
            return topology.segmentMapper();
        }

        @Override
        public void requireOpen() {
            requireTable();
        }

        @Override
        public void forgetOwnWrite(List<byte[]> keys) {
            ZarisClient.this.forgetOwnWrite(keys);
        }

        @Override
        public <T> CompletableFuture<T> forgetWhenDone(List<byte[]> keys, CompletableFuture<T> write) {
            return ZarisClient.this.forgetWhenDone(keys, write);
        }

        @Override
        public CompletableFuture<Boolean> delete(String key) {
            return ZarisClient.this.delete(key);
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
        return current.view().runtimeOfSegment(topology.segmentMapper().segmentOf(bytes(key))).activeNode();
    }

    /** Fetches the cluster map now (coalesced with any refresh in flight) and rebuilds the routing table. */
    public CompletableFuture<ClusterView> refreshMap() {
        return topology.refresh(RefreshTrigger.REACT).thenApply(ignored -> requireTable().view());
    }

    /** Full map fetches this client has made since it connected (bootstrap excluded), by poll or reaction. */
    public long mapFetchCount() {
        return topology.mapFetchCount();
    }

    /** The options this client was connected with. */
    public ZarisClientOptions options() {
        return options;
    }

    /** Fingerprint questions the periodic poll has asked (one node each). */
    long mapPollCount() {
        return topology.mapPollCount();
    }

    /** Blocking variants of every operation. */
    public BlockingZarisClient sync() {
        return blocking;
    }

    private RoutingTable requireTable() {
        if (closed) {
            throw new ZarisException("client is closed");
        }
        return topology.table();
    }

    // ------------------------------------------------------------------ helpers

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
        RoutingTable current = topology.table();
        SegmentMapper mapper = topology.segmentMapper();
        if (signedEpoch >= 0 || current == null || mapper == null) {
            return;
        }
        int segment = mapper.segmentOf(key);
        lostWrites.asyncAcknowledged(key, current.view().layout().partitionOf(segment), segment, -signedEpoch, revision);
    }

    /** Closes the executor (later attempts fail), the direct sockets and the keeper (poll and connections). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        executor.close();
        if (directPath != null) {
            directPath.close();
        }
        topology.close();
        watches.close();
    }
}
