package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.concurrent.FastThreadLocal;
import io.zaris.model.KvStatus;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.Frames;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.ProtocolVersions;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.SegmentTrackAnswer;
import io.zaris.protocol.Wire;
import io.zaris.security.Access;
import io.zaris.security.LoginSession;
import io.zaris.security.LoginTimeout;
import io.zaris.security.OutboundLimits;
import io.zaris.security.SecurityOptions;
import io.zaris.security.SlowReaderGuard;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection on a node's data port: enforces the handshake, decodes request payloads, hands
 * them to the {@link RequestHandler} and writes responses, flushing once per read batch so pipelined
 * requests share syscalls.
 *
 * <p>Bad input policy: a payload that parses far enough to have a request id gets an error response and
 * the connection stays usable; a stream that cannot be trusted (oversized or negative length, no
 * readable header, no handshake) closes this connection only, logged once.
 *
 * <p><b>Protocol version.</b> HELLO offers the client's highest protocol version; the connection uses the lower of
 * that and this node's ({@link ProtocolVersions#negotiate}), the answer says which, and a frame that version does
 * not have is answered {@code BAD_REQUEST}, as a node of that version would. An offer older than this node still
 * speaks is refused and the connection closed.
 *
 * <p><b>Authentication.</b> On a node with users, the frame after HELLO must be a successful AUTH; every
 * other request before it is answered {@code UNAUTHORIZED} and the connection stays open for the login.
 * {@link Access} decides what the logged-in principal may send (read-only users, node-to-node operations).
 * Failed logins are throttled per peer address and close the connection after
 * {@link LoginSession#MAX_FAILURES_PER_CONNECTION}; a connection that has not logged in within the login
 * timeout is closed ({@link LoginTimeout}).
 *
 * <p><b>Slow readers.</b> Past the high water mark of unsent responses the channel turns unwritable: the
 * handler stops reading and parks frames already decoded from the last read in {@code backlog} instead of
 * answering them, so at most about one read's frames and the water mark of responses are held per client.
 * A connection unwritable for longer than {@link OutboundLimits#maxUnwritable()} is closed
 * ({@link SlowReaderGuard}).
 *
 * <p><b>Deadlines.</b> A request's deadline counts from the socket read that delivered it, not from when
 * it is handled: one that waited in {@code backlog} or behind other frames of its read past its deadline is
 * dropped unanswered by {@link RequestHandler} (counted in {@link NodeStats#expiredRequests()}).
 *
 * <p><b>Near-cache tracking.</b> After {@code TRACK_SEGMENTS}, the client subscribes this connection to one
 * segment at a time with {@code TRACK_SEGMENT} ({@link SegmentSubscriptions#track}), resuming from the position
 * it last saw: from then on the node pushes the segment's changes here. {@code tracked} remembers the segments,
 * so each is subscribed once and all are dropped on close.
 *
 * <p>Confined to the channel's event loop; its fields need no synchronisation.
 */
final class ServerConnectionHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ServerConnectionHandler.class);
    /** One per I/O thread: the thread that decodes a frame also handles it (see {@link ReusedValueArrays}). */
    private static final FastThreadLocal<ReusedValueArrays> VALUE_ARRAYS = new FastThreadLocal<>() {
        @Override
        protected ReusedValueArrays initialValue() {
            return new ReusedValueArrays();
        }
    };

    private final String nodeId;
    private final ProtocolLimits limits;
    private final RequestHandler requestHandler;
    private final NodeStats stats;
    private final Consumer<Channel> onLoggedIn;
    private final SecurityOptions security;
    private final SlowReaderGuard slowReaderGuard;
    private final SegmentMapper segmentMapper;
    private final SegmentSubscriptions subscriptions;
    /** Segments this connection tracks; {@code null} until it asked for tracking. */
    private BitSet tracked;
    /**
     * Frames read but not yet handled because the client is not reading its responses, each with the time
     * it arrived; released on close.
     */
    private final ArrayDeque<Parked> backlog = new ArrayDeque<>();
    /**
     * When the socket read now delivering frames happened (on the request handler's clock): every frame decoded
     * from one read arrived then, however long the frames before it took. Set by the first frame of a read,
     * cleared by {@link #channelReadComplete}.
     */
    private long readArrivedNanos;
    private boolean readInProgress;
    private LoginSession login;
    private boolean handshakeDone;
    /** The protocol version HELLO agreed on (see {@link ProtocolVersions}); set once, on the event loop. */
    private int protocolVersion;
    private boolean closing;
    /** A flush of late (SYNC) responses is queued on the event loop; see {@link #flushSoon}. */
    private boolean flushScheduled;

    /**
     * @param onLoggedIn called on the event loop once the client completed HELLO and, where required, AUTH
     *                   (e.g. to subscribe the channel to ownership pushes)
     */
    ServerConnectionHandler(String nodeId, ProtocolLimits limits, RequestHandler requestHandler, NodeStats stats,
                            SecurityOptions security, OutboundLimits outboundLimits, Consumer<Channel> onLoggedIn,
                            SegmentMapper segmentMapper, SegmentSubscriptions subscriptions) {
        this.nodeId = nodeId;
        this.segmentMapper = segmentMapper;
        this.subscriptions = subscriptions;
        this.onLoggedIn = onLoggedIn;
        this.limits = limits;
        this.requestHandler = requestHandler;
        this.stats = stats;
        this.security = security;
        this.slowReaderGuard = new SlowReaderGuard(nodeId, "data port", outboundLimits, stats::slowReaderClosed);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        login = new LoginSession(security.users(), security.limiter(), peerOf(ctx.channel()));
        LoginTimeout.arm(ctx.channel(), security, nodeId, "data port", login::isLoggedIn);
        slowReaderGuard.install(ctx.channel());
        // Reactor Netty reads only on demand of a reactive subscriber; this handler consumes frames itself.
        ctx.channel().config().setAutoRead(true);
        ctx.read();
    }

    /** The remote IP: failed logins are throttled per address, whatever the source port. */
    static String peerOf(Channel channel) {
        return channel.remoteAddress() instanceof InetSocketAddress address && address.getAddress() != null
                ? address.getAddress().getHostAddress() : String.valueOf(channel.remoteAddress());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (!readInProgress) {
            readInProgress = true;
            readArrivedNanos = requestHandler.time().nanoTime();
        }
        if (closing) {
            frame.release();
        } else if (!backlog.isEmpty() || !ctx.channel().isWritable()) {
            // The request's deadline counts from now, not from when the client reads again.
            backlog.add(new Parked(frame, readArrivedNanos));
        } else {
            handle(ctx, frame, readArrivedNanos);
        }
    }

    private void handle(ChannelHandlerContext ctx, ByteBuf frame, long arrivedNanos) {
        ReusedValueArrays values = VALUE_ARRAYS.get();
        values.begin();
        try {
            if (!closing) {
                onFrame(ctx, frame, arrivedNanos, values);
            }
        } finally {
            values.end();
            frame.release();
        }
    }

    /** Handles parked frames while the client reads again; stops as soon as it falls behind once more. */
    private void drainBacklog(ChannelHandlerContext ctx) {
        boolean handled = false;
        while (!backlog.isEmpty() && ctx.channel().isWritable() && !closing) {
            Parked parked = backlog.poll();
            handle(ctx, parked.frame(), parked.arrivedNanos());
            handled = true;
        }
        if (handled) {
            ctx.flush();
        }
    }

    /**
     * @param arrivedNanos when the frame was read off the socket: its deadline counts from then
     * @param values       where PUT and REPLICATE values are decoded; they are dead once this returns
     */
    private void onFrame(ChannelHandlerContext ctx, ByteBuf frame, long arrivedNanos, ReusedValueArrays values) {
        RequestCodec.Envelope envelope;
        try {
            envelope = RequestCodec.decode(frame, limits, values);
        } catch (MalformedRequestException e) {
            if (e.isAnswerable() && handshakeDone) {
                stats.rejected();
                respondError(ctx, e.requestId(), e.status(), e.getMessage());
            } else {
                closeForBadInput(ctx, e.getMessage());
            }
            return;
        }
        Request request = envelope.request();
        if (!handshakeDone) {
            handshake(ctx, request);
            return;
        }
        if (request instanceof Request.Auth auth) {
            login(ctx, auth);
            return;
        }
        if (request instanceof Request.Hello) {
            stats.rejected();
            respondError(ctx, request.id(), KvStatus.BAD_REQUEST, "HELLO was already sent on this connection");
            return;
        }
        if (!ProtocolVersions.knows(protocolVersion, request.op())) {
            stats.rejected();
            respondError(ctx, request.id(), KvStatus.BAD_REQUEST, request.op() + " is not part of protocol version "
                    + protocolVersion + ", which this connection negotiated");
            return;
        }
        String refusal = Access.refusal(login.principal(), request.op());
        if (refusal != null) {
            stats.rejected();
            respondError(ctx, request.id(), KvStatus.UNAUTHORIZED, refusal);
            return;
        }
        if (request instanceof Request.TrackSegments) {
            startTracking(ctx, request.id());
            return;
        }
        if (request instanceof Request.TrackSegment trackSegment) {
            trackSegment(ctx, trackSegment, envelope.routedEpoch());
            return;
        }
        long deadlineNanos = RequestDeadline.of(arrivedNanos, envelope.deadlineMillis());
        ByteBuf out = ctx.alloc().buffer();
        int start = Frames.begin(out);
        CompletableFuture<Void> outcome;
        try {
            outcome = requestHandler.handle(request, envelope.routedEpoch(), deadlineNanos, out);
        } catch (RuntimeException e) {
            // A bug must cost one request, not the connection or the node.
            stats.unexpectedError();
            log.error("node {}: {} request {} failed", nodeId, request.op(), request.id(), e);
            out.writerIndex(start + Frames.LENGTH_PREFIX_BYTES);
            ResponseCodec.writeError(out, request.id(), KvStatus.BAD_REQUEST, "internal error: " + e);
            outcome = RequestHandler.DONE;
        }
        if (outcome == RequestHandler.DROPPED) {
            out.release();
            return;
        }
        if (outcome.isDone() && !outcome.isCompletedExceptionally()) {
            Frames.finish(out, start);
            ctx.write(out, ctx.voidPromise());
            return;
        }
        // A SYNC write: the OK response waits in 'out' until the replicas answered. It is already applied
        // here, so a failure is UNACKNOWLEDGED (indeterminate), never UNAVAILABLE (refused, not applied).
        long id = request.id();
        outcome.whenComplete((ignored, failure) -> onEventLoop(ctx, () -> {
            if (failure == null) {
                Frames.finish(out, start);
                ctx.write(out, ctx.voidPromise());
            } else {
                out.release();
                stats.refusedByReplication();
                respondError(ctx, id, KvStatus.UNACKNOWLEDGED, "write applied but not acknowledged: " + rootMessage(failure));
            }
            flushSoon(ctx);
        }));
    }

    /** Runs {@code task} on the channel's event loop: at once when already there, else queued to it. */
    private static void onEventLoop(ChannelHandlerContext ctx, Runnable task) {
        if (ctx.executor().inEventLoop()) {
            task.run();
        } else {
            ctx.executor().execute(task);
        }
    }

    /**
     * Event loop only: flushes what SYNC completions wrote, once for all completions that reach this loop
     * before the flush task runs (they complete on the replication links' threads, often many at a time),
     * instead of one syscall per response.
     */
    private void flushSoon(ChannelHandlerContext ctx) {
        if (!flushScheduled) {
            flushScheduled = true;
            ctx.executor().execute(() -> {
                flushScheduled = false;
                ctx.flush();
            });
        }
    }

    private static String rootMessage(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause instanceof java.util.concurrent.CompletionException) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    private void handshake(ChannelHandlerContext ctx, Request request) {
        if (!(request instanceof Request.Hello hello)) {
            closeForBadInput(ctx, "first frame was " + request.op() + ", expected HELLO");
            return;
        }
        if (hello.magic() != RequestCodec.MAGIC) {
            closeForBadInput(ctx, String.format("HELLO magic 0x%08x is not Zaris", hello.magic()));
            return;
        }
        try {
            protocolVersion = ProtocolVersions.negotiate(hello.protocolVersion(), ProtocolVersions.spoken());
        } catch (IllegalArgumentException unsupported) {
            respondError(ctx, hello.id(), KvStatus.BAD_REQUEST, unsupported.getMessage());
            ctx.flush();
            closeForBadInput(ctx, "unsupported protocol version " + hello.protocolVersion());
            return;
        }
        handshakeDone = true;
        stats.connectionOpened(hello.clientName());
        if (login.isLoggedIn()) {
            onLoggedIn.accept(ctx.channel());
        }
        ByteBuf out = ctx.alloc().buffer();
        int start = Frames.begin(out);
        ResponseCodec.writeHeader(out, hello.id(), KvStatus.OK);
        out.writeByte(protocolVersion);
        Wire.writeString(out, nodeId);
        Frames.finish(out, start);
        ctx.write(out, ctx.voidPromise());
        log.debug("node {}: client '{}' connected from {}", nodeId, hello.clientName(), ctx.channel().remoteAddress());
    }

    /** Turns tracking on (again: harmless) and answers OK. */
    private void startTracking(ChannelHandlerContext ctx, long requestId) {
        if (tracked == null) {
            tracked = new BitSet(segmentMapper.segmentCount());
        }
        ByteBuf out = ctx.alloc().buffer();
        int start = Frames.begin(out);
        ResponseCodec.writeHeader(out, requestId, KvStatus.OK);
        Frames.finish(out, start);
        ctx.write(out, ctx.voidPromise());
    }

    /**
     * Subscribes this connection to one segment (once; asking again only re-reads the position) and answers where
     * its stream starts: resumed from the client's position with the changes since, or fresh. Refused, as a read
     * would be, unless this node serves the segment under the epoch the client routed by.
     */
    private void trackSegment(ChannelHandlerContext ctx, Request.TrackSegment request, long routedEpoch) {
        int segment = request.segment();
        if (segment >= segmentMapper.segmentCount()) {
            stats.rejected();
            respondError(ctx, request.id(), KvStatus.BAD_REQUEST, "segment " + segment + " does not exist; there are "
                    + segmentMapper.segmentCount());
            return;
        }
        ByteBuf out = ctx.alloc().buffer();
        int start = Frames.begin(out);
        if (!requestHandler.refusesTracking(request.id(), segment, routedEpoch, out)) {
            if (tracked == null) {
                tracked = new BitSet(segmentMapper.segmentCount()); // a watcher's connection tracks without TRACK_SEGMENTS
            }
            boolean fresh = !tracked.get(segment);
            tracked.set(segment);
            SegmentTrackAnswer answer = subscriptions.track(segment, ctx.channel(), fresh, request.sinceRevision(),
                    request.sinceEpoch());
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            answer.encode(out);
        }
        Frames.finish(out, start);
        ctx.write(out, ctx.voidPromise());
    }

    private void login(ChannelHandlerContext ctx, Request.Auth auth) {
        LoginSession.Outcome outcome = login.login(auth.user(), auth.password());
        if (outcome instanceof LoginSession.Accepted accepted) {
            ByteBuf out = ctx.alloc().buffer();
            int start = Frames.begin(out);
            ResponseCodec.writeHeader(out, auth.id(), KvStatus.OK);
            out.writeByte(accepted.principal().readOnly() ? 1 : 0);
            Frames.finish(out, start);
            ctx.write(out, ctx.voidPromise());
            onLoggedIn.accept(ctx.channel());
            log.debug("node {}: {} logged in as '{}'", nodeId, ctx.channel().remoteAddress(), auth.user());
            return;
        }
        if (outcome instanceof LoginSession.NotConfigured) {
            respondError(ctx, auth.id(), KvStatus.BAD_REQUEST, "AUTH sent but node " + nodeId + " has no users configured");
            return;
        }
        stats.failedLogin();
        boolean close;
        if (outcome instanceof LoginSession.Throttled throttled) {
            respondError(ctx, auth.id(), KvStatus.UNAUTHORIZED, "too many failed logins from " + peerOf(ctx.channel())
                    + "; retry in " + throttled.retryAfter().toMillis() + " ms");
            close = throttled.closeConnection();
        } else {
            respondError(ctx, auth.id(), KvStatus.UNAUTHORIZED, "invalid username-password pair");
            close = ((LoginSession.Rejected) outcome).closeConnection();
        }
        log.info("node {}: failed login as '{}' from {}", nodeId, auth.user(), ctx.channel().remoteAddress());
        if (close) {
            closeForBadInput(ctx, LoginSession.MAX_FAILURES_PER_CONNECTION + " failed logins");
        }
    }

    private void respondError(ChannelHandlerContext ctx, long requestId, KvStatus status, String message) {
        ByteBuf out = ctx.alloc().buffer();
        int start = Frames.begin(out);
        ResponseCodec.writeError(out, requestId, status, message);
        Frames.finish(out, start);
        ctx.write(out, ctx.voidPromise());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        readInProgress = false;
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        slowReaderGuard.writabilityChanged(ctx.channel());
        drainBacklog(ctx);
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        slowReaderGuard.closed();
        if (tracked != null) {
            subscriptions.unsubscribeAll(ctx.channel(), tracked);
            tracked = null;
        }
        Parked parked;
        while ((parked = backlog.poll()) != null) {
            parked.frame().release();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException || cause instanceof CorruptedFrameException
                || cause instanceof DecoderException) {
            closeForBadInput(ctx, cause.getMessage());
        } else if (cause instanceof IOException) {
            log.debug("node {}: connection {} failed: {}", nodeId, ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        } else {
            stats.unexpectedError();
            log.warn("node {}: closing connection {} after unexpected error", nodeId, ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }

    /** A frame waiting in the backlog and when it arrived. */
    private record Parked(ByteBuf frame, long arrivedNanos) {
    }

    private void closeForBadInput(ChannelHandlerContext ctx, String reason) {
        if (closing) {
            return;
        }
        closing = true;
        stats.closedForBadInput();
        log.warn("node {}: closing connection from {}: {}", nodeId, ctx.channel().remoteAddress(), reason);
        ctx.flush();
        ctx.close();
    }
}
