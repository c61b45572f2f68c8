package io.zaris.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.Frames;
import io.zaris.protocol.IoLoops;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.ProtocolVersions;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.protocol.SegmentInvalidations;
import io.zaris.protocol.TakeoverRevisions;
import io.zaris.protocol.Wire;
import io.zaris.security.Credentials;
import io.zaris.security.TlsOptions;
import io.zaris.security.TlsTransports;
import io.zaris.time.TimeSource;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.Connection;
import reactor.netty.tcp.TcpClient;

/**
 * The one connection a client keeps to a node: multiplexed and pipelined, responses correlated by request
 * id and allowed to complete in any order.
 *
 * <p>Concurrency: any thread may {@link #send}. Encoded requests go into a lock-free queue drained by a
 * single task on the channel's event loop, which writes everything queued and flushes once — so a burst of
 * pipelined requests costs one syscall, not one each. {@code pending} is a concurrent map written by
 * senders and removed from by the event loop (on response, on close) and by the timeout sweep; whoever
 * removes an entry completes its future, so each future completes exactly once. In-flight requests are
 * bounded by {@code maxInFlight}; beyond it a send fails at once instead of queueing without bound.
 *
 * <p>Futures complete on the event loop: callers must not block in their continuations.
 *
 * <p>Time: every deadline and silence is measured on the {@link TimeSource} the connection was opened with (the
 * system clock unless the opener passes its own), so a caller computes an answer deadline from that same source's
 * {@link TimeSource#nanoTime()}. The connection's own state is described above; {@code time} is read-only.
 *
 * <p>Public for the engine's own node-to-node links (replication, probes); applications use
 * {@code ZarisClient}.
 */
