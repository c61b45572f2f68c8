package io.zaris.embedded;

import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.replication.ReplicationSettings;
import io.zaris.resp.RespLimits;
import io.zaris.resp.RespOptions;
import io.zaris.security.ClusterSecret;
import io.zaris.security.LoopbackAddresses;
import io.zaris.security.SecurityOptions;
import io.zaris.security.TlsOptions;
import io.zaris.server.NodeConfig;
import io.zaris.server.ZarisNode;
import io.zaris.store.MemoryOptions;
import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole Zaris cluster inside one JVM: N nodes on loopback ephemeral ports, joined by an in-JVM
 * membership transport. Used by the Spring starter's default mode and by tests; the nodes are the same
 * {@link ZarisNode}s a standalone server runs. Each instance gets a unique cluster name, so several
 * embedded clusters in one JVM never see each other.
 *
 * <p>Not thread-safe: start, stop and close from one thread (the owner of the cluster's lifecycle).
 */
public final class EmbeddedCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedCluster.class);

    /** Nodes when not configured. */
    public static final int DEFAULT_NODES = 3;
    /** How long {@link #start()} waits for every node to hold the first partition map. */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);
    private static final long REPLICATION_POLL_MILLIS = 20;
    /** What the start-up waits are measured on (see {@link #start()}). */
    private static final TimeSource START_WAIT_CLOCK = TimeSource.system();

    private final int nodeCount;
    private final ClusterSettings settings;
    private final String host;
    private final Duration startTimeout;
    private final String clusterName;
    private final ReplicationSettings replication;
    private final boolean resp;
    private final RespLimits respLimits;
    private final io.zaris.resp.RespLinger respLinger;
    /** RESP port of node-1 (node-k gets this + k - 1); 0 = every node an ephemeral port. */
    private final int respBasePort;
    private final MemoryOptions memory;
    private final SecurityOptions security;
    private final ProtocolLimits limits;
    /** Copy-on-write: RESP listeners look their peers' ports up here from event-loop threads. */
    private final List<ZarisNode> nodes = new CopyOnWriteArrayList<>();

    private EmbeddedCluster(Builder builder) {
        this.nodeCount = builder.nodes;
        this.settings = new ClusterSettings(builder.nodes, builder.layout, builder.replicationFactor,
                builder.joinSettleDelay, builder.maxConcurrentMoves);
        this.host = builder.host;
        this.startTimeout = builder.startTimeout;
        this.clusterName = "zaris-embedded-" + UUID.randomUUID();
        this.replication = builder.replication;
        this.resp = builder.resp;
        this.respLimits = builder.respLimits;
        this.respLinger = builder.respLinger;
        this.respBasePort = builder.respBasePort;
        this.memory = builder.memory != null ? builder.memory
                : MemoryOptions.builder().maxBytes(MemoryOptions.defaultMaxBytes(builder.nodes)).build();
        SecurityOptions security = builder.security;
        if (builder.tls != null) {
            security = security.withTls(builder.tls);
        }
        if (builder.clusterSecret != null) {
            security = security.withClusterSecret(builder.clusterSecret);
        }
        this.security = security;
        this.limits = builder.limits;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts every node and waits until all of them hold the first partition map and their replication links
     * are synced, so the application's first SYNC write is not refused with a retryable status.
     */
    public EmbeddedCluster start() {
        if (!nodes.isEmpty()) {
            throw new IllegalStateException("embedded cluster " + clusterName + " is already started");
        }
        try {
            for (int i = 1; i <= nodeCount; i++) {
                nodes.add(new ZarisNode(nodeConfig(i)).start());
            }
            // The system clock, not a node's: the start timeout bounds real waits of this thread (the first-map
            // futures and the polls' sleeps), so its deadline must be read on the clock those waits run on.
            long deadline = START_WAIT_CLOCK.nanoTime() + startTimeout.toNanos();
            for (ZarisNode node : nodes) {
                node.awaitReady(startTimeout);
            }
            awaitReplicationLinks(deadline);
        } catch (TimeoutException e) {
            close();
            throw new IllegalStateException("embedded cluster did not form within " + startTimeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while starting the embedded cluster", e);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("embedded cluster failed to start: " + e.getMessage(), e);
        }
        // DEBUG: an embedding framework states what the cluster is in its own words (the Spring starter's one
        // INFO line says it is private to the JVM and how to leave embedded mode); the details stay here.
        log.debug("embedded Zaris cluster started: {} nodes, {} partitions, replication factor {}, seeds {}",
                nodeCount, settings.layout().partitionCount(), settings.replicationFactor(), seeds());
        return this;
    }

    /**
     * Polls (links open on netty threads and report no event to wait on) until every node sees every other one
     * and is ready, or the deadline. Both: a node's readiness skips replicas it does not see yet, so a node that
     * saw its replica only after reporting ready refused SYNC writes ("0 replica(s) connected") until the link
     * opened (it is opened as soon as the node sees the replica, but on another thread), and tests writing right
     * after start failed now and then.
     */
    private void awaitReplicationLinks(long deadlineNanos) throws InterruptedException, TimeoutException {
        while (!nodes.stream().allMatch(node -> seesEveryOtherNode(node) && node.isReplicationReady())) {
            if (START_WAIT_CLOCK.nanoTime() - deadlineNanos > 0) {
                throw new TimeoutException("replication links not synced within " + startTimeout);
            }
            Thread.sleep(REPLICATION_POLL_MILLIS);
        }
    }

    private boolean seesEveryOtherNode(ZarisNode node) {
        java.util.Set<String> present = node.presentNodeIds();
        return nodes.stream().allMatch(other -> other == node || present.contains(other.nodeId()));
    }

    /** Data addresses of the running nodes, to hand to a client as seeds. */
    public List<NodeAddress> seeds() {
        List<NodeAddress> seeds = new ArrayList<>();
        for (ZarisNode node : nodes) {
            if (node.isRunning()) {
                seeds.add(node.dataAddress());
            }
        }
        return seeds;
    }

    /** The nodes in start order (stopped ones included). */
    public List<ZarisNode> nodes() {
        return List.copyOf(nodes);
    }

    public ZarisNode node(String nodeId) {
        for (ZarisNode node : nodes) {
            if (node.nodeId().equals(nodeId)) {
                return node;
            }
        }
        throw new IllegalArgumentException("no node '" + nodeId + "' in " + clusterName);
    }

    /** The running node that currently leads the cluster. */
    public ZarisNode leader() {
        for (ZarisNode node : nodes) {
            if (node.isRunning() && node.isLeader()) {
                return node;
            }
        }
        throw new IllegalStateException("no running node of " + clusterName + " leads right now");
    }

    /** Stops one node (a clean leave); the others keep running. */
    public void stopNode(String nodeId) {
        node(nodeId).close();
    }

    /**
     * Starts a stopped node again under the same id, empty and on a new port, as a restarted process
     * would; it rejoins and is brought up to date by replication.
     */
    public ZarisNode restartNode(String nodeId) {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).nodeId().equals(nodeId)) {
                if (nodes.get(i).isRunning()) {
                    throw new IllegalStateException("node " + nodeId + " is running");
                }
                try {
                    ZarisNode restarted = new ZarisNode(nodeConfig(i + 1)).start();
                    nodes.set(i, restarted);
                    return restarted;
                } catch (Exception e) {
                    throw new IllegalStateException("node " + nodeId + " failed to restart: " + e.getMessage(), e);
                }
            }
        }
        throw new IllegalArgumentException("no node '" + nodeId + "' in " + clusterName);
    }

    /**
     * Starts one more node ({@code node-N}, N one above the highest so far). It joins the running cluster
     * holding nothing; after the join settle delay the leader plans a map that gives it its share, and the
     * partitions move to it a bounded number at a time while their current owners serve.
     *
     * @return the new node, once it holds the cluster's map
     */
    public ZarisNode addNode() {
        int number = nodes.size() + 1;
        String nodeId = nodeIdOf(number);
        try {
            ZarisNode added = new ZarisNode(nodeConfig(number)).start();
            nodes.add(added);
            added.awaitReady(startTimeout);
            log.info("embedded Zaris cluster: {} joined", nodeId);
            return added;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while adding " + nodeId, e);
        } catch (Exception e) {
            throw new IllegalStateException("node " + nodeId + " failed to join: " + e.getMessage(), e);
        }
    }

    /**
     * Drains one node (its partitions move to the others while it keeps serving them) and stops it once it
     * holds none: a planned shrink, with no failover. Before it stops, its RESP port lingers while Redis clients
     * still route commands to it (see {@link ZarisNode#lingerOnRespPort}), so this may take up to the RESP linger's
     * longest time more.
     *
     * @throws IllegalStateException when the drain does not finish within {@code timeout}; the node keeps running
     */
    public void drainNode(String nodeId, Duration timeout) {
        ZarisNode node = node(nodeId);
        try {
            node.drain().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining " + nodeId, e);
        } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
            throw new IllegalStateException("node " + nodeId + " did not drain within " + timeout + ": " + e, e);
        }
        node.lingerOnRespPort();
        node.close();
        log.info("embedded Zaris cluster: {} drained and stopped", nodeId);
    }

    /** RESP addresses of the running nodes that have a RESP listener, in start order. */
    public List<NodeAddress> respSeeds() {
        List<NodeAddress> seeds = new ArrayList<>();
        for (ZarisNode node : nodes) {
            if (node.isRunning() && node.respAddress() != null) {
                seeds.add(node.respAddress());
            }
        }
        return seeds;
    }

    /** A running node's RESP port, -1 when it is stopped or has none; what MOVED and CLUSTER SLOTS name. */
    private int respPortOf(String nodeId) {
        for (ZarisNode node : nodes) {
            if (node.nodeId().equals(nodeId) && node.isRunning() && node.respAddress() != null) {
                return node.respAddress().port();
            }
        }
        return -1;
    }

    /** Node ids are {@code node-1}, {@code node-2}, … in start order; a restarted node keeps its number. */
    private static String nodeIdOf(int number) {
        return "node-" + number;
    }

    /** The configured RESP port of node {@code number}: the base port + number - 1, or 0 (ephemeral). */
    static int configuredRespPort(int basePort, int number) {
        return basePort == 0 ? 0 : basePort + number - 1;
    }

    /**
     * The configuration node {@code number} (1-based, {@code node-<number>}) starts with: what this cluster applies of
     * the options a standalone server takes. Tests hold it to the server's option catalog.
     *
     * @throws IllegalArgumentException for a number below 1
     */
    public NodeConfig nodeConfig(int number) {
        if (number < 1) {
            throw new IllegalArgumentException("embedded nodes are numbered from 1, not " + number);
        }
        return NodeConfig.builder(nodeIdOf(number))
                .resp(resp ? RespOptions.builder().host(host).port(configuredRespPort(respBasePort, number)).limits(respLimits)
                        .linger(respLinger).peerPorts((id, dataAddress) -> respPortOf(id)).build() : null)
                .host(host)
                .port(0)
                .clusterSettings(settings)
                .membership(new MembershipConfig.InJvm(clusterName))
                .replication(replication)
                .memory(memory)
                .security(security)
                .limits(limits)
                .build();
    }

    public String clusterName() {
        return clusterName;
    }

    /**
     * What the cluster was built with: its node count, partition layout and replication factor (a partition
     * holds {@code min(replicationFactor, nodes)} copies).
     */
    public ClusterSettings settings() {
        return settings;
    }

    /** Stops every node. */
    @Override
    public void close() {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            try {
                nodes.get(i).close();
            } catch (RuntimeException e) {
                log.warn("stopping embedded node {} failed", nodes.get(i).nodeId(), e);
            }
        }
    }

    public static final class Builder {
        private int nodes = DEFAULT_NODES;
        private PartitionLayout layout = PartitionLayout.defaults();
        private int replicationFactor = ClusterSettings.DEFAULT_REPLICATION_FACTOR;
        private String host = "127.0.0.1";
        private Duration startTimeout = DEFAULT_START_TIMEOUT;
        private ReplicationSettings replication = ReplicationSettings.defaults();
        private boolean resp;
        private RespLimits respLimits = RespLimits.defaults();
        private io.zaris.resp.RespLinger respLinger = io.zaris.resp.RespLinger.defaults();
        private int respBasePort;
        private MemoryOptions memory;
        private SecurityOptions security = SecurityOptions.none();
        private TlsOptions tls;
        private ClusterSecret clusterSecret;
        private Duration joinSettleDelay = ClusterSettings.DEFAULT_JOIN_SETTLE_DELAY;
        private int maxConcurrentMoves = ClusterSettings.DEFAULT_MAX_CONCURRENT_MOVES;
        private ProtocolLimits limits = ProtocolLimits.defaults();

        private Builder() {
        }

        /**
         * Size limits every node enforces on its data port (default {@link ProtocolLimits#defaults()}: keys up
         * to 64 KiB, values up to 32 MiB). The frame limit must hold the largest key and value and the nodes'
         * own frames to each other.
         *
         * @throws IllegalArgumentException when the frame limit is below what those need
         */
        public Builder limits(ProtocolLimits limits) {
            long needed = ProtocolLimits.nodeFrameBytesFor(limits.maxKeyBytes(), limits.maxValueBytes());
            if (limits.maxFrameBytes() < needed) {
                throw new IllegalArgumentException("maxFrameBytes " + limits.maxFrameBytes() + " cannot carry a key of "
                        + limits.maxKeyBytes() + " bytes and a value of " + limits.maxValueBytes() + " bytes plus "
                        + ProtocolLimits.FRAME_HEADROOM_BYTES + " bytes of headers (and at least "
                        + ProtocolLimits.MIN_NODE_FRAME_BYTES + " for node-to-node frames): give at least " + needed);
            }
            this.limits = limits;
            return this;
        }

        /**
         * TLS on every node's data and RESP ports and on the nodes' connections to each other (replication,
         * probes). Needs key material whose certificate names the cluster's host (default 127.0.0.1), and trust
         * in it; clients then need {@code ZarisClientOptions.Builder#tls} with the same trust. Overrides the TLS
         * of {@link #security}.
         */
        public Builder tls(TlsOptions tls) {
            if (tls != null && !tls.hasKeyMaterial()) {
                throw new IllegalArgumentException("embedded nodes serve TLS, so their TlsOptions need a certificate and key");
            }
            this.tls = tls;
            return this;
        }

        /** Authenticates and encrypts the nodes' membership traffic; overrides the secret of {@link #security}. */
        public Builder clusterSecret(ClusterSecret clusterSecret) {
            this.clusterSecret = clusterSecret;
            return this;
        }

        /** Authentication on every node's data and RESP ports (default none: the nodes bind loopback only). */
        public Builder security(SecurityOptions security) {
            this.security = java.util.Objects.requireNonNull(security);
            return this;
        }

        /**
         * Memory budget and eviction policy of every node. Default: {@link MemoryOptions#DEFAULT_HEAP_FRACTION}
         * of this JVM's max heap divided among the nodes (they share the heap), evicting {@code allkeys-lru}.
         */
        public Builder memory(MemoryOptions memory) {
            this.memory = java.util.Objects.requireNonNull(memory);
            return this;
        }

        /**
         * Gives every node a Redis protocol (RESP) listener on the cluster's host (off by default), on an
         * ephemeral port unless {@link #respPort(int)} says otherwise; {@link EmbeddedCluster#respSeeds()} lists
         * them for a Redis Cluster client.
         */
        public Builder resp(boolean enabled) {
            this.resp = enabled;
            return this;
        }

        /**
         * Where the RESP listeners bind when {@link #resp(boolean)} is on: node-1 on {@code basePort}, node-2 on
         * {@code basePort + 1} and so on (a restarted node gets its port back); 0, the default, gives every node
         * an ephemeral port. A port that is taken stops the node's start.
         */
        public Builder respPort(int basePort) {
            if (basePort < 0 || basePort > 65535) {
                throw new IllegalArgumentException("RESP base port must be in 0..65535 but was " + basePort);
            }
            this.respBasePort = basePort;
            return this;
        }

        /**
         * Input limits of every node's RESP listener (default {@link RespLimits#defaults()}); a connection that
         * exceeds one is answered {@code -ERR Protocol error: …} and closed.
         */
        public Builder respLimits(RespLimits limits) {
            this.respLimits = java.util.Objects.requireNonNull(limits, "respLimits");
            return this;
        }

        /**
         * How long a drained node's RESP port stays open for clients still routing to it, answering {@code -MOVED}
         * (default {@link io.zaris.resp.RespLinger#defaults()}: until 2 s without a command, at most 35 s).
         */
        public Builder respLinger(io.zaris.resp.RespLinger linger) {
            this.respLinger = java.util.Objects.requireNonNull(linger, "respLinger");
            return this;
        }

        /** How long a node added to the running cluster waits before it is given partitions (default 10 s). */
        public Builder joinSettleDelay(Duration delay) {
            this.joinSettleDelay = delay;
            return this;
        }

        /** How many partitions a rebalance moves at once (default 8). */
        public Builder maxConcurrentMoves(int moves) {
            this.maxConcurrentMoves = moves;
            return this;
        }

        /** Acknowledgement mode, timeouts and delays of replication and failover. */
        public Builder replication(ReplicationSettings replication) {
            this.replication = replication;
            return this;
        }

        public Builder nodes(int nodes) {
            if (nodes < 1 || nodes > 64) {
                throw new IllegalArgumentException("an embedded cluster has 1..64 nodes, not " + nodes);
            }
            this.nodes = nodes;
            return this;
        }

        public Builder layout(PartitionLayout layout) {
            this.layout = layout;
            return this;
        }

        public Builder replicationFactor(int replicationFactor) {
            if (replicationFactor < 1) {
                throw new IllegalArgumentException("replicationFactor must be >= 1 but was " + replicationFactor);
            }
            this.replicationFactor = replicationFactor;
            return this;
        }

        /**
         * Bind address of the data ports. Loopback only (the default is 127.0.0.1): an embedded cluster lives
         * and dies with its application and is never meant to be reached from another host.
         *
         * @throws IllegalArgumentException for an address that is not a loopback address
         */
        public Builder host(String host) {
            if (!LoopbackAddresses.isLoopback(host)) {
                throw new IllegalArgumentException("an embedded cluster binds to loopback only, not '" + host
                        + "'; run standalone servers to serve other hosts");
            }
            this.host = host;
            return this;
        }

        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        /** @throws IllegalArgumentException when a RESP base port is set without RESP, or the nodes' ports pass 65535 */
        public EmbeddedCluster build() {
            if (respBasePort != 0 && !resp) {
                throw new IllegalArgumentException("a RESP base port (" + respBasePort + ") is set but RESP is off; call resp(true)");
            }
            if (configuredRespPort(respBasePort, nodes) > 65535) {
                throw new IllegalArgumentException("RESP base port " + respBasePort + " leaves no port for node-" + nodes
                        + " (ports end at 65535)");
            }
            return new EmbeddedCluster(this);
        }
    }
}
