package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.zaris.protocol.ReadBurst;
import io.zaris.security.LoginSession;
import io.zaris.security.LoginTimeout;
import io.zaris.security.SlowReaderGuard;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RESP client connection: decodes commands with a {@link RespReader}, runs each through
 * {@link RespCommands} and writes the replies in command order, flushing once per read batch so pipelined
 * commands share syscalls.
 *
 * <p><b>Replies of a batch share a buffer.</b> Replies are rendered into one buffer ({@code batch}) that goes to
 * the channel as one message and one flush when the read batch ends ({@code channelReadComplete}), when a run of
 * late replies has been drained, or before the connection closes; never one buffer, write and flush per
 * command. A batch that grows past {@link #BATCH_WRITE_BYTES} is handed to the channel early (written, not
 * flushed), so the channel's pending-bytes accounting, and with it the back-pressure below, sees replies as
 * they are produced.
 *
 * <p><b>A command answered at once reuses its engine response buffer.</b> Each command is lent the session's response
 * buffer ({@link LentResponseBuffer}) while it runs; a reply rendered at once gives it back for the next command, a
 * reply that waits keeps it.
 *
 * <p><b>SYNC writes of a read share a frame.</b> The commands of one read run inside a {@link ReadBurst}: the SYNC
 * writes among them ask their replication links for a prompt flush once, when the read is handled, so they leave
 * for the replica together rather than split wherever the link's event loop happened to run.
 *
 * <p><b>Order.</b> Commands run as they arrive; a SYNC write's reply waits for its replicas, and replies of
 * later commands queue behind it ({@code pending}) so the client sees them in order, as Redis guarantees. A
 * blocking pop that waits ({@code blocked}) is the exception, as in Redis: the connection's later commands do not run
 * (and reading pauses) until it is answered, so a pipelined push cannot serve the pop that was sent before it.
 *
 * <p><b>Bad input.</b> A stream that breaks the protocol or a limit gets {@code -ERR Protocol error: …} and
 * this connection is closed (the framing cannot be trusted any more); everything else — unknown commands,
 * wrong arity, bad arguments — is a normal error reply and the connection stays usable. A command that
 * throws costs that command only.
 *
 * <p><b>Back-pressure.</b> Reading stops while the channel is unwritable (the client does not read its
 * replies) or more than {@link #MAX_PENDING} replies wait, so neither can pile up in the node's memory; bytes
 * already read stay undecoded in the cumulation buffer until the client reads again. A connection that stays
 * unwritable longer than the outbound limit allows is closed ({@link SlowReaderGuard}).
 *
 * <p><b>Pushes.</b> Messages that answer no command (RESP3 {@code >}: tracking's invalidations, later pub/sub) come
 * from other threads through {@link #push}: a bounded queue ({@link RespPushQueue}) the event loop drains, writing each
 * push behind the replies of the commands that already ran, so an invalidation never overtakes the reply it
 * invalidates. A client that does not read them is disconnected, as Redis's output-buffer limit does: more than
 * {@link RespPushQueue#MAX_QUEUED} pushes waiting for the event loop, or more than {@link #MAX_PUSH_BACKLOG_BYTES}
 * unsent when more arrive. Dropping pushes instead would leave its cache serving values it was never told changed; a
 * closed connection makes a client-side cache start over.
 *
 * <p>Confined to the channel's event loop, but for {@code drainScheduled}, {@code pushDrainScheduled} and the push
 * queue, which other threads touch, and {@code context}, which they read.
 */
final class RespConnectionHandler extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(RespConnectionHandler.class);
    /** Replies that may wait for earlier SYNC writes before reading pauses. */
    static final int MAX_PENDING = 4096;
    /** Bytes of rendered replies after which the batch buffer is written to the channel before the batch ends. */
    static final int BATCH_WRITE_BYTES = 64 * 1024;
    /** First capacity of a batch buffer: a few small replies; larger batches grow it. */
    private static final int BATCH_INITIAL_BYTES = 512;
    /** Unsent bytes past which a connection that is pushed more is closed rather than let grow. */
    static final long MAX_PUSH_BACKLOG_BYTES = 8L * 1024 * 1024;

    /** Bytes of input a connection may send behind a waiting blocking pop before it is closed, as Redis closes a client past its query-buffer limit. */
    static final int MAX_INPUT_BEHIND_BLOCKED_POP = 8 * 1024 * 1024;
    /** Commands that may wait for an element, by their {@link CommandTable} names; see {@link #blocked}. */
    static final Set<String> BLOCKING_POPS = Set.of("blpop", "brpop", "blmove", "bzpopmin", "bzpopmax", "blmpop",
            "bzmpop");

    private record Pending(CompletableFuture<RespReply> reply, int protocol) {
    }

    /** Runs one decoded command ({@link RespCommands} on a node); its future may complete later, or exceptionally. */
    @FunctionalInterface
    interface Executor {
        CompletableFuture<RespReply> execute(List<byte[]> command, RespSession session);
    }

    private final String nodeId;
    private final RespReader reader;
    private final Executor commands;
    private final RespSession session;
    private final AtomicInteger connections;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final RespSecurity security;
    private final SlowReaderGuard slowReaderGuard;
    private boolean closing;
    /**
     * The reply of a blocking pop still waiting; while set no further command of this connection runs. Reading goes
     * on meanwhile (a client that leaves must be noticed, so its pop stops waiting), bounded by
     * {@link #MAX_INPUT_BEHIND_BLOCKED_POP}.
     */
    private CompletableFuture<RespReply> blocked;
    /** Replies rendered and not yet written to the channel; {@code null} when there are none. */
    private ByteBuf batch;
    /**
     * Set by the first late completion that asks the event loop to drain, cleared by the drain: completions
     * arrive on whichever thread completes the write (often many in one run of a replication link), and
     * they share one drain, hence one flush. The only field touched off the event loop.
     */
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** Pushes from other threads, drained by the event loop; see {@link #push}. */
    private final RespPushQueue pushes = new RespPushQueue(RespPushQueue.MAX_QUEUED);
    /** Set by the first push that asks the event loop to drain the push queue, cleared by that drain. */
    private final AtomicBoolean pushDrainScheduled = new AtomicBoolean();
    /** Set once the handler is added; read by {@link #push} from any thread. */
    private volatile ChannelHandlerContext context;
    /** Tracking of this connection's reads ({@code CLIENT TRACKING}); turned off when it closes. */
    private final RespTracking tracking;
    /**
     * What a late reply's completion runs, and the drain it schedules: made once per connection (in
     * {@link #handlerAdded}) rather than as two lambdas per waiting command.
     */
    private BiConsumer<RespReply, Throwable> onLateReply;

    RespConnectionHandler(String nodeId, RespLimits limits, Executor commands, long sessionId, AtomicInteger connections,
                          RespSecurity security) {
        this(nodeId, limits, commands, sessionId, connections, security, null);
    }

    RespConnectionHandler(String nodeId, RespLimits limits, Executor commands, long sessionId, AtomicInteger connections,
                          RespSecurity security, RespTracking tracking) {
        this.nodeId = nodeId;
        this.tracking = tracking;
        this.reader = new RespReader(limits);
        this.commands = commands;
        this.session = new RespSession(sessionId);
        this.session.pushes = this::push;
        this.connections = connections;
        this.security = security;
        this.slowReaderGuard = new SlowReaderGuard(nodeId, "RESP", security.outboundLimits(), security.onSlowReaderClosed());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        super.handlerAdded(ctx);
        context = ctx;
        connections.incrementAndGet();
        session.login = new LoginSession(security.security().users(), security.security().limiter(), peerOf(ctx));
        LoginSession login = session.login;
        LoginTimeout.arm(ctx.channel(), security.security(), nodeId, "RESP", login::isLoggedIn);
        slowReaderGuard.install(ctx.channel());
        // Reactor Netty reads only on demand of a reactive subscriber; this handler consumes the bytes itself.
        ctx.channel().config().setAutoRead(true);
        if (tracking != null) {
            tracking.opened(session); // CLIENT TRACKING ... REDIRECT may name this connection from now on
        }
        Runnable drain = () -> drain(ctx);
        onLateReply = (ignored, failure) -> {
            if (drainScheduled.compareAndSet(false, true)) {
                ctx.executor().execute(drain);
            }
        };
        ctx.read();
    }

    private static String peerOf(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress() instanceof InetSocketAddress address && address.getAddress() != null
                ? address.getAddress().getHostAddress() : String.valueOf(ctx.channel().remoteAddress());
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        connections.decrementAndGet();
        session.closed = true; // a command blocked for it stops waiting
        slowReaderGuard.closed();
        closing = true; // pushes still on their way are dropped, not written to a closed channel
        if (tracking != null) {
            tracking.closed(session);
        }
        RespPubSub.closed(session);
        while (pushes.poll() != null) {
            // dropped with the connection: its client-side cache starts over
        }
        if (batch != null) {
            batch.release();
            batch = null;
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        // The commands of one read share their SYNC writes' replication flush, sent as the read is handled.
        ReadBurst burst = ReadBurst.open();
        try {
            decodeCommands(ctx, in);
        } finally {
            burst.close();
        }
    }

    private void decodeCommands(ChannelHandlerContext ctx, ByteBuf in) {
        // Stops at an unwritable channel: the rest waits in the cumulation until the client reads its replies.
        while (!closing && blocked == null && in.isReadable() && ctx.channel().isWritable()) {
            List<byte[]> command;
            try {
                command = reader.read(in);
            } catch (RespProtocolException e) {
                in.skipBytes(in.readableBytes());
                protocolError(ctx, e.getMessage());
                return;
            }
            if (command == null) {
                return;
            }
            if (!command.isEmpty()) {
                run(ctx, command);
            }
        }
        if (blocked != null && in.readableBytes() > MAX_INPUT_BEHIND_BLOCKED_POP) {
            in.skipBytes(in.readableBytes());
            protocolError(ctx, "too much input behind a blocking command");
            return;
        }
        if (closing) {
            in.skipBytes(in.readableBytes());
        }
    }

    private void run(ChannelHandlerContext ctx, List<byte[]> command) {
        CompletableFuture<RespReply> reply;
        session.responseBuffer.open();
        try {
            reply = commands.execute(command, session);
        } catch (RuntimeException e) {
            session.responseBuffer.kept(); // whatever took the buffer may still hold it
            log.error("node {}: RESP command failed", nodeId, e);
            reply = CompletableFuture.completedFuture(RespReply.error("ERR internal error: " + e));
        }
        // Captured after the command ran: HELLO answers in the protocol it switched to.
        int protocol = session.protocol;
        if (pending.isEmpty() && reply.isDone()) {
            write(ctx, settled(reply), protocol);
            session.responseBuffer.written(); // rendered: the reply no longer reads the lent buffer
            return;
        }
        session.responseBuffer.kept(); // the reply, read later, may be a slice of the lent buffer
        pending.add(new Pending(reply, protocol));
        if (pending.size() > MAX_PENDING) {
            ctx.channel().config().setAutoRead(false);
        }
        if (isBlockingPop(command)) {
            blocked = reply;
        }
        reply.whenComplete(onLateReply);
    }

    /**
     * Looked up in the command table rather than by an upper-cased copy of the name: every command whose reply waits
     * (each SYNC write) is asked, and the table finds the name without building a string.
     */
    private static boolean isBlockingPop(List<byte[]> command) {
        byte[] name = command.get(0);
        if (name.length == 0 || (name[0] | 0x20) != 'b') {
            return false; // every blocking pop's name starts with a B: a write's reply that waits is not looked up
        }
        CommandTable.Spec spec = CommandTable.lookup(name);
        return spec != null && BLOCKING_POPS.contains(spec.name());
    }

    private void drain(ChannelHandlerContext ctx) {
        // Cleared before looking: a completion after this point schedules a drain of its own.
        drainScheduled.set(false);
        while (!pending.isEmpty() && pending.peek().reply().isDone()) {
            Pending head = pending.poll();
            write(ctx, settled(head.reply()), head.protocol());
        }
        if (blocked != null && blocked.isDone() && !closing) {
            blocked = null;
            try {
                channelRead(ctx, Unpooled.EMPTY_BUFFER); // runs the commands that arrived behind the pop
            } catch (Exception e) {
                exceptionCaught(ctx, e);
            }
        }
        flushBatch(ctx);
        if (pending.size() <= MAX_PENDING / 2 && !closing) {
            ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        }
    }

    /** The reply of a completed command; one that completed exceptionally costs that command only. */
    private RespReply settled(CompletableFuture<RespReply> reply) {
        try {
            return reply.join();
        } catch (RuntimeException e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            log.error("node {}: RESP command failed", nodeId, cause);
            return RespReply.error("ERR internal error: " + cause);
        }
    }

    private void write(ChannelHandlerContext ctx, RespReply reply, int protocol) {
        if (closing) {
            return;
        }
        if (batch == null) {
            batch = ctx.alloc().buffer(BATCH_INITIAL_BYTES);
        }
        RespWriter.write(reply, protocol, batch);
        if (reply instanceof RespReply.ThenClose) {
            closing = true;
            flushBatch(ctx);
            ctx.close();
        } else if (batch.readableBytes() >= BATCH_WRITE_BYTES) {
            ctx.write(batch, ctx.voidPromise());
            batch = null;
        }
    }

    /**
     * Any thread: queues {@code push} for this connection, to be written after the replies of the commands that already
     * ran. Closes the connection when its client does not read its pushes (see the class comment).
     */
    void push(RespReply.Push push) {
        ChannelHandlerContext ctx = context;
        if (ctx == null) {
            return;
        }
        if (!pushes.offer(push)) {
            ctx.executor().execute(() -> closeForBacklog(ctx, RespPushQueue.MAX_QUEUED + " pushes queued"));
            return;
        }
        if (pushDrainScheduled.compareAndSet(false, true)) {
            ctx.executor().execute(() -> drainPushes(ctx));
        }
    }

    private void drainPushes(ChannelHandlerContext ctx) {
        // Cleared before polling: a push offered after this point schedules a drain of its own.
        pushDrainScheduled.set(false);
        if (closing) {
            while (pushes.poll() != null) {
                // the connection is closing; nobody will read them
            }
            return;
        }
        if (io.zaris.security.OutboundBytes.pending(List.of(ctx.channel())) > MAX_PUSH_BACKLOG_BYTES) {
            closeForBacklog(ctx, "more than " + MAX_PUSH_BACKLOG_BYTES + " bytes unsent");
            return;
        }
        RespReply.Push push;
        while ((push = pushes.poll()) != null) {
            if (tracking != null && (push = RespTracking.asWritten(push, session)) == null) {
                continue; // a redirected invalidation Redis would not send to this connection in its state now
            }
            if (pending.isEmpty()) {
                write(ctx, push, session.protocol);
            } else {
                // Behind replies still waiting for their writes: a reply read before the change must arrive first.
                pending.add(new Pending(CompletableFuture.completedFuture(push), session.protocol));
            }
        }
        flushBatch(ctx);
    }

    private void closeForBacklog(ChannelHandlerContext ctx, String why) {
        if (closing) {
            return;
        }
        log.warn("node {}: closing RESP connection {}: its client does not read its pushes ({})", nodeId,
                ctx.channel().remoteAddress(), why);
        closing = true;
        flushBatch(ctx);
        ctx.close();
    }

    /** Writes the replies rendered so far, if any, and flushes the channel (once, whatever was written). */
    private void flushBatch(ChannelHandlerContext ctx) {
        if (batch != null) {
            ctx.write(batch, ctx.voidPromise());
            batch = null;
        }
        ctx.flush();
    }

    private void protocolError(ChannelHandlerContext ctx, String message) {
        if (closing) {
            return;
        }
        log.debug("node {}: closing RESP connection from {}: {}", nodeId, ctx.channel().remoteAddress(), message);
        write(ctx, RespReply.error("ERR " + message), session.protocol);
        closing = true;
        flushBatch(ctx);
        ctx.close();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
        flushBatch(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        slowReaderGuard.writabilityChanged(ctx.channel());
        ctx.channel().config().setAutoRead(ctx.channel().isWritable() && pending.size() <= MAX_PENDING);
        if (ctx.channel().isWritable() && !closing) {
            // Decode what was read before the pause; an empty read runs the decoder over the cumulation.
            channelRead(ctx, Unpooled.EMPTY_BUFFER);
            flushBatch(ctx);
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            log.debug("node {}: RESP connection {} failed: {}", nodeId, ctx.channel().remoteAddress(), cause.toString());
        } else {
            log.warn("node {}: closing RESP connection {} after unexpected error", nodeId, ctx.channel().remoteAddress(), cause);
        }
        closing = true;
        ctx.close();
    }
}