public final class NodeConnection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(NodeConnection.class);
    /** How often pending requests are checked against their deadlines. */
    private static final long TIMEOUT_SWEEP_MILLIS = 50;
    /**
     * Requests have waited this long with no response at all: the sweep sends the node a liveness probe (a
     * MAP_VERSION, which it answers at once on its event loop, whatever its other requests wait for).
     */
    static final Duration PROBE_AFTER = Duration.ofSeconds(1);
    /**
     * A liveness probe unanswered this long means the node is hung or the path to it drops everything, while TCP
     * may hold the connection open for many minutes (after a flapping link its retransmissions back off that long).
     * The connection then closes, so its waiting requests fail as a lost connection and retry on a fresh one, and
     * a replication link is replaced and re-syncs its replica. Generous, so a node starved of CPU for a moment
     * keeps its connections.
     */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    private final NodeAddress address;
    private final TimeSource time;
    private final Connection connection;
    private final Channel channel;
    private final int maxInFlight;
    private final AtomicLong nextRequestId = new AtomicLong(1);
    private final Map<Long, Pending<?>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Queue<ByteBuf> outbound = new ConcurrentLinkedQueue<>();
    private final AtomicInteger outboundWork = new AtomicInteger();
    /** A flush of frames queued by a deferred send is scheduled; see {@link #send(LongFunction, ResponseReader, long, int, long, long)}. */
    private final AtomicBoolean deferredFlushScheduled = new AtomicBoolean();
    private volatile String nodeId;
    /**
     * The protocol version the handshake agreed on ({@link ProtocolVersions}): only frames of that version may be
     * sent. Written once by the handshake's answer, before {@link #open} completes.
     */
    private volatile int protocolVersion;
    private volatile boolean closed;
    /** Set by {@link #close()}: the client itself let go of the connection. */
    private volatile boolean closedByClient;
    /** Response frames read; event loop only. */
    private long responsesRead;
    /**
     * When to send a liveness probe, fed by the 50 ms timeout sweep: coarse, which is all the probe needs, and it
     * costs the request path no clock read. Event loop only.
     */
    private final LivenessWatch liveness;
    /** Why this side closed the connection, for the failure of the requests still waiting; {@code null}: closed, no reason. */
    private volatile String closeReason;

    private NodeConnection(NodeAddress address, Connection connection, int maxInFlight, TimeSource time) {
        this.address = address;
        this.time = time;
        this.liveness = new LivenessWatch(PROBE_AFTER, time.nanoTime());
        this.connection = connection;
        this.channel = connection.channel();
        this.maxInFlight = maxInFlight;
        ScheduledFuture<?> sweep = channel.eventLoop().scheduleAtFixedRate(this::expireOverdue, TIMEOUT_SWEEP_MILLIS,
                TIMEOUT_SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        channel.closeFuture().addListener(future -> {
            sweep.cancel(false); // the event loop outlives the connection; the sweep must not
            String reason = closeReason;
            failAll(reason == null ? new ZarisTransportException("connection to " + address + " closed")
                    : new PeerSilentException("connection to " + address + " closed: " + reason));
        });
    }

    /**
     * Opens a connection and performs the handshake; completes with the connection once the node answered
     * HELLO (and so told its node id).
     */
    public static CompletableFuture<NodeConnection> open(NodeAddress address, String clientName, Duration connectTimeout,
                                                  Duration handshakeTimeout, int maxInFlight, int maxFrameBytes,
                                                  PushListener pushListener,
                                                  Consumer<NodeConnection> onLost) {
        return open(address, clientName, null, connectTimeout, handshakeTimeout, maxInFlight, maxFrameBytes, pushListener,
                onLost);
    }

    /**
     * Opens a connection, performs the handshake and, when {@code credentials} are given, logs in (AUTH);
     * completes once the node accepted both. A refused login fails with a {@link ZarisStatusException}
     * of status {@code UNAUTHORIZED}.
     */
    public static CompletableFuture<NodeConnection> open(NodeAddress address, String clientName, Credentials credentials,
                                                  Duration connectTimeout, Duration handshakeTimeout, int maxInFlight,
                                                  int maxFrameBytes, PushListener pushListener,
                                                  Consumer<NodeConnection> onLost) {
        return open(address, clientName, credentials, null, connectTimeout, handshakeTimeout, maxInFlight, maxFrameBytes,
                pushListener, onLost);
    }

    /**
     * Opens a connection, over TLS when {@code tls} is given (the node's certificate is verified against its
     * trust and must name {@code address.host()}), performs the handshake and, when {@code credentials} are
     * given, logs in. A failed TLS handshake fails with a {@link ZarisTransportException} saying so.
     *
     * <p>This and the shorter overloads measure on the system clock: they serve callers that have no clock of their
     * own (tests, tools). Every caller in the engine, client and node alike, passes its own clock to the overload
     * that takes one, so its answer deadlines are readings of the clock that judges them.
     */
    public static CompletableFuture<NodeConnection> open(NodeAddress address, String clientName, Credentials credentials,
                                                  TlsOptions tls, Duration connectTimeout, Duration handshakeTimeout,
                                                  int maxInFlight, int maxFrameBytes, PushListener pushListener,
                                                  Consumer<NodeConnection> onLost) {
        return open(address, clientName, credentials, tls, connectTimeout, handshakeTimeout, maxInFlight, maxFrameBytes,
                pushListener, onLost, TimeSource.system());
    }

    /**
     * Like {@link #open(NodeAddress, String, Credentials, TlsOptions, Duration, Duration, int, int, PushListener,
     * Consumer)}, measuring every deadline and silence on {@code time}: answer deadlines handed to {@link #send} must
     * be readings of it.
     */
    public static CompletableFuture<NodeConnection> open(NodeAddress address, String clientName, Credentials credentials,
                                                  TlsOptions tls, Duration connectTimeout, Duration handshakeTimeout,
                                                  int maxInFlight, int maxFrameBytes, PushListener pushListener,
                                                  Consumer<NodeConnection> onLost, TimeSource time) {
        ResponseHandler handler = new ResponseHandler(pushListener);
        return TlsTransports.secure(TcpClient.create().runOn(IoLoops.shared()), tls)
                .host(address.host())
                .port(address.port())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                .doOnConnected(connection -> connection
                        .addHandlerLast("zaris-frame-decoder", Frames.decoder(maxFrameBytes))
                        .addHandlerLast(ResponseHandler.NAME, handler))
                .connect()
                .toFuture()
                .handle((connection, error) -> {
                    if (error != null) {
                        throw connectFailure(address, error);
                    }
                    NodeConnection nodeConnection = new NodeConnection(address, connection, maxInFlight, time);
                    handler.owner = nodeConnection;
                    connection.channel().closeFuture().addListener(closed -> {
                        if (!nodeConnection.closedByClient) {
                            onLost.accept(nodeConnection);
                        }
                    });
                    return nodeConnection;
                })
                .thenCompose(nodeConnection -> nodeConnection.handshake(clientName, handshakeTimeout)
                        .thenCompose(nodeId -> credentials == null ? CompletableFuture.completedFuture(nodeId)
                                : nodeConnection.login(credentials, handshakeTimeout).thenApply(ignored -> nodeId))
                        .whenComplete((ignored, error) -> {
                            if (error != null) {
                                nodeConnection.close();
                            }
                        })
                        .thenApply(nodeId -> {
                            nodeConnection.nodeId = nodeId;
                            return nodeConnection;
                        }));
    }

    /** Names a TLS failure as one: a refused certificate otherwise reads like any dropped connection. */
    private static ZarisTransportException connectFailure(NodeAddress address, Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException) {
                return new ZarisTransportException("TLS handshake with " + address + " failed: " + cause.getMessage(),
                        error);
            }
        }
        return new ZarisTransportException("cannot connect to " + address + ": " + error.getMessage(), error);
    }

    private CompletableFuture<String> handshake(String clientName, Duration timeout) {
        int offered = ProtocolVersions.spoken();
        return send(id -> new Request.Hello(id, RequestCodec.MAGIC, offered, clientName),
                (status, body) -> {
                    if (status != KvStatus.OK) {
                        throw new ZarisStatusException(status, "handshake with " + address + " refused: "
                                + ResponseCodec.readMessage(body));
                    }
                    int answered = Wire.readUnsignedByte(body, 0, "protocol version");
                    try {
                        protocolVersion = ProtocolVersions.checkAnswer(answered, offered);
                    } catch (IllegalArgumentException wrongAnswer) {
                        throw new ZarisTransportException("handshake with " + address + ": " + wrongAnswer.getMessage());
                    }
                    return Wire.readString(body, 0, "node id");
                }, 0, 0, time.nanoTime() + timeout.toNanos());
    }

    /** The protocol version the handshake agreed on; callers pick only frames it {@link ProtocolVersions#knows}. */
    public int protocolVersion() {
        return protocolVersion;
    }

    private CompletableFuture<Void> login(Credentials credentials, Duration timeout) {
        return send(id -> new Request.Auth(id, credentials.user(), credentials.passwordBytes()), (status, body) -> {
            if (status != KvStatus.OK) {
                throw new ZarisStatusException(status, "login to " + address + " as '" + credentials.user() + "' refused: "
                        + ResponseCodec.readMessage(body));
            }
            return null;
        }, 0, 0, time.nanoTime() + timeout.toNanos());
    }

    /**
     * Sends one request. The factory receives the request id this connection assigned.
     *
     * @param routedEpoch    the partition epoch the caller routed by (0 when not routed by key)
     * @param deadlineMillis what the node is told about how long the caller waits (0 = no deadline)
     * @param answerDeadline the reading of the connection's {@link TimeSource#nanoTime()} after which the request
     *                       fails with {@link ZarisTimeoutException}; {@link Long#MAX_VALUE} to wait indefinitely
     */
    public <T> CompletableFuture<T> send(LongFunction<Request> requestFactory, ResponseReader<T> reader, long routedEpoch,
                                  int deadlineMillis, long answerDeadline) {
        return send(requestFactory, reader, routedEpoch, deadlineMillis, answerDeadline, 0);
    }

    /**
     * Like {@link #send(LongFunction, ResponseReader, long, int, long)}, but with {@code flushDelayNanos > 0} the
     * frame may wait up to that long for a flush, so that frames sent close together leave in one syscall and
     * reach the peer in one read (replication of writes nobody waits for). An ordinary send, or
     * {@link #flushQueued}, flushes it earlier; frames still leave in the order they were sent.
     */
    public <T> CompletableFuture<T> send(LongFunction<Request> requestFactory, ResponseReader<T> reader, long routedEpoch,
                                  int deadlineMillis, long answerDeadline, long flushDelayNanos) {
        return send(requestFactory, reader, routedEpoch, deadlineMillis, answerDeadline, flushDelayNanos, null);
    }

    /**
     * Like {@link #send(LongFunction, ResponseReader, long, int, long, long)}; while no answer has come, the
     * connection's timeout sweep (every {@value #TIMEOUT_SWEEP_MILLIS} ms) also asks {@code abandoned}, and fails the
     * request with {@link ZarisTimeoutException} when it says yes: for a caller that may repeat the request
     * elsewhere (an idempotent request whose partition moved away from a node that stopped answering).
     *
     * @param abandoned {@code null} to wait for the answer until {@code answerDeadline}; otherwise called on
     *                  this connection's event loop, so it must be cheap and must not block
     */
    public <T> CompletableFuture<T> send(LongFunction<Request> requestFactory, ResponseReader<T> reader, long routedEpoch,
                                  int deadlineMillis, long answerDeadline, long flushDelayNanos, BooleanSupplier abandoned) {
        CompletableFuture<T> future = new CompletableFuture<>();
        if (!admitted(future)) {
            return future;
        }
        long id = nextRequestId.getAndIncrement();
        Request request = requestFactory.apply(id);
        int version = protocolVersion; // 0 until the handshake's answer: HELLO and AUTH, which every version has
        if (version != 0 && !ProtocolVersions.knows(version, request)) {
            inFlight.decrementAndGet();
            future.completeExceptionally(new ZarisProtocolVersionException(address.toString(), version,
                    ProtocolVersions.lacking(version, request)));
            return future;
        }
        ByteBuf out = channel.alloc().buffer();
        try {
            int start = Frames.begin(out);
            RequestCodec.encode(request, routedEpoch, deadlineMillis, out);
            Frames.finish(out, start);
        } catch (RuntimeException e) {
            out.release();
            inFlight.decrementAndGet();
            future.completeExceptionally(e);
            return future;
        }
        return dispatch(id, request.op(), out, reader, future, answerDeadline, flushDelayNanos, abandoned);
    }

    /**
     * Sends a frame its caller encoded with the length prefix and the header reserved
     * ({@link RequestCodec#reserveHeader}), for a body written before the request id is known (a replication
     * link's batch of changes). Fills in the id this connection assigns, then sends the frame as
     * {@link #send(LongFunction, ResponseReader, long, int, long, long)} would. Takes ownership of {@code frame}.
     */
    public <T> CompletableFuture<T> sendPrepared(ByteBuf frame, OpCode op, ResponseReader<T> reader, long answerDeadline,
                                                 long flushDelayNanos) {
        CompletableFuture<T> future = new CompletableFuture<>();
        if (!admitted(future)) {
            frame.release();
            return future;
        }
        long id = nextRequestId.getAndIncrement();
        RequestCodec.fillHeader(frame, op, id);
        return dispatch(id, op, frame, reader, future, answerDeadline, flushDelayNanos, null);
    }

    /**
     * Counts a request in flight, or fails its future when the connection is closed or already has
     * {@code maxInFlight} requests in flight.
     */
    private boolean admitted(CompletableFuture<?> future) {
        if (closed || !channel.isActive()) {
            future.completeExceptionally(new ZarisTransportException("connection to " + describe() + " is closed", false));
            return false;
        }
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            future.completeExceptionally(new ZarisException("more than " + maxInFlight + " requests in flight to "
                    + describe() + "; slow down or raise maxInFlightPerNode"));
            return false;
        }
        return true;
    }

    /** Registers an encoded request's answer as pending, then queues its frame. */
    private <T> CompletableFuture<T> dispatch(long id, OpCode op, ByteBuf frame, ResponseReader<T> reader,
                                              CompletableFuture<T> future, long answerDeadline, long flushDelayNanos,
                                              BooleanSupplier abandoned) {
        pending.put(id, new Pending<>(op, reader, future, answerDeadline, abandoned));
        if (flushDelayNanos > 0) {
            enqueueDeferred(frame, flushDelayNanos);
        } else {
            enqueue(frame);
        }
        if (closed) {
            // Raced with close: make sure nobody waits for an answer that cannot come.
            complete(id, null, null, new ZarisTransportException("connection to " + describe() + " is closed"));
        }
        return future;
    }

    /** The buffer allocator of this connection's channel, for frames encoded ahead of {@link #sendPrepared}. */
    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /** Runs {@code task} on this connection's event loop after {@code delayNanos} (at once when 0). */
    public void onEventLoop(Runnable task, long delayNanos) {
        if (delayNanos > 0) {
            channel.eventLoop().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        } else {
            channel.eventLoop().execute(task);
        }
    }

    private void enqueue(ByteBuf frame) {
        outbound.offer(frame);
        if (outboundWork.getAndIncrement() == 0) {
            channel.eventLoop().execute(this::drainOutbound);
        }
    }

    private void enqueueDeferred(ByteBuf frame, long flushDelayNanos) {
        outbound.offer(frame);
        if (!deferredFlushScheduled.get() && deferredFlushScheduled.compareAndSet(false, true)) {
            channel.eventLoop().schedule(() -> {
                deferredFlushScheduled.set(false);
                flushQueued();
            }, flushDelayNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Any thread: has every queued frame (deferred ones included) written and flushed soon, on the event loop. */
    public void flushQueued() {
        if (!outbound.isEmpty() && outboundWork.getAndIncrement() == 0) {
            channel.eventLoop().execute(this::drainOutbound);
        }
    }

    /**
     * Event loop only: writes every queued frame, flushes once, repeats while senders keep adding. A frame
     * queued without a count of its own (a deferred send) is written by whichever drain polls it first.
     */
    private void drainOutbound() {
        int missed = 1;
        do {
            int written = 0;
            ByteBuf frame;
            while ((frame = outbound.poll()) != null) {
                channel.write(frame, channel.voidPromise());
                written++;
            }
            if (written > 0) {
                channel.flush();
            }
            missed = outboundWork.addAndGet(-missed);
        } while (missed != 0);
    }

    /** Event loop only: a response frame arrived. */
    private void onResponse(ByteBuf frame) {
        responsesRead++;
        if (frame.readableBytes() < 10 || frame.readUnsignedByte() != OpCode.RESPONSE_FRAME) {
            log.warn("connection to {}: ignoring malformed response frame", describe());
            return;
        }
        long id = frame.readLong();
        KvStatus status = KvStatus.fromCode(frame.readUnsignedByte());
        if (status == null) {
            complete(id, null, null, new ZarisException("node " + describe() + " answered with an unknown status"));
            return;
        }
        complete(id, status, frame, null);
    }

    @SuppressWarnings("unchecked")
    private void complete(long id, KvStatus status, ByteBuf body, Throwable failure) {
        Pending<Object> entry = (Pending<Object>) pending.remove(id);
        if (entry == null) {
            return; // already timed out or failed
        }
        inFlight.decrementAndGet();
        if (failure != null) {
            entry.future.completeExceptionally(failure);
            return;
        }
        try {
            entry.future.complete(entry.reader.read(status, body));
        } catch (Exception e) {
            entry.future.completeExceptionally(e);
        }
    }

    private void expireOverdue() {
        long now = time.nanoTime();
        if (liveness.sweep(now, responsesRead, nodeId != null && !pending.isEmpty())) {
            probe(now);
        }
        for (Iterator<Map.Entry<Long, Pending<?>>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Pending<?>> entry = it.next();
            Pending<?> waiting = entry.getValue();
            if (now - waiting.deadlineNanos > 0) {
                complete(entry.getKey(), null, null, new ZarisTimeoutException(waiting.op
                        + " to " + describe() + " got no answer in time; a write may or may not have been applied"));
            } else if (waiting.abandoned != null && waiting.abandoned.getAsBoolean()) {
                complete(entry.getKey(), null, null, new ZarisTimeoutException(waiting.op + " to " + describe()
                        + " abandoned unanswered: its partition moved to another owner meanwhile"));
            }
        }
    }

    private void failAll(ZarisException failure) {
        closed = true;
        for (Long id : pending.keySet()) {
            complete(id, null, null, failure);
        }
        ByteBuf frame;
        while ((frame = outbound.poll()) != null) {
            frame.release();
        }
    }

    public String nodeId() {
        return nodeId;
    }

    public NodeAddress address() {
        return address;
    }

    public boolean isOpen() {
        return !closed && channel.isActive();
    }

    /** Whether this connection was closed because the node did not keep up: see {@link #closeAsUnresponsive}. */
    public boolean closedForSilence() {
        return closeReason != null;
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** Event loop only: asks the node whether it still answers; see {@link #PROBE_TIMEOUT}. */
    private void probe(long now) {
        send(Request.MapVersion::new, (status, body) -> status, 0, 0, now + PROBE_TIMEOUT.toNanos())
                .whenComplete((status, error) -> {
                    liveness.probeAnswered();
                    if (error instanceof ZarisTimeoutException) {
                        closeAsUnresponsive("no response for " + liveness.silentFor(time.nanoTime()).toMillis()
                                + " ms, not even to a liveness probe");
                    }
                });
    }

    /**
     * Any thread: closes the connection because the node does not keep up with what is sent to it (it answered no
     * liveness probe, or its owner decided it lags too far behind). Requests still waiting fail with
     * {@link PeerSilentException}, and {@link #closedForSilence()} says so from now on: the node may be alive,
     * just not answering. Does nothing on a connection already closed.
     */
    public void closeAsUnresponsive(String reason) {
        if (closed) {
            return;
        }
        closeReason = reason;
        log.warn("connection to {}: {}; closing it", describe(), reason);
        closed = true;
        connection.dispose();
    }

    private String describe() {
        return nodeId == null ? address.toString() : nodeId + " (" + address + ")";
    }

    @Override
    public void close() {
        closedByClient = true;
        closed = true;
        connection.dispose();
    }

    @Override
    public String toString() {
        return "NodeConnection[" + describe() + "]";
    }

    private record Pending<T>(OpCode op, ResponseReader<T> reader, CompletableFuture<T> future, long deadlineNanos,
                              BooleanSupplier abandoned) {
    }

    /** Inbound side: hands each response payload to the owning connection and releases it. */
    private static final class ResponseHandler extends ChannelInboundHandlerAdapter {
        static final String NAME = "zaris-responses";
        private final PushListener pushListener;
        /** Set before the handshake is sent, so before any response can arrive. */
        volatile NodeConnection owner;

        ResponseHandler(PushListener pushListener) {
            this.pushListener = pushListener;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            // Reactor Netty reads only on demand of a reactive subscriber; this handler consumes frames itself.
            ctx.channel().config().setAutoRead(true);
            ctx.read();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                if (frame.isReadable() && frame.getUnsignedByte(frame.readerIndex()) == OpCode.PUSH_FRAME) {
                    onPush(ctx, frame);
                    return;
                }
                NodeConnection connection = owner;
                if (connection != null) {
                    connection.onResponse(frame);
                }
            } finally {
                frame.release();
            }
        }

        private void onPush(ChannelHandlerContext ctx, ByteBuf frame) {
            frame.skipBytes(1);
            if (!frame.isReadable()) {
                return;
            }
            int kind = frame.readUnsignedByte();
            try {
                if (kind == RuntimeOwnershipChangedEvent.PUSH_KIND) {
                    pushListener.ownershipChanged(RuntimeOwnershipChangedEvent.decode(frame));
                } else if (kind == TakeoverRevisions.PUSH_KIND) {
                    pushListener.takenOver(TakeoverRevisions.decode(frame));
                } else if (kind == SegmentInvalidations.PUSH_KIND) {
                    pushListener.invalidated(SegmentInvalidations.decode(frame), owner);
                }
            } catch (MalformedRequestException | RuntimeException e) {
                if (kind == SegmentInvalidations.PUSH_KIND) {
                    // A change this client cannot read is one it cannot drop: end the stream, so nothing cached
                    // from it is served again.
                    log.warn("closing connection {}: unreadable invalidation push: {}", ctx.channel().remoteAddress(),
                            e.getMessage());
                    ctx.close();
                    return;
                }
                log.warn("ignoring unreadable push of kind {}: {}", kind, e.getMessage());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof ClosedChannelException) {
                // Each frame still queued when the connection closed fails with this; the close was logged once.
                log.debug("connection {}: a write after the close failed: {}", ctx.channel().remoteAddress(), cause.toString());
            } else {
                log.warn("connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
            }
            ctx.close();
        }
    }
}
