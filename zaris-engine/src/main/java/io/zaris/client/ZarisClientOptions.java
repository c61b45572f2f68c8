package io.zaris.client;

import io.zaris.cluster.NodeAddress;
import io.zaris.protocol.ProtocolLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Settings of a {@link ZarisClient}, set in code. Immutable; build with {@link #builder()}.
 */
public final class ZarisClientOptions {

    /** Name the client announces in its handshake (shows in node logs). */
    public static final String DEFAULT_CLIENT_NAME = "zaris-client";
    /** TCP connect timeout per node. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How long {@link ZarisClient#connect} waits for a seed to hand out a cluster map. */
    public static final Duration DEFAULT_BOOTSTRAP_TIMEOUT = Duration.ofSeconds(30);
    /** How long one request may wait for its answer. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** Backstop poll of the full cluster map (DESIGN.md "Client": poll every 10 s). */
    public static final Duration DEFAULT_MAP_REFRESH_INTERVAL = Duration.ofSeconds(10);
    /** Requests that may wait for an answer on one node connection at once. */
    public static final int DEFAULT_MAX_IN_FLIGHT_PER_NODE = 65_536;

    private final List<NodeAddress> seeds;
    private final String clientName;
    private final Duration connectTimeout;
    private final Duration bootstrapTimeout;
    private final Duration requestTimeout;
    private final Duration mapRefreshInterval;
    private final int maxInFlightPerNode;

    private ZarisClientOptions(Builder builder) {
        if (builder.seeds.isEmpty()) {
            throw new IllegalArgumentException("at least one seed (host:port of a node's data port) is required");
        }
        this.seeds = List.copyOf(builder.seeds);
        this.clientName = builder.clientName;
        this.connectTimeout = builder.connectTimeout;
        this.bootstrapTimeout = builder.bootstrapTimeout;
        this.requestTimeout = builder.requestTimeout;
        this.mapRefreshInterval = builder.mapRefreshInterval;
        this.maxInFlightPerNode = builder.maxInFlightPerNode;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Options with the given seeds and every other setting at its default. */
    public static ZarisClientOptions create(List<NodeAddress> seeds) {
        return builder().seeds(seeds).build();
    }

    public List<NodeAddress> seeds() {
        return seeds;
    }

    public String clientName() {
        return clientName;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public Duration bootstrapTimeout() {
        return bootstrapTimeout;
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    public Duration mapRefreshInterval() {
        return mapRefreshInterval;
    }

    public int maxInFlightPerNode() {
        return maxInFlightPerNode;
    }

    /** Frames from nodes are trusted up to the protocol's default maximum. */
    int maxFrameBytes() {
        return ProtocolLimits.DEFAULT_MAX_FRAME_BYTES;
    }

    public static final class Builder {
        private final List<NodeAddress> seeds = new ArrayList<>();
        private String clientName = DEFAULT_CLIENT_NAME;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration bootstrapTimeout = DEFAULT_BOOTSTRAP_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private Duration mapRefreshInterval = DEFAULT_MAP_REFRESH_INTERVAL;
        private int maxInFlightPerNode = DEFAULT_MAX_IN_FLIGHT_PER_NODE;

        private Builder() {
        }

        public Builder seeds(List<NodeAddress> seeds) {
            this.seeds.clear();
            seeds.forEach(seed -> this.seeds.add(Objects.requireNonNull(seed, "seed must not be null")));
            return this;
        }

        /** Seeds as {@code host:port} text, e.g. {@code "10.0.0.1:7101"}. */
        public Builder seeds(String... seeds) {
            this.seeds.clear();
            for (String seed : seeds) {
                this.seeds.add(NodeAddress.parse(seed));
            }
            return this;
        }

        public Builder clientName(String clientName) {
            if (clientName == null || clientName.isBlank()) {
                throw new IllegalArgumentException("clientName must not be blank");
            }
            this.clientName = clientName;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connectTimeout");
            return this;
        }

        public Builder bootstrapTimeout(Duration bootstrapTimeout) {
            this.bootstrapTimeout = positive(bootstrapTimeout, "bootstrapTimeout");
            return this;
        }

        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = positive(requestTimeout, "requestTimeout");
            return this;
        }

        public Builder mapRefreshInterval(Duration mapRefreshInterval) {
            this.mapRefreshInterval = positive(mapRefreshInterval, "mapRefreshInterval");
            return this;
        }

        public Builder maxInFlightPerNode(int maxInFlightPerNode) {
            if (maxInFlightPerNode < 1) {
                throw new IllegalArgumentException("maxInFlightPerNode must be >= 1 but was " + maxInFlightPerNode);
            }
            this.maxInFlightPerNode = maxInFlightPerNode;
            return this;
        }

        public ZarisClientOptions build() {
            return new ZarisClientOptions(this);
        }

        private static Duration positive(Duration value, String name) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive but was " + value);
            }
            return value;
        }
    }
}
