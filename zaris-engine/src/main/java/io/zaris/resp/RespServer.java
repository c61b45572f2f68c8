package io.zaris.resp;

import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.IoLoops;
import io.zaris.security.TlsTransports;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpServer;

/**
 * A node's RESP listener: a reactor-netty TCP server whose pipeline is one {@link RespConnectionHandler}
 * per connection, behind TLS when the node's security options configure it. Like the data port, reactor's reactive inbound is never subscribed; the handler consumes
 * the bytes itself.
 */
public final class RespServer implements AutoCloseable {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RespServer.class);
    /** How often a lingering port looks at its clients' last command. */
    private static final Duration LINGER_POLL = Duration.ofMillis(50);

    private final DisposableServer server;
    private final RespCommands commands;
    /** {@code CLIENT TRACKING}, or {@code null} when refused. */
    private final RespTracking tracking;
    private final String host;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicLong sessionIds = new AtomicLong();
    /** Open connections (closed channels remove themselves), closed with the listener so clients notice a stop. */
    private final ChannelGroup channels = new DefaultChannelGroup("zaris-resp", GlobalEventExecutor.INSTANCE);
    /** A drained node's linger before this port closes. */
    private final RespLinger linger;

    private RespServer(RespOptions options, RespBackend backend, RespSecurity security, RespTracking tracking) {
        RespCommands commands = new RespCommands(backend, options, connections::get, security.onFailedLogin(), tracking);
        this.commands = commands;
        this.host = options.host();
        this.tracking = tracking;
        RespLinger linger = options.linger();
        this.linger = linger;
        RespConnectionHandler.Executor execute = (command, session) -> {
            linger.commandArrived(command);
            return commands.execute(command, session);
        };
        this.server = TlsTransports.secure(TcpServer.create().runOn(IoLoops.shared()), security.security().tls())
                .host(options.host())
                .port(options.port())
                .doOnConnection(connection -> {
                    channels.add(connection.channel());
                    connection.addHandlerLast("zaris-resp", new RespConnectionHandler(backend.nodeId(), options.limits(),
                            execute, sessionIds.incrementAndGet(), connections, security, tracking));
                })
                .handle((inbound, outbound) -> Mono.never())
                .bindNow(Duration.ofSeconds(10));
    }

    /** Binds the listener; throws when the port cannot be bound. */
    public static RespServer start(RespOptions options, RespBackend backend) {
        return start(options, backend, RespSecurity.none());
    }

    /** Binds the listener with authentication and slow-reader bounds; throws when the port cannot be bound. */
    public static RespServer start(RespOptions options, RespBackend backend, RespSecurity security) {
        return start(options, backend, security, null);
    }

    /**
     * Binds the listener with {@code CLIENT TRACKING} fed by {@code tracking}, which must be hooked into the node's
     * change stream ({@link RespTracking#before}) and view installs ({@link RespTracking#viewInstalled}); with
     * {@code null}, {@code CLIENT TRACKING} is refused.
     */
    public static RespServer start(RespOptions options, RespBackend backend, RespSecurity security, RespTracking tracking) {
        return new RespServer(options, backend, security, tracking);
    }

    public NodeAddress address() {
        return new NodeAddress(host, server.port());
    }

    public int port() {
        return server.port();
    }

    /** A local write inserted an element into the list at {@code key}: clients blocked on it retry their pop. */
    public void listPushed(byte[] key) {
        commands.listPushed(key);
    }

    /**
     * Membership events thread, once {@code adopted} is the view requests are routed by: sharded pub/sub subscribers
     * of slots this node no longer serves are pushed {@code sunsubscribe}.
     */
    public void viewInstalled(io.zaris.model.ClusterView previous, io.zaris.model.ClusterView adopted) {
        commands.viewInstalled(previous, adopted);
    }

    /** A {@code PUBLISH} another node relayed: delivered to this node's channel and pattern subscribers. */
    public void deliverRelayed(byte[] channel, byte[] message) {
        commands.deliverRelayed(channel, message);
    }

    /** Open client connections. */
    public int connections() {
        return connections.get();
    }

    /** Bytes of replies queued for RESP clients and not yet taken by their sockets. */
    public long pendingOutboundBytes() {
        return io.zaris.security.OutboundBytes.pending(channels);
    }

    /**
     * The thread that stops a drained node, before {@link #close}: keeps the port open while clients still send
     * commands here (each answered as usual: {@code -MOVED} to the slot's owner, the current map for {@code CLUSTER}),
     * and returns once they went quiet, none is connected, or the longest linger passed (see {@link RespLinger}).
     */
    public void lingerAfterDrain(String nodeId) throws InterruptedException {
        long started = System.nanoTime();
        linger.begin(started);
        if (connections() > 0) {
            log.info("node {}: drained; lingering on the RESP port for up to {} s while {} client(s) are still connected,"
                    + " answering MOVED to the slots' new owners until they go quiet for {} ms", nodeId,
                    linger.max().toSeconds(), connections(), linger.quiet().toMillis());
        }
        while (true) {
            long now = System.nanoTime();
            RespLinger.Step step = RespLinger.next(now, started, linger.lastCommandNanos(), connections(), linger.quiet(),
                    linger.max());
            if (step != RespLinger.Step.LINGER) {
                if (now - started > LINGER_POLL.toNanos()) {
                    log.info("node {}: stops lingering on the RESP port after {} ms ({})", nodeId,
                            (now - started) / 1_000_000, describe(step));
                }
                return;
            }
            Thread.sleep(LINGER_POLL.toMillis()); // a bounded poll of two counters, not a wait for an event
        }
    }

    private static String describe(RespLinger.Step step) {
        return switch (step) {
            case CLOSE_NO_CLIENTS -> "no client is connected";
            case CLOSE_QUIET -> "its clients went quiet";
            case CLOSE_MAX -> "the longest linger passed";
            case LINGER -> "lingering";
        };
    }

    @Override
    public void close() {
        if (tracking != null) {
            // Queued on each connection's event loop before the close below, so the invalidations leave first.
            tracking.closing();
        }
        // Likewise queued before the close: sharded subscribers learn to subscribe at the slots' next owners.
        commands.closing();
        channels.close();
        server.disposeNow(Duration.ofSeconds(5));
        commands.close();
    }
}
