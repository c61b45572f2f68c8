package io.zaris.server;

import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.replication.ReplicationSettings;
import io.zaris.resp.RespOptions;
import io.zaris.security.OutboundLimits;
import io.zaris.security.SecurityOptions;
import io.zaris.store.MemoryOptions;
import io.zaris.store.TimeSource;
import java.util.Objects;

/**
 * Everything one node needs to start. Immutable; built with {@link #builder(String)}.
 */
public final class NodeConfig {

    /** Data port bind address when none is given: loopback, so nothing is exposed by accident. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    private final String nodeId;
    private final String host;
    private final int port;
    private final String advertisedHost;
    private final int advertisedPort;
    private final ClusterSettings clusterSettings;
    private final MembershipConfig membership;
    private final ProtocolLimits limits;
    private final TimeSource timeSource;
    private final ReplicationSettings replication;
    private final RespOptions resp;
    private final MemoryOptions memory;
    private final SecurityOptions security;
    private final OutboundLimits outboundLimits;

    private NodeConfig(Builder builder) {
        this.nodeId = builder.nodeId;
        this.host = builder.host;
        this.port = builder.port;
        this.advertisedHost = builder.advertisedHost;
        this.advertisedPort = builder.advertisedPort;
        if (advertisedHost == null && MembershipConfig.isWildcard(host)) {
            throw new IllegalArgumentException("data port bound to every interface (" + host + ") needs an advertised"
                    + " host: clients and peers cannot reach a node at " + host);
        }
        this.clusterSettings = Objects.requireNonNull(builder.clusterSettings, "clusterSettings must be set");
        this.membership = Objects.requireNonNull(builder.membership, "membership must be set");
        this.limits = builder.limits;
        this.timeSource = builder.timeSource;
        this.replication = builder.replication;
        this.resp = builder.resp;
        this.memory = builder.memory;
        this.security = builder.security;
        this.outboundLimits = builder.outboundLimits;
    }

    public static Builder builder(String nodeId) {
        return new Builder(nodeId);
    }

    public String nodeId() {
        return nodeId;
    }

    public String host() {
        return host;
    }

    /** Data port; 0 picks a free ephemeral port. */
    public int port() {
        return port;
    }

    /**
     * The data address the node announces in the cluster map, which clients and peers connect to: the advertised
     * host and port when set (a wildcard bind, NAT, a Kubernetes pod behind a Service), else the bind host and
     * {@code boundPort}, the port the data port actually bound.
     */
    public NodeAddress advertisedAddress(int boundPort) {
        return new NodeAddress(advertisedHost == null ? host : advertisedHost, advertisedPort == 0 ? boundPort : advertisedPort);
    }

    public ClusterSettings clusterSettings() {
        return clusterSettings;
    }

    public MembershipConfig membership() {
        return membership;
    }

    public ProtocolLimits limits() {
        return limits;
    }

    public TimeSource timeSource() {
        return timeSource;
    }

    public ReplicationSettings replication() {
        return replication;
    }

    /** The node's Redis protocol (RESP) listener, {@code null} when the node has none. */
    public RespOptions resp() {
        return resp;
    }

    /** The node's memory budget and eviction policy. */
    public MemoryOptions memory() {
        return memory;
    }

    /** Who may connect to the data and RESP ports, and how this node logs in to its peers. */
    public SecurityOptions security() {
        return security;
    }

    /** How much a node buffers for a client that does not read, and for how long. */
    public OutboundLimits outboundLimits() {
        return outboundLimits;
    }

    public static final class Builder {
        private final String nodeId;
        private String host = DEFAULT_HOST;
        private int port;
        private String advertisedHost;
        private int advertisedPort;
        private ClusterSettings clusterSettings;
        private MembershipConfig membership;
        private ProtocolLimits limits = ProtocolLimits.defaults();
        private TimeSource timeSource = TimeSource.system();
        private ReplicationSettings replication = ReplicationSettings.defaults();
        private RespOptions resp;
        private MemoryOptions memory = MemoryOptions.defaults();
        private SecurityOptions security = SecurityOptions.none();
        private OutboundLimits outboundLimits = OutboundLimits.defaults();

        private Builder(String nodeId) {
            if (nodeId == null || nodeId.isBlank() || nodeId.length() > 128) {
                throw new IllegalArgumentException("node id must be 1..128 non-blank characters but was '" + nodeId + "'");
            }
            this.nodeId = nodeId;
        }

        public Builder host(String host) {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("host must not be blank");
            }
            this.host = host;
            return this;
        }

        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be in 0..65535 but was " + port);
            }
            this.port = port;
            return this;
        }

        /** The host clients and peers reach the data port at ({@code null}, the default: the bind host). */
        public Builder advertisedHost(String advertisedHost) {
            if (advertisedHost != null && (advertisedHost.isBlank() || MembershipConfig.isWildcard(advertisedHost))) {
                throw new IllegalArgumentException("advertised host must be an address others can reach but was '"
                        + advertisedHost + "'");
            }
            this.advertisedHost = advertisedHost;
            return this;
        }

        /** The port clients and peers reach the data port at ({@code 0}, the default: the bound port). */
        public Builder advertisedPort(int advertisedPort) {
            if (advertisedPort < 0 || advertisedPort > 65535) {
                throw new IllegalArgumentException("advertised port must be in 1..65535 (0: the bound port) but was "
                        + advertisedPort);
            }
            this.advertisedPort = advertisedPort;
            return this;
        }

        public Builder clusterSettings(ClusterSettings clusterSettings) {
            this.clusterSettings = Objects.requireNonNull(clusterSettings);
            return this;
        }

        public Builder membership(MembershipConfig membership) {
            this.membership = Objects.requireNonNull(membership);
            return this;
        }

        public Builder limits(ProtocolLimits limits) {
            this.limits = Objects.requireNonNull(limits);
            return this;
        }

        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = Objects.requireNonNull(timeSource);
            return this;
        }

        public Builder replication(ReplicationSettings replication) {
            this.replication = Objects.requireNonNull(replication);
            return this;
        }

        /** Gives the node a RESP listener ({@code null}: none, the default). */
        public Builder resp(RespOptions resp) {
            this.resp = resp;
            return this;
        }

        /**
         * Memory budget and eviction policy (default {@link MemoryOptions#defaults()}: a share of the heap
         * meant for a node that has its JVM to itself).
         */
        public Builder memory(MemoryOptions memory) {
            this.memory = Objects.requireNonNull(memory);
            return this;
        }

        /** Authentication of clients and peers (default: none). */
        public Builder security(SecurityOptions security) {
            this.security = Objects.requireNonNull(security);
            return this;
        }

        public Builder outboundLimits(OutboundLimits outboundLimits) {
            this.outboundLimits = Objects.requireNonNull(outboundLimits);
            return this;
        }

        public NodeConfig build() {
            return new NodeConfig(this);
        }
    }
}
