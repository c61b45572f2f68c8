package io.zaris.client;

import static io.zaris.client.ClientFailures.reasonOf;
import static io.zaris.client.RequestInputs.bytes;
import static io.zaris.client.RequestInputs.requireValue;
import static io.zaris.client.RequestInputs.ttlMillis;

import io.zaris.model.AckMode;
import io.zaris.model.NodeAddress;
import io.zaris.model.VersionedValue;
import io.zaris.protocol.OpCode;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.ZarisStatusException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The blocking fast path: a blocking caller's GET, or PUT or DELETE without a condition, goes over a direct socket
 * ({@link DirectRequests}) to the key's owner under the current table, in one attempt, metered as the ordinary path
 * meters it; an ASYNC acknowledgement is remembered for loss reports exactly as there. Anything but a plain answer
 * (or a final status, which is thrown) returns {@code null}, and the caller takes the ordinary path, which owns
 * retries, hints and refreshes.
 *
 * <p>Threads: runs on the blocking caller's thread. It reads the keeper's volatile table and keeps no state but the
 * sockets (each confined to the thread that borrowed it) and {@code closed}.
 */
final class DirectPath implements AutoCloseable {

    /** Where an acknowledged write goes to be remembered for loss reports. */
    @FunctionalInterface
    interface Acknowledgements {
        void acknowledged(byte[] key, long revision, long signedAckEpoch);
    }

    private final ZarisClientOptions options;
    private final TimeSource time;
    private final ClientMetrics metrics;
    private final TopologyKeeper topology;
    private final RequestExecutor executor;
    private final Acknowledgements acknowledgements;
    private final DirectRequests direct;
    private volatile boolean closed;

    DirectPath(ZarisClientOptions options, TimeSource time, TopologyKeeper topology, RequestExecutor executor,
               Acknowledgements acknowledgements, DirectRequests direct) {
        this.options = options;
        this.time = time;
        this.metrics = options.metrics();
        this.topology = topology;
        this.executor = executor;
        this.acknowledgements = acknowledgements;
        this.direct = direct;
    }

    /**
     * {@link ZarisClient#get} for a caller that blocks on the answer: read by the calling thread over a direct socket
     * to the key's owner, answered {@code OK} or {@code NOT_FOUND} in one attempt.
     *
     * @return the answer, or {@code null} when the caller must use the ordinary path (sockets busy, no connection to
     *         the owner in the map, or anything but a plain answer)
     */
    Optional<VersionedValue> get(String key) {
        Route route = route(OpCode.GET, key);
        if (route == null) {
            return null;
        }
        Optional<VersionedValue> answer = meteredOnFailure(OpCode.GET, route,
                () -> direct.get(route.owner(), route.key(), route.epoch(), route.timeoutMillis(), route.abandoned()));
        if (answer != null) {
            metrics.request(OpCode.GET, answer.isPresent() ? "ok" : "not_found", time.nanoTime() - route.startNanos());
        }
        return answer;
    }

    /**
     * An unconditional put for a caller that blocks on the answer, sent and answered on the calling thread like
     * {@link #get}.
     *
     * @return the new version, or {@code null} when the caller must use the ordinary path (which may then store
     *         the value a second time, as its own retry of an unconditional put would)
     */
    Long put(String key, byte[] value, Duration ttl, AckMode ack) {
        Route route = route(OpCode.PUT, key);
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
        metrics.request(OpCode.PUT, "ok", time.nanoTime() - route.startNanos());
        acknowledgements.acknowledged(route.key(), done.revision(), done.signedAckEpoch());
        return done.revision();
    }

    /**
     * An unconditional delete for a caller that blocks on the answer (see {@link #put}).
     *
     * @return whether the key existed, or {@code null} when the caller must use the ordinary path
     */
    Boolean delete(String key, AckMode ack) {
        Route route = route(OpCode.DELETE, key);
        if (route == null) {
            return null;
        }
        Optional<DirectRequests.Acknowledged> done = meteredOnFailure(OpCode.DELETE, route,
                () -> direct.delete(route.owner(), route.key(), ack, route.epoch(), route.timeoutMillis(),
                        route.abandoned()));
        if (done == null) {
            return null;
        }
        metrics.request(OpCode.DELETE, done.isPresent() ? "ok" : "not_found", time.nanoTime() - route.startNanos());
        done.ifPresent(acknowledgement -> acknowledgements.acknowledged(route.key(), acknowledgement.revision(),
                acknowledgement.signedAckEpoch()));
        return done.isPresent();
    }

    /** Direct sockets open now. */
    int openConnections() {
        return direct.openConnections();
    }

    /** A final status a direct request threw is metered as the ordinary path meters it, then passed on. */
    private <T> T meteredOnFailure(OpCode op, Route route, Supplier<T> request) {
        try {
            return request.get();
        } catch (ZarisStatusException e) {
            metrics.request(op, reasonOf(e), time.nanoTime() - route.startNanos());
            throw e;
        }
    }

    /**
     * Where and how long a direct request for a key goes: its owner under the current table, one attempt's wait,
     * and when to give the attempt up early (its partition moved away while it hung,
     * {@link RequestExecutor#movedAway}).
     */
    private record Route(byte[] key, NodeAddress owner, long epoch, int timeoutMillis, long startNanos,
                         BooleanSupplier abandoned) {
    }

    /**
     * Where a direct request ({@code op}) for {@code key} goes, with the key's bytes, counted as an attempt;
     * {@code null} when the path is closed, the client has no map yet or the table names no owner connection.
     * Those are checked before the key is encoded.
     */
    private Route route(OpCode op, String key) {
        RoutingTable current = topology.table();
        if (closed || current == null) {
            return null;
        }
        byte[] k = bytes(key);
        int segment = topology.segmentMapper().segmentOf(k);
        NodeConnection owner = current.connectionFor(segment);
        if (owner == null) {
            return null;
        }
        long start = time.nanoTime();
        long deadline = options.requestTimeout().deadlineFrom(start);
        long waitNanos = Math.min(options.attemptTimeout().toNanos(),
                deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - start);
        int timeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(waitNanos)));
        int partition = current.view().layout().partitionOf(segment);
        metrics.attemptRouted(metrics.operationStarted(op), partition);
        return new Route(k, owner.address(), current.epochOf(segment), timeoutMillis, start,
                executor.movedAway(partition, RoutingWatch.Routing.of(current, partition)));
    }

    /** Later requests take the ordinary path; the idle sockets close. */
    @Override
    public void close() {
        closed = true;
        direct.close();
    }
}
