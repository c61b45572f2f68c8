package io.zaris.server;

import io.zaris.cluster.ClusterView;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.Frames;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.store.NodeStore;
import java.time.Duration;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpServer;

/**
 * A node's data port: a reactor-netty TCP server whose pipeline is a length-prefixed frame decoder and a
 * {@link ServerConnectionHandler}. Reactor's reactive inbound is never subscribed: the handler consumes
 * every frame itself, which keeps the hot path free of per-request publishers.
 */
final class NodeServer implements AutoCloseable {

    private final DisposableServer server;

    NodeServer(String nodeId, String host, int port, ProtocolLimits limits, SegmentMapper segmentMapper,
               NodeStore store, Supplier<ClusterView> currentView, NodeStats stats) {
        RequestHandler requestHandler = new RequestHandler(nodeId, segmentMapper, store, currentView, stats);
        this.server = TcpServer.create()
                .host(host)
                .port(port)
                .doOnConnection(connection -> connection
                        .addHandlerLast("zaris-frame-decoder", Frames.decoder(limits.maxFrameBytes()))
                        .addHandlerLast("zaris-requests", new ServerConnectionHandler(nodeId, limits, requestHandler, stats)))
                .handle((inbound, outbound) -> Mono.never())
                .bindNow(Duration.ofSeconds(10));
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
