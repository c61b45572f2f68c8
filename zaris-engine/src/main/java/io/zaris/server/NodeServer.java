package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.zaris.protocol.Frames;
import io.zaris.protocol.IoLoops;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.protocol.TakeoverRevisions;
import io.zaris.security.OutboundBytes;
import io.zaris.security.OutboundLimits;
import io.zaris.security.SecurityOptions;
import io.zaris.security.TlsTransports;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpServer;

/**
 * A node's data port: a reactor-netty TCP server whose pipeline is a length-prefixed frame decoder and a
 * {@link ServerConnectionHandler}, behind TLS when the node's security options configure it. Reactor's reactive inbound is never subscribed: the handler consumes
 * every frame itself, which keeps the hot path free of per-request publishers.
 *
 * <p>Connections that completed the handshake (and login, where required) are kept in a {@link ChannelGroup} (thread-safe; closed
 * channels remove themselves) so ownership changes can be pushed to every client.
 */
final class NodeServer implements AutoCloseable {

    private final DisposableServer server;
    private final ChannelGroup clients = new DefaultChannelGroup("zaris-clients", GlobalEventExecutor.INSTANCE);
    private final NodeStats stats;
    private final Supplier<List<TakeoverRevisions>> standingTakeovers;

    private NodeServer(Builder parts) {
        this.stats = parts.requests.stats();
        this.standingTakeovers = parts.standingTakeovers;
        RequestHandler requestHandler = parts.requests;
        this.server = TlsTransports.secure(TcpServer.create().runOn(IoLoops.shared()), parts.security.tls())
                .host(parts.host)
                .port(parts.port)
                .doOnConnection(connection -> connection
                        .addHandlerLast("zaris-frame-decoder", Frames.decoder(parts.limits.maxFrameBytes()))
                        .addHandlerLast("zaris-requests",
                                new ServerConnectionHandler(parts.nodeId, parts.limits, requestHandler, stats,
                                        parts.security, parts.outboundLimits, this::welcome,
                                        requestHandler.segmentMapper(),
                                        parts.subscriptions)))
                .handle((inbound, outbound) -> Mono.never())
                .bindNow(Duration.ofSeconds(10));
    }

    /** A builder for the data port of node {@code nodeId}; every part must be set before {@link Builder#bind()}. */
    static Builder builder(String nodeId) {
        return new Builder(nodeId);
    }

    /**
     * What a data port is made of: where and how it listens (host, port, limits, security), the handler that
     * executes its requests and what it pushes to clients. Set each once, then {@link #bind()}; a part left unset
     * fails the bind naming it. Used on the thread that starts the node only.
     */
    static final class Builder {

        private final String nodeId;
        private String host;
        private Integer port;
        private ProtocolLimits limits;
        private SecurityOptions security;
        private OutboundLimits outboundLimits;
        /** Executes the requests; its parts (store, view, replication, ...) are the node's. */
        private RequestHandler requests;
        private Supplier<List<TakeoverRevisions>> standingTakeovers;
        private SegmentSubscriptions subscriptions;

        private Builder(String nodeId) {
            this.nodeId = required(nodeId, "nodeId");
        }

        /** The address to bind and the port ({@code 0}: any free one). */
        Builder listenOn(String host, int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be within 0..65535, was " + port);
            }
            this.host = required(host, "host");
            this.port = port;
            return this;
        }

        /** Frame limits, TLS and login, and the cap on bytes queued for one client. */
        Builder protocol(ProtocolLimits limits, SecurityOptions security, OutboundLimits outboundLimits) {
            this.limits = required(limits, "limits");
            this.security = required(security, "security");
            this.outboundLimits = required(outboundLimits, "outboundLimits");
            return this;
        }

        /** What executes the requests the port receives: the node's data path (see {@link RequestHandler}). */
        Builder requests(RequestHandler requests) {
            this.requests = required(requests, "requests");
            return this;
        }

        /**
         * Client pushes: the takeovers behind the epochs served now (sent to every client as it is admitted) and
         * the segment subscriptions of near caches and key watches.
         */
        Builder pushes(Supplier<List<TakeoverRevisions>> standingTakeovers, SegmentSubscriptions subscriptions) {
            this.standingTakeovers = required(standingTakeovers, "standingTakeovers");
            this.subscriptions = required(subscriptions, "subscriptions");
            return this;
        }

