package io.zaris.client;

import io.zaris.model.AckMode;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.security.Credentials;
import io.zaris.security.TlsOptions;
import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

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
    /** Deadline of one operation across all its attempts. */
    public static final RequestTimeout DEFAULT_REQUEST_TIMEOUT = RequestTimeout.DEFAULT;
    /**
     * How long one attempt waits for its answer before it counts as a timeout (retried when the operation
     * is idempotent); never longer than the operation's remaining deadline. Bounds the time a request
     * can hang on a node that stopped answering (e.g. a paused process) before the retry brain reroutes.
     */
    public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
    /** Attempts per operation, the first included. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    /** Linear retry backoff unit: attempt n waits {@code backoff * n} (8× for MIGRATING), capped at 2 s. */
    public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMillis(100);
    /** How long a caller waits for a shared map refresh before retrying with the map it has. */
    public static final Duration DEFAULT_MAP_REFRESH_WAIT = Duration.ofMillis(15_000);
    /** No reactive map refresh starts within this long of the previous one. */
    public static final Duration DEFAULT_MAP_REFRESH_DEBOUNCE = Duration.ofMillis(500);
    /** Backstop poll of the cluster map: every 10 s, behind pushes and reactions to wrong-node answers. */
    public static final Duration DEFAULT_MAP_REFRESH_INTERVAL = Duration.ofSeconds(10);
    /** Requests that may wait for an answer from one node at once (split over its connections). */
    public static final int DEFAULT_MAX_IN_FLIGHT_PER_NODE = 65_536;
    /**
     * Connections a client keeps to each node; each segment is bound to one of them (see
     * {@link StripedNodeConnections}). One by default: on a 2-core machine running the client and three nodes,
     * two connections per node measured slower (fewer requests per read and flush, more threads woken); more
     * pay off when a node has cores to spare for one client.
     */
    public static final int DEFAULT_CONNECTIONS_PER_NODE = 1;
    /** Upper bound of {@link Builder#connectionsPerNode}: more only costs sockets and server memory. */
    public static final int MAX_CONNECTIONS_PER_NODE = 64;
    /**
     * Blocking sockets per node for blocking single-key requests ({@link BlockingZarisClient#get}, and
     * {@code put} and {@code delete} without a condition, values up to 64 KiB): the calling thread writes the
     * request and reads the answer itself, saving the pipelined connection's two thread hand-offs. Callers beyond
     * this many at once use the pipelined connection. Not used with TLS. (Named for reads, which came first.)
     */
    public static final int DEFAULT_DIRECT_READ_CONNECTIONS_PER_NODE = 4;
    /** Upper bound of {@link Builder#directReadConnectionsPerNode}. */
    public static final int MAX_DIRECT_READ_CONNECTIONS_PER_NODE = 256;
    /** ASYNC write acknowledgements remembered to name the ones a takeover lost (about 100 bytes each). */
    public static final int DEFAULT_ASYNC_ACK_HISTORY = 16_384;

    private final List<NodeAddress> seeds;
    private final String clientName;
    private final Duration connectTimeout;
    private final Duration bootstrapTimeout;
    private final RequestTimeout requestTimeout;
    private final Duration mapRefreshInterval;
    private final int maxInFlightPerNode;
    private final int connectionsPerNode;
    private final int directReadConnectionsPerNode;
    private final int maxAttempts;
    private final Duration attemptTimeout;
    private final Duration retryBackoff;
    private final boolean retriesDisabled;
    private final Duration mapRefreshWait;
    private final Duration mapRefreshDebounce;
    private final boolean ownershipPushEnabled;
    private final ClientMetrics metrics;
    private final int asyncAckHistory;
    private final AckMode ackMode;
    private final Consumer<LostWrite> lostWriteListener;
    private final TimeSource timeSource;
    private final Credentials credentials;
    private final TlsOptions tls;
    private final NearCacheOptions nearCache;

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
        this.connectionsPerNode = builder.connectionsPerNode;
        this.directReadConnectionsPerNode = builder.directReadConnectionsPerNode;
        this.maxAttempts = builder.maxAttempts;
        this.attemptTimeout = builder.attemptTimeout;
        this.retryBackoff = builder.retryBackoff;
        this.retriesDisabled = builder.retriesDisabled;
        this.mapRefreshWait = builder.mapRefreshWait;
        this.mapRefreshDebounce = builder.mapRefreshDebounce;
        this.ownershipPushEnabled = builder.ownershipPushEnabled;
        this.metrics = builder.metrics;
        this.asyncAckHistory = builder.asyncAckHistory;
        this.ackMode = builder.ackMode;
        this.lostWriteListener = builder.lostWriteListener;
        this.timeSource = builder.timeSource;
        this.credentials = builder.credentials;
        this.tls = builder.tls;
        this.nearCache = builder.nearCache;
    }

    /** The near cache's settings; {@link NearCacheOptions#DISABLED} (the default) when every read goes to the owner. */
    public NearCacheOptions nearCache() {
        return nearCache;
    }

    /** TLS to every node, verifying each node's certificate; {@code null} for plaintext. */
    public TlsOptions tls() {
        return tls;
    }

    /** What the client logs in with on every node; {@code null} when the cluster requires no login. */
    public Credentials credentials() {
        return credentials;
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

    public RequestTimeout requestTimeout() {
        return requestTimeout;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    public Duration attemptTimeout() {
        return attemptTimeout;
    }

    public Duration retryBackoff() {
        return retryBackoff;
    }

    /** Whether every operation makes exactly one attempt. */
    public boolean retriesDisabled() {
        return retriesDisabled;
    }

    public Duration mapRefreshWait() {
        return mapRefreshWait;
    }

    public Duration mapRefreshDebounce() {
        return mapRefreshDebounce;
    }

    /** Whether ownership changes pushed by nodes are applied (the poll remains the backstop either way). */
    public boolean ownershipPushEnabled() {
        return ownershipPushEnabled;
    }

    public ClientMetrics metrics() {
        return metrics;
    }

    public int asyncAckHistory() {
        return asyncAckHistory;
    }

    /** How this client's puts and deletes ask to be acknowledged; {@code null}: the cluster's mode. */
    public AckMode ackMode() {
        return ackMode;
    }

    public Consumer<LostWrite> lostWriteListener() {
        return lostWriteListener;
    }

    /** The clock the client measures deadlines, waits and its connections' timeouts on. */
    public TimeSource timeSource() {
        return timeSource;
    }

    /** The retry decisions these options imply. */
    RetryPolicy retryPolicy() {
        return new RetryPolicy(retriesDisabled ? 1 : maxAttempts, retryBackoff);
    }

    public Duration mapRefreshInterval() {
        return mapRefreshInterval;
    }

    public int maxInFlightPerNode() {
        return maxInFlightPerNode;
    }

    /** Connections kept to each node; every segment's requests use one of them. */
    public int connectionsPerNode() {
        return connectionsPerNode;
    }

    /** Blocking sockets per node for blocking single-key requests; 0 when they are off (or TLS is on). */
    public int directReadConnectionsPerNode() {
        return tls == null ? directReadConnectionsPerNode : 0;
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
        private RequestTimeout requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private Duration mapRefreshInterval = DEFAULT_MAP_REFRESH_INTERVAL;
        private int maxInFlightPerNode = DEFAULT_MAX_IN_FLIGHT_PER_NODE;
        private int connectionsPerNode = DEFAULT_CONNECTIONS_PER_NODE;
        private int directReadConnectionsPerNode = DEFAULT_DIRECT_READ_CONNECTIONS_PER_NODE;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private Duration attemptTimeout = DEFAULT_ATTEMPT_TIMEOUT;
        private Duration retryBackoff = DEFAULT_RETRY_BACKOFF;
        private boolean retriesDisabled;
        private Duration mapRefreshWait = DEFAULT_MAP_REFRESH_WAIT;
        private Duration mapRefreshDebounce = DEFAULT_MAP_REFRESH_DEBOUNCE;
        private boolean ownershipPushEnabled = true;
        private ClientMetrics metrics = ClientMetrics.disabled();
        private int asyncAckHistory = DEFAULT_ASYNC_ACK_HISTORY;
        private AckMode ackMode;
        private Consumer<LostWrite> lostWriteListener = lost -> { };
        private TimeSource timeSource = TimeSource.system();
        private Map<String, String> environment = System.getenv();
        private Credentials credentials;
        private TlsOptions tls;
        private NearCacheOptions nearCache = NearCacheOptions.DISABLED;

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

        /** Deadline of each operation across all its attempts. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = RequestTimeout.of(positive(requestTimeout, "requestTimeout"));
            return this;
        }

        /** Deadline of each operation; {@link RequestTimeout#INFINITE} disables it. */
        public Builder requestTimeout(RequestTimeout requestTimeout) {
            this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout must not be null");
            return this;
        }

        public Builder maxAttempts(int maxAttempts) {
            if (maxAttempts < 1 || maxAttempts > 100) {
                throw new IllegalArgumentException("maxAttempts must be in 1..100 but was " + maxAttempts);
            }
            this.maxAttempts = maxAttempts;
            return this;
        }

        public Builder attemptTimeout(Duration attemptTimeout) {
            this.attemptTimeout = positive(attemptTimeout, "attemptTimeout");
            return this;
        }

        public Builder retryBackoff(Duration retryBackoff) {
            if (retryBackoff == null || retryBackoff.isNegative()) {
                throw new IllegalArgumentException("retryBackoff must be >= 0 but was " + retryBackoff);
            }
            this.retryBackoff = retryBackoff;
            return this;
        }

        /** {@code true}: one attempt per operation, whatever {@link #maxAttempts} says. */
        public Builder disableRetries(boolean retriesDisabled) {
            this.retriesDisabled = retriesDisabled;
            return this;
        }

        public Builder mapRefreshWait(Duration mapRefreshWait) {
            this.mapRefreshWait = positive(mapRefreshWait, "mapRefreshWait");
            return this;
        }

        public Builder mapRefreshDebounce(Duration mapRefreshDebounce) {
            if (mapRefreshDebounce == null || mapRefreshDebounce.isNegative()) {
                throw new IllegalArgumentException("mapRefreshDebounce must be >= 0 but was " + mapRefreshDebounce);
            }
            this.mapRefreshDebounce = mapRefreshDebounce;
            return this;
        }

        public Builder ownershipPushEnabled(boolean ownershipPushEnabled) {
            this.ownershipPushEnabled = ownershipPushEnabled;
            return this;
        }

        public Builder metrics(ClientMetrics metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics must not be null");
            return this;
        }

        /**
         * How this client's puts and deletes ask to be acknowledged ({@code SYNC}: after the replicas applied
         * them; {@code ASYNC}: once the active owner has); {@code null}, the default, leaves it to the
         * cluster's configured mode. Single calls can override it ({@code put(key, value, ttl, ack)}).
         */
        public Builder ackMode(AckMode ackMode) {
            this.ackMode = ackMode;
            return this;
        }

        /**
         * How many ASYNC write acknowledgements the client remembers so that, when a node takes a partition
         * over, it can name those that fell into the loss window ({@code 0}: it only counts the ones whose
         * responses arrive after the takeover).
         */
        public Builder asyncAckHistory(int acknowledgements) {
            if (acknowledgements < 0) {
                throw new IllegalArgumentException("asyncAckHistory must be >= 0 but was " + acknowledgements);
            }
            this.asyncAckHistory = acknowledgements;
            return this;
        }

        /**
         * Told, on a network thread, of every acknowledged ASYNC write a takeover showed lost. Must be quick
         * and must not block.
         */
        public Builder lostWriteListener(Consumer<LostWrite> listener) {
            this.lostWriteListener = Objects.requireNonNull(listener, "lostWriteListener must not be null");
            return this;
        }

        /**
         * The environment whose {@code ZARIS_*} variables override these options at {@link #build()};
         * {@link System#getenv()} unless replaced (tests, or an empty map to ignore the environment).
         */
        public Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(environment);
            return this;
        }

        /**
         * Logs in with this password (as the {@value Credentials#DEFAULT_USER} user, or the user set with
         * {@link #credentials}). Overridden by {@code ZARIS_PASSWORD}/{@code ZARIS_USER}.
         */
        public Builder password(String password) {
            this.credentials = password == null ? null : new Credentials(
                    credentials == null ? Credentials.DEFAULT_USER : credentials.user(), password);
            return this;
        }

        /** Logs in as this user with this password; {@code null} for no login. */
        public Builder credentials(Credentials credentials) {
            this.credentials = credentials;
            return this;
        }

        Credentials credentials() {
            return credentials;
        }

        /**
         * Connects to every node over TLS, trusting the certificates {@code tls} trusts (its key material, if
         * any, is not used: the client logs in with credentials); {@code null} for plaintext (the default).
         */
        public Builder tls(TlsOptions tls) {
            this.tls = tls;
            return this;
        }

        /**
         * The clock the client reads for every deadline, wait and connection timeout (default: the system clock);
         * tests pass a fake one.
         */
        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = Objects.requireNonNull(timeSource, "timeSource must not be null");
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

        /**
         * Blocking sockets per node for blocking GETs and unconditional PUTs and DELETEs (default
         * {@value #DEFAULT_DIRECT_READ_CONNECTIONS_PER_NODE}: see the constant); 0 turns them off, so every blocking
         * call goes through the pipelined connection. Ignored with TLS.
         */
        public Builder directReadConnectionsPerNode(int connections) {
            if (connections < 0 || connections > MAX_DIRECT_READ_CONNECTIONS_PER_NODE) {
                throw new IllegalArgumentException("directReadConnectionsPerNode must be between 0 and "
                        + MAX_DIRECT_READ_CONNECTIONS_PER_NODE + " but was " + connections);
            }
            this.directReadConnectionsPerNode = connections;
            return this;
        }

        /**
         * Keeps values this client read in its own memory, bounded as {@code options} say, and serves them
         * without a round trip while their owner can vouch for them ({@link NearCacheOptions#DISABLED}, the
         * default, turns it off).
         */
        public Builder nearCache(NearCacheOptions options) {
            if (options == null) {
                throw new IllegalArgumentException("nearCache options must not be null; use NearCacheOptions.DISABLED");
            }
            this.nearCache = options;
            return this;
        }

        /**
         * Connections to keep to each node (1 to {@link #MAX_CONNECTIONS_PER_NODE}); every segment is bound to
         * one of them ({@code segment % connectionsPerNode}), so the requests of one segment keep their order.
         */
        public Builder connectionsPerNode(int connectionsPerNode) {
            if (connectionsPerNode < 1 || connectionsPerNode > MAX_CONNECTIONS_PER_NODE) {
                throw new IllegalArgumentException("connectionsPerNode must be between 1 and " + MAX_CONNECTIONS_PER_NODE
                        + " but was " + connectionsPerNode);
            }
            this.connectionsPerNode = connectionsPerNode;
            return this;
        }

        /**
         * @throws IllegalArgumentException when a {@code ZARIS_*} environment variable has a bad value
         *                                  (the message names the variable and the value)
         */
        public ZarisClientOptions build() {
            ClientEnvironment.apply(this, environment);
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
