package io.zaris.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A standalone node's small HTTP endpoint, for process supervisors and scrapers, on the JDK's built-in server:
 *
 * <table>
 *   <caption>paths</caption>
 *   <tr><th>path</th><th>200</th><th>503</th></tr>
 *   <tr><td>{@code /health/live}</td><td>the node runs</td><td>it stopped (restart the process)</td></tr>
 *   <tr><td>{@code /health/ready}</td><td>{@link NodeReadiness} holds</td><td>it does not; the body says why</td></tr>
 *   <tr><td>{@code /metrics}</td><td>the node's and the JVM's meters, Prometheus text format</td><td>—</td></tr>
 * </table>
 *
 * Anything else is 404, a method other than GET or HEAD 405. It serves no data and takes no commands, so it asks
 * for no password; bind it where only the supervisor and the scraper reach it.
 *
 * <p>Threads: the JDK server's dispatcher thread accepts and parses; one handler thread (bounded queue of
 * {@value #QUEUE}; when full, the dispatcher runs the request itself, which slows accepting rather than growing
 * memory) answers. Handlers read the node through thread-safe accessors only.
 */
final class NodeHttpEndpoint implements AutoCloseable {

    /** Liveness: 200 while the node runs. */
    static final String LIVE_PATH = "/health/live";
    /** Readiness: 200 when {@link NodeReadiness} holds. */
    static final String READY_PATH = "/health/ready";
    /** The meters in Prometheus' text format. */
    static final String METRICS_PATH = "/metrics";
    /** Requests waiting for the handler thread before the dispatcher answers them itself. */
    static final int QUEUE = 16;
    /** Prometheus' text exposition format. */
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ThreadPoolExecutor handler;

    private NodeHttpEndpoint(HttpServer server, ThreadPoolExecutor handler) {
        this.server = server;
        this.handler = handler;
    }

    /**
     * Binds and starts the endpoint.
     *
     * @param live    whether the node runs
     * @param ready   the node's readiness
     * @param metrics the Prometheus text of the node's meters; {@code null}: {@code /metrics} answers 404
     * @throws IOException when the address cannot be bound
     */
    static NodeHttpEndpoint start(HttpEndpointOptions options, String nodeId, Supplier<Boolean> live,
                                  Supplier<NodeReadiness> ready, Supplier<String> metrics) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(options.host(), options.port()), 0);
        ThreadPoolExecutor handler = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE), runnable -> {
                    Thread thread = new Thread(runnable, "zaris-http-" + nodeId);
                    thread.setDaemon(true);
                    return thread;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        server.setExecutor(handler);
        server.createContext("/", exchange -> answer(exchange, live, ready, metrics));
        server.start();
        return new NodeHttpEndpoint(server, handler);
    }

    /** The bound port (the configured one, or the one picked for port 0). */
    int port() {
        return server.getAddress().getPort();
    }

    private static void answer(HttpExchange exchange, Supplier<Boolean> live, Supplier<NodeReadiness> ready,
                               Supplier<String> metrics) throws IOException {
        try (exchange) {
            route(exchange, live, ready, metrics);
        }
    }

    private static void route(HttpExchange exchange, Supplier<Boolean> live, Supplier<NodeReadiness> ready,
                              Supplier<String> metrics) throws IOException {
        try {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "method not allowed\n");
                return;
            }
            switch (exchange.getRequestURI().getPath()) {
                case LIVE_PATH -> send(exchange, live.get() ? 200 : 503, "text/plain; charset=utf-8",
                        live.get() ? "live\n" : "stopped\n");
                case READY_PATH -> {
                    NodeReadiness readiness = ready.get();
                    send(exchange, readiness.ready() ? 200 : 503, "text/plain; charset=utf-8", readiness.reason() + "\n");
                }
                case METRICS_PATH -> {
                    if (metrics == null) {
                        send(exchange, 404, "text/plain; charset=utf-8", "metrics need Micrometer's Prometheus registry\n");
                    } else {
                        send(exchange, 200, PROMETHEUS_TEXT, metrics.get());
                    }
                }
                default -> send(exchange, 404, "text/plain; charset=utf-8", "not found; try /health/live, /health/ready"
                        + " or /metrics\n");
            }
        } catch (RuntimeException e) {
            // A failing supplier must not kill the handler thread; the caller sees a 500 (headers are sent last).
            send(exchange, 500, "text/plain; charset=utf-8", "error: " + e + "\n");
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        handler.shutdownNow();
    }
}
