package io.zaris.server;

import io.zaris.model.ClusterView;
import io.zaris.protocol.IoLoops;
import io.zaris.protocol.ProtocolVersions;
import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of the standalone server jar. Starts one node and keeps it running until the process is
 * asked to stop; SIGTERM (or Ctrl-C) first drains the node (its partitions move to the other nodes, up to
 * {@code --drain-on-stop}), then leaves the cluster cleanly before the process exits. With {@code admin} as
 * its first argument it runs an operator command against a running node instead ({@link AdminCommand}).
 */
public final class ZarisServerMain {

    /** How often a drain on stop logs its progress. */
    static final Duration DRAIN_PROGRESS_INTERVAL = Duration.ofSeconds(5);

    private ZarisServerMain() {
    }

    /** Netty's leak detector level (a JVM system property Netty reads when its first buffer is made). */
    static final String LEAK_DETECTION_PROPERTY = "io.netty.leakDetection.level";
    /** The older name Netty still honours; an operator who set it is obeyed too. */
    static final String LEGACY_LEAK_DETECTION_PROPERTY = "io.netty.leakDetectionLevel";

    public static void main(String[] args) throws Exception {
        boolean admin = args.length > 0 && args[0].equals("admin");
        if (admin) {
            applyProcessDefaults(System.getProperties(), true, false);
            System.exit(AdminCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
            return;
        }
        if (ServerArguments.wantsHelp(args)) {
            System.out.println(ServerArguments.usage());
            return;
        }
        ServerArguments.Launch launch;
        try {
            // Pure: nothing here opens a socket or a logger, so the process defaults below still apply.
            launch = ServerArguments.launch(args, System.getenv(), ServerArguments::readLines);
        } catch (IllegalArgumentException e) {
            System.err.println("zaris: " + e.getMessage());
            System.err.println("(java -jar zaris-engine-<version>-server.jar --help lists every option)");
            System.exit(2);
            return;
        }
        int protocolVersion;
        try {
            protocolVersion = ProtocolVersions.spoken(); // checked now, not at the first connection
        } catch (IllegalArgumentException e) {
            System.err.println("zaris: " + e.getMessage());
            System.exit(2);
            return;
        }
        NodeConfig config = launch.node();
        applyProcessDefaults(System.getProperties(), false, usesIpv6(config, launch.http()));
        // Read once, when the first Zaris socket opens: set before the node opens any port. An operator's
        // -Dzaris.io-threads still wins; without the option, IoLoops' default (one per core) applies.
        if (System.getProperty(IoLoops.PROPERTY) == null && launch.ioThreads() != null) {
            System.setProperty(IoLoops.PROPERTY, Integer.toString(launch.ioThreads()));
        }
        Logger log = LoggerFactory.getLogger(ZarisServerMain.class);
        launch.warnings().forEach(warning -> log.warn("deprecated: {}", warning));
        insecureWarning(config).forEach(log::warn);
        ZarisNode node;
        NodeHttpEndpoint http = null;
        NodeMeters meters = null;
        try {
            node = new ZarisNode(config).start();
            if (launch.http() != null) {
                meters = NodeMeters.available() ? new NodeMeters(node) : null;
                NodeMeters scraped = meters;
                http = NodeHttpEndpoint.start(launch.http(), config.nodeId(), node::isRunning, node::readiness,
                        scraped == null ? null : scraped::scrape);
                log.info("node {}: HTTP endpoint on {}:{} (/health/live, /health/ready{})", config.nodeId(),
                        launch.http().host(), http.port(), scraped == null ? "" : ", /metrics");
            }
        } catch (Exception e) {
            // Most often a port another program holds; the node has closed what it had opened.
            log.error("node {} could not start: {}", config.nodeId(), causes(e), e);
            System.exit(1);
            return;
        }
        Duration drainOnStop = launch.drainOnStop();
        NodeHttpEndpoint endpoint = http;
        NodeMeters nodeMeters = meters;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("node {}: shutting down", config.nodeId());
            // The endpoint stays up while the node drains: readiness reports the drain, liveness stays 200.
            if (drainBeforeStop(node, drainOnStop) && !drainOnStop.isZero()) {
                node.lingerOnRespPort();
            }
            node.close();
            if (endpoint != null) {
                endpoint.close();
            }
            if (nodeMeters != null) {
                nodeMeters.close();
            }
            stopped.countDown();
        }, "zaris-shutdown"));
        if (protocolVersion != ProtocolVersions.CURRENT) {
            log.warn("node {}: speaks protocol version {} (told by -D{}), not {}", config.nodeId(), protocolVersion,
                    ProtocolVersions.SPEAK_VERSION_PROPERTY, ProtocolVersions.CURRENT);
        }
        log.info("node {} started; waiting for the cluster's first partition map", config.nodeId());
        stopped.await();
    }

    /**
     * Whether the node is configured with an IPv6 literal anywhere (bind, advertised, seed or HTTP address): then
     * the JVM must not be told to prefer its IPv4 stack, which would make those addresses unusable.
     */
    static boolean usesIpv6(NodeConfig config, HttpEndpointOptions http) {
        List<String> hosts = new ArrayList<>(List.of(config.host(), config.advertisedAddress(1).host()));
        if (config.membership() instanceof io.zaris.cluster.MembershipConfig.Tcp tcp) {
            hosts.add(tcp.bindHost());
            if (tcp.advertised() != null) {
                hosts.add(tcp.advertised().host());
            }
            tcp.seeds().forEach(seed -> hosts.add(seed.host()));
        }
        if (config.resp() != null) {
            hosts.add(config.resp().host());
        }
        if (http != null) {
            hosts.add(http.host());
        }
        return hosts.stream().anyMatch(host -> host.contains(":"));
    }

    /**
     * Sets what the process needs before any logger or Netty class exists; an operator's {@code -D} option of
     * the same name always wins. IPv4 sockets unless an address is IPv6 ({@code ipv6}); the server's (or the admin command's) logging configuration;
     * and Netty's leak detector off: it records a stack trace for one buffer in 128, which profiles of a node
     * under write load put at 2.8–4.5 % of the event loop's time. Leaks are a bug to catch in tests (which run the
     * engine in-process with the detector on), not a cost every production node should pay;
     * {@code -Dio.netty.leakDetection.level=simple} turns it back on for a node under suspicion.
     */
    static void applyProcessDefaults(Properties properties, boolean admin, boolean ipv6) {
        if (!ipv6) {
            properties.putIfAbsent("java.net.preferIPv4Stack", "true");
        }
        properties.putIfAbsent("logback.configurationFile", admin ? "zaris-admin-logback.xml" : "zaris-server-logback.xml");
        if (!properties.containsKey(LEAK_DETECTION_PROPERTY) && !properties.containsKey(LEGACY_LEAK_DETECTION_PROPERTY)) {
            properties.setProperty(LEAK_DETECTION_PROPERTY, "disabled");
        }
    }

    /**
     * The boxed warning logged at start when {@code --allow-insecure} let the node open a port without the
     * secret that protects it, one line per such port; empty when every port is protected or on loopback.
     */
    static List<String> insecureWarning(NodeConfig config) {
        UnprotectedPorts unprotected = UnprotectedPorts.of(config);
        if (unprotected.none()) {
            return List.of();
        }
        String box = "*".repeat(89);
        List<String> lines = new ArrayList<>();
        lines.add(box);
        lines.add("INSECURE (--allow-insecure): node " + config.nodeId() + " opens");
        boolean withoutPassword = false;
        boolean withoutClusterSecret = false;
        for (UnprotectedPorts.Exposure exposure : unprotected.exposures()) {
            lines.add("  the " + exposure.describe());
            withoutPassword |= exposure.missing().equals(UnprotectedPorts.PASSWORD);
            withoutClusterSecret |= exposure.missing().equals(UnprotectedPorts.CLUSTER_SECRET);
        }
        if (withoutPassword) {
            lines.add("Anyone who can reach its data or RESP port can read and change every key and send node-to-node operations.");
        }
        if (withoutClusterSecret) {
            lines.add("Anyone who can reach its membership port can join the cluster and be handed partitions and their data.");
        }
        lines.add(box);
        return lines;
    }

    /**
     * Moves the node's partitions to the other nodes and waits up to {@code limit} for the map to give it no
     * role, so its leaving needs no failover. Skipped when the limit is zero, when the node has no map or no
     * role, or when no other node is present to take over; a drain that does not finish in time is logged and
     * the node stops anyway (its partitions then fail over as after any leave).
     *
     * @return whether the node holds no role now (drained, or had none)
     */
    static boolean drainBeforeStop(ZarisNode node, Duration limit) {
        Logger log = LoggerFactory.getLogger(ZarisServerMain.class);
        String nodeId = node.nodeId();
        ClusterView view = node.currentView();
        if (limit.isZero() || view == null) {
            log.info("node {}: leaving without a drain ({})", nodeId,
                    limit.isZero() ? "--drain-on-stop is 0" : "it has no cluster map");
            return view != null && AdminCommand.hasNoRole(view, nodeId);
        }
        if (AdminCommand.hasNoRole(view, nodeId)) {
            log.info("node {}: holds no partitions; nothing to drain", nodeId);
            return true;
        }
        Set<String> others = new HashSet<>(node.presentNodeIds());
        others.remove(nodeId);
        if (others.isEmpty()) {
            log.warn("node {}: leaving without a drain: no other node is present to take its {} partitions", nodeId,
                    AdminCommand.partitionsOn(view, nodeId));
            return false;
        }
        log.info("node {}: draining before it stops: {} partitions to move to {}, waiting up to {}", nodeId,
                AdminCommand.partitionsOn(view, nodeId), others, AdminCommand.describe(limit));
        // measured on the node's clock; the waits in between are real ones of this (the stopping) thread
        TimeSource time = node.time();
        long start = time.nanoTime();
        long deadline = start + limit.toNanos();
        CompletableFuture<Void> drained = node.drain();
        while (true) {
            long left = deadline - time.nanoTime();
            if (left <= 0) {
                ClusterView now = node.currentView();
                log.warn("node {}: not drained within {} ({}); stopping anyway, the rest fails over", nodeId,
                        AdminCommand.describe(limit), now == null ? "no map" : AdminCommand.drainProgress(now, nodeId));
                return false;
            }
            try {
                drained.get(Math.min(left, DRAIN_PROGRESS_INTERVAL.toNanos()), TimeUnit.NANOSECONDS);
                log.info("node {}: drained in {} ms", nodeId, TimeUnit.NANOSECONDS.toMillis(time.nanoTime() - start));
                return true;
            } catch (TimeoutException e) {
                ClusterView now = node.currentView();
                if (now != null) {
                    log.info("node {}: draining: {}", nodeId, AdminCommand.drainProgress(now, nodeId));
                }
            } catch (ExecutionException e) {
                log.warn("node {}: drain failed ({}); stopping anyway", nodeId, AdminCommand.describe(e));
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                log.warn("node {}: interrupted while draining; stopping", nodeId);
                return false;
            }
        }
    }

    /** "outer message (cause message)" down the chain, so the first log line names the reason. */
    static String causes(Throwable failure) {
        StringBuilder text = new StringBuilder(String.valueOf(failure.getMessage()));
        Throwable cause = failure.getCause();
        for (int depth = 0; cause != null && depth < 8; depth++, cause = cause.getCause()) {
            text.append(" (").append(cause.getMessage()).append(')');
        }
        return text.toString();
    }
}