        /**
         * Binds the port and returns the server.
         *
         * @throws IllegalStateException naming the first part not set
         */
        NodeServer bind() {
            requireSet(host, "listenOn");
            requireSet(limits, "protocol");
            requireSet(requests, "requests");
            requireSet(standingTakeovers, "pushes");
            return new NodeServer(this);
        }

        private void requireSet(Object part, String setter) {
            if (part == null) {
                throw new IllegalStateException("the data port of node " + nodeId + " needs " + setter + "(...)");
            }
        }

        private static <T> T required(T value, String name) {
            if (value == null) {
                throw new IllegalArgumentException(name + " must not be null");
            }
            return value;
        }
    }

    int port() {
        return server.port();
    }

    /**
     * Pushes ownership changes to every connected client in one write per connection. A client whose
     * connection is not writable (it stopped reading) is skipped rather than buffered for: its periodic
     * map poll catches it up.
     */
    void push(List<RuntimeOwnershipChangedEvent> events) {
        if (pushAll(events, RuntimeOwnershipChangedEvent.PUSH_KIND, RuntimeOwnershipChangedEvent::encode)) {
            stats.pushed(events.size());
        }
    }

    /**
     * Pushes what this node inherited for partitions it just took over (see {@link TakeoverRevisions}). The
     * future completes once the frames are queued on every connected client's channel (a channel that is not
     * writable is skipped, as by {@link #push}): a response written after that, by the channel's own event
     * loop, reaches the client behind them. That is what lets the node open the partition to reads only
     * then, so no client reads a value from the new owner before it could name the writes the takeover lost.
     */
    CompletableFuture<Void> pushTakeovers(List<TakeoverRevisions> takeovers) {
        if (takeovers.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        ByteBuf frames = pushFrames(takeovers, TakeoverRevisions.PUSH_KIND, TakeoverRevisions::encode);
        List<CompletableFuture<Void>> queued = new ArrayList<>();
        try {
            for (Channel channel : clients) {
                if (!channel.isWritable()) {
                    continue;
                }
                CompletableFuture<Void> done = new CompletableFuture<>();
                ByteBuf copy = frames.retainedDuplicate();
                try {
                    channel.eventLoop().execute(() -> {
                        channel.writeAndFlush(copy, channel.voidPromise());
                        done.complete(null);
                    });
                } catch (RejectedExecutionException e) {
                    copy.release(); // the channel's event loop is shutting down: nothing more reaches that client
                    done.complete(null);
                }
                queued.add(done);
            }
        } finally {
            frames.release();
        }
        return CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new));
    }

    /**
     * Admits a client that completed HELLO (and AUTH where required), on its event loop: from now on it gets
     * pushes, and it first gets the takeovers behind the epochs this node serves now, which a push sent
     * before it connected could not tell it. Added before they are read, so a takeover published meanwhile
     * reaches it by one way or the other (twice at worst; a client ignores a takeover it knows).
     */
    private void welcome(Channel channel) {
        clients.add(channel);
        List<TakeoverRevisions> standing = standingTakeovers.get();
        if (!standing.isEmpty()) {
            channel.write(pushFrames(standing, TakeoverRevisions.PUSH_KIND, TakeoverRevisions::encode),
                    channel.voidPromise());
        }
    }

    /** One frame per event, all in one write per connection; returns whether anything was sent. */
    private <T> boolean pushAll(List<T> events, int kind, BiConsumer<T, ByteBuf> encoder) {
        if (events.isEmpty() || clients.isEmpty()) {
            return false;
        }
        clients.writeAndFlush(pushFrames(events, kind, encoder), channel -> channel.isWritable(), true);
        return true;
    }

    private static <T> ByteBuf pushFrames(List<T> events, int kind, BiConsumer<T, ByteBuf> encoder) {
        ByteBuf frames = Unpooled.buffer();
        for (T event : events) {
            int start = Frames.begin(frames);
            frames.writeByte(OpCode.PUSH_FRAME);
            frames.writeByte(kind);
            encoder.accept(event, frames);
            Frames.finish(frames, start);
        }
        return frames;
    }

    /** Bytes of responses queued for logged-in clients and not yet taken by their sockets. */
    long pendingOutboundBytes() {
        return OutboundBytes.pending(clients);
    }

    @Override
    public void close() {
        clients.close();
        server.disposeNow(Duration.ofSeconds(5));
    }
}
