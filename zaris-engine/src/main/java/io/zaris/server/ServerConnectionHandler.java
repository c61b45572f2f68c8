package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.zaris.protocol.Frames;
import io.zaris.protocol.KvStatus;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.Wire;
import java.io.IOException;
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
 * readable header, no handshake) closes this connection only, logged once. A client that stops reading
 * makes the channel unwritable, and the handler then stops reading from it, so its responses cannot
 * pile up in the node's memory.
 *
 * <p>Confined to the channel's event loop; {@code handshakeDone} needs no synchronisation.
 */
final class ServerConnectionHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ServerConnectionHandler.class);
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 4 * 1024 * 1024);

    private final String nodeId;
    private final ProtocolLimits limits;
    private final RequestHandler requestHandler;
    private final NodeStats stats;
    private final Consumer<Channel> onHandshake;
    private boolean handshakeDone;
    private boolean closing;

    /**
     * @param onHandshake called on the event loop once the client completed HELLO (e.g. to subscribe the
     *                    channel to ownership pushes)
     */
    ServerConnectionHandler(String nodeId, ProtocolLimits limits, RequestHandler requestHandler, NodeStats stats,
                            Consumer<Channel> onHandshake) {
        this.nodeId = nodeId;
        this.onHandshake = onHandshake;
        this.limits = limits;
        this.requestHandler = requestHandler;
        this.stats = stats;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ctx.channel().config().setWriteBufferWaterMark(WATER_MARK);
        // Reactor Netty reads only on demand of a reactive subscriber; this handler consumes frames itself.
        ctx.channel().config().setAutoRead(true);
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            if (!closing) {
                onFrame(ctx, frame);
            }
        } finally {
            frame.release();
        }
    }

    private void onFrame(ChannelHandlerContext ctx, ByteBuf frame) {
        long receivedNanos = System.nanoTime();
        RequestCodec.Envelope envelope;
        try {
            envelope = RequestCodec.decode(frame, limits);
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
        long deadlineNanos = envelope.deadlineMillis() == 0 ? Long.MAX_VALUE
                : receivedNanos + envelope.deadlineMillis() * 1_000_000L;
        ByteBuf out = ctx.alloc().buffer();
        int start = Frames.begin(out);
        CompletableFuture<Void> outcome;
        try {
            outcome = requestHandler.handle(request, envelope.routedEpoch(), deadlineNanos, out);
        } catch (RuntimeException e) {
            // A bug must cost one request, not the connection or the node.
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
        outcome.whenComplete((ignored, failure) -> ctx.executor().execute(() -> {
            if (failure == null) {
                Frames.finish(out, start);
                ctx.writeAndFlush(out, ctx.voidPromise());
            } else {
                out.release();
                stats.refusedByReplication();
                respondError(ctx, id, KvStatus.UNACKNOWLEDGED, "write applied but not acknowledged: " + rootMessage(failure));
                ctx.flush();
            }
        }));
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
        if (hello.protocolVersion() != RequestCodec.PROTOCOL_VERSION) {
            respondError(ctx, hello.id(), KvStatus.BAD_REQUEST, "protocol version " + hello.protocolVersion()
                    + " is not supported; this node speaks " + RequestCodec.PROTOCOL_VERSION);
            ctx.flush();
            closeForBadInput(ctx, "unsupported protocol version " + hello.protocolVersion());
            return;
        }
        handshakeDone = true;
        onHandshake.accept(ctx.channel());
        ByteBuf out = ctx.alloc().buffer();
        int start = Frames.begin(out);
        ResponseCodec.writeHeader(out, hello.id(), KvStatus.OK);
        out.writeByte(RequestCodec.PROTOCOL_VERSION);
        Wire.writeString(out, nodeId);
        Frames.finish(out, start);
        ctx.write(out, ctx.voidPromise());
        log.debug("node {}: client '{}' connected from {}", nodeId, hello.clientName(), ctx.channel().remoteAddress());
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
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
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
            log.warn("node {}: closing connection {} after unexpected error", nodeId, ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
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
