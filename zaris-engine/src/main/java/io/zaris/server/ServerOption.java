package io.zaris.server;

import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.IoLoops;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.replication.ReplicationSettings;
import io.zaris.resp.RespLimits;
import io.zaris.resp.RespLinger;
import io.zaris.resp.RespOptions;
import io.zaris.security.SecurityOptions;
import io.zaris.store.MemoryOptions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The catalog of a node's options: every option of the standalone server once, with its type (and bounds), its
 * default, its help line and where its value lands in a {@link NodeConfig}. Everything else derives from it: the
 * command-line name ({@code --cluster-port}), the environment variable ({@code ZARIS_CLUSTER_PORT}: {@code ZARIS_},
 * the name upper-cased, dashes turned into underscores), the configuration-file key ({@code cluster-port}), the
 * help text ({@link #usage()}), how {@link ServerArguments} reads a value ({@link OptionReader}), and the options
 * table of the reference page, which a test holds equal to it. Tests also hold the embedded cluster's builder and
 * the Spring properties of an embedded cluster to the same defaults, naming each option they leave out and why.
 *
 * <p>Defaults: a {@link Default#value constant} default is written in the option's own syntax and read by the same
 * parser as a given value, so the documented default and the applied one cannot differ. A {@link Default#derived
 * derived} default (another option's value, one per core) is computed by {@link ServerArguments}; the catalog
 * describes it.
 *
 * <p>Durations take one syntax, canonical everywhere: a whole number and a unit ({@code 250us}, {@code 1500ms},
 * {@code 30s}, {@code 2m}, {@code 1h}; {@code 0} needs none). A plain number, the spelling from before, is still
 * read as milliseconds with a deprecation warning. A {@link #deprecatedFor deprecated} option still works and names
 * its replacement in a warning; the old {@code *-ms} and {@code *-us} options took plain numbers in that unit.
 */
public enum ServerOption {

    NODE_ID("node-id", "<id>", ValueType.TEXT, Default.REQUIRED, "unique name of this node", NodeConfig::nodeId),
    CONFIG("config", "<file>", ValueType.PATH, Default.NONE, "configuration file: one 'option-name = value' per line,"
            + " '#' starts a comment; command-line options and environment variables win over it", null),
    HOST("host", "<address>", ValueType.ADDRESS, Default.value(NodeConfig.DEFAULT_HOST), "data port bind address;"
            + " 0.0.0.0 or :: for every interface (then give --advertise-host)", NodeConfig::host),
    PORT("port", "<port>", ValueType.PORT, Default.value(ServerArguments.DEFAULT_PORT),
            "data port for clients and peer nodes", NodeConfig::port),
    ADVERTISE_HOST("advertise-host", "<address>", ValueType.ADDRESS, Default.derived("`--host`"), "address clients and"
            + " peers reach the data port at, announced in the cluster map; also the host of the announced RESP port",
            config -> config.advertisedAddress(config.port()).host()),
    ADVERTISE_PORT("advertise-port", "<port>", ValueType.PORT, Default.derived("`--port`"),
            "port clients and peers reach the data port at", config -> config.advertisedAddress(config.port()).port()),
    CLUSTER_HOST("cluster-host", "<address>", ValueType.ADDRESS, Default.derived("`--host`"), "membership bind address",
            config -> tcp(config, MembershipConfig.Tcp::bindHost)),
    CLUSTER_PORT("cluster-port", "<port>", ValueType.PORT, Default.value(ServerArguments.DEFAULT_CLUSTER_PORT),
            "membership port", config -> tcp(config, MembershipConfig.Tcp::bindPort)),
    CLUSTER_ADVERTISE_HOST("cluster-advertise-host", "<address>", ValueType.ADDRESS,
            Default.derived("`--advertise-host` for a wildcard or unset `--cluster-host`, else `--cluster-host`"),
            "address peers reach the membership port at",
            config -> tcp(config, tcp -> tcp.advertised() == null ? tcp.bindHost() : tcp.advertised().host())),
    CLUSTER_ADVERTISE_PORT("cluster-advertise-port", "<port>", ValueType.PORT, Default.derived("`--cluster-port`"),
            "port peers reach the membership port at",
            config -> tcp(config, tcp -> tcp.advertised() == null ? tcp.bindPort() : tcp.advertised().port())),
    SEEDS("seeds", "<h:p,h:p,...>", ValueType.TEXT, Default.derived("this node"),
            "membership ports of the cluster's nodes", config -> tcp(config, MembershipConfig.Tcp::seeds)),
    DISCOVERY("discovery", "<how>", ValueType.TEXT, Default.value("seeds"), "how peers are found: 'seeds'"
            + " (--seeds), 'dns:<name>' (A/AAAA records; every node uses this node's --cluster-port) or"
            + " 'dns-srv:<name>' (SRV records carry the ports)", config -> tcp(config, MembershipConfig.Tcp::dns)),
    DNS_SERVER("dns-server", "<host[:port]>", ValueType.ADDRESS, Default.derived("the system's resolver"),
            "DNS server for --discovery dns",
            config -> tcp(config, tcp -> tcp.dns() == null ? null : tcp.dns().server())),
    CLUSTER_SIZE("cluster-size", "<n>", ValueType.count(1, 1024), Default.derived("number of seeds"),
            "nodes the cluster is configured with (required with DNS discovery)",
            config -> config.clusterSettings().clusterSize()),
    CLUSTER_NAME("cluster-name", "<name>", ValueType.TEXT, Default.value(ServerArguments.DEFAULT_CLUSTER_NAME),
            "nodes join only peers with the same name", config -> tcp(config, MembershipConfig.Tcp::clusterName)),
    REPLICATION_FACTOR("replication-factor", "<n>", ValueType.count(1, 255),
            Default.value(ClusterSettings.DEFAULT_REPLICATION_FACTOR), "owners per partition",
            config -> config.clusterSettings().replicationFactor()),
    PARTITIONS("partitions", "<n>", ValueType.count(1, SegmentMapper.SLOT_COUNT),
            Default.value(PartitionLayout.DEFAULT_PARTITION_COUNT), "partitions, at most --segments",
            config -> config.clusterSettings().layout().partitionCount()),
    SEGMENTS("segments", "<n>", ValueType.count(1, SegmentMapper.SLOT_COUNT),
            Default.value(PartitionLayout.DEFAULT_SEGMENT_COUNT), "segments",
            config -> config.clusterSettings().layout().segmentCount()),
    ACK_MODE("ack-mode", "<sync|async>", ValueType.choice("sync", "async"),
            Default.value(ReplicationSettings.DEFAULT_ACK_MODE.name().toLowerCase(Locale.ROOT)),
            "when writes are acknowledged", config -> config.replication().ackMode().name().toLowerCase(Locale.ROOT)),
    MIN_SYNC_REPLICAS("min-sync-replicas", "<n>", ValueType.count(0, 254),
            Default.value(ReplicationSettings.DEFAULT_MIN_SYNC_REPLICAS), "strict SYNC: refuse writes with fewer"
            + " replicas connected (0: wait for every live replica, none if none is left)",
            config -> config.replication().minSyncReplicas()),
    EVICTION_DELAY("eviction-delay", "<duration>", ValueType.duration(Duration.ZERO, ValueType.FOREVER),
            Default.value(ReplicationSettings.DEFAULT_EVICTION_DELAY), "a node missing this long has its copies"
            + " re-homed to live nodes (0: as soon as its partitions failed over)",
            config -> config.replication().evictionDelay()),
    HEAL_COOLDOWN("heal-cooldown", "<duration>", ValueType.duration(Duration.ZERO, ValueType.FOREVER),
            Default.value(ReplicationSettings.DEFAULT_HEAL_COOLDOWN),
            "stable time before a partition heals or fails back", config -> config.replication().healCooldown()),
    ASYNC_FLUSH_DELAY("async-flush-delay", "<duration>",
            ValueType.duration(Duration.ZERO, ReplicationSettings.MAX_ASYNC_FLUSH_DELAY),
            Default.value(ReplicationSettings.DEFAULT_ASYNC_FLUSH_DELAY), "how long changes of ASYNC writes may wait"
            + " to share a flush to replicas, e.g. 1ms or 250us (0 to "
            + Durations.describe(ReplicationSettings.MAX_ASYNC_FLUSH_DELAY) + ")",
            config -> config.replication().asyncFlushDelay()),
    REPLICA_BACKLOG("replica-backlog", "<size>", ValueType.size(64 * 1024, Integer.MAX_VALUE),
            Default.derived("1/32 of the max heap, `1m` to `64m`"), "bytes of changes a replica may leave unanswered"
            + " before its owner drops the link and re-syncs the replica once it answers again",
            config -> config.replication().effectiveReplicaBacklog(Runtime.getRuntime().maxMemory())),
    JOIN_SETTLE_DELAY("join-settle-delay", "<duration>", ValueType.duration(Duration.ZERO, ValueType.FOREVER),
            Default.value(ClusterSettings.DEFAULT_JOIN_SETTLE_DELAY), "how long a node that joined a running cluster"
            + " stays before it gets partitions", config -> config.clusterSettings().joinSettleDelay()),
    MAX_CONCURRENT_MOVES("max-concurrent-moves", "<n>", ValueType.count(1, 100_000),
            Default.value(ClusterSettings.DEFAULT_MAX_CONCURRENT_MOVES), "partitions a rebalance moves at once",
            config -> config.clusterSettings().maxConcurrentMoves()),
    ESCALATION_TIMEOUT("escalation-timeout", "<duration>", ValueType.duration(Duration.ofSeconds(3), ValueType.FOREVER),
            Default.value(MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT), "how long a silent (hung) node is"
            + " suspected before its partitions fail over (at least 3s)",
            config -> tcp(config, MembershipConfig.Tcp::escalationTimeout)),
    RESP_PORT("resp-port", "<port|off>", ValueType.PORT_OR_OFF,
            Default.derived("`--port` + " + RespOptions.DEFAULT_PORT_OFFSET), "Redis protocol port; every node of a"
            + " cluster must use the same offset from its data port; 0 or off disables it",
            config -> config.resp() == null ? "off" : config.resp().port()),
    RESP_HOST("resp-host", "<address>", ValueType.ADDRESS, Default.derived("`--host`"), "Redis protocol bind address",
            config -> config.resp() == null ? null : config.resp().host()),
    RESP_ADVERTISE_PORT("resp-advertise-port", "<port>", ValueType.PORT,
            Default.derived("`--advertise-port` + the RESP port's offset from `--port`"), "port Redis clients reach"
            + " the RESP port at, named in MOVED and CLUSTER SLOTS/SHARDS/NODES at the --advertise-host; every node"
            + " must use the same offset from its advertised data port", null),
    RESP_MAX_BULK_BYTES("resp-max-bulk-bytes", "<size>", ValueType.size(1, RespLimits.MAX_BULK_BYTES),
            Default.value(ValueType.describeSize(RespLimits.DEFAULT_MAX_BULK_BYTES)), "largest bulk string a RESP"
            + " command may carry: bytes, NNk, NNm or NNg (at most 1g)",
            config -> config.resp() == null ? null : config.resp().limits().maxBulkBytes()),
    RESP_MAX_ARGS("resp-max-args", "<n>", ValueType.count(1, Integer.MAX_VALUE),
            Default.value(RespLimits.DEFAULT_MAX_ARRAY_LENGTH), "most arguments of one RESP command",
            config -> config.resp() == null ? null : config.resp().limits().maxArrayLength()),
    RESP_MAX_INLINE_BYTES("resp-max-inline-bytes", "<size>", ValueType.size(16, RespLimits.MAX_BULK_BYTES),
            Default.value(ValueType.describeSize(RespLimits.DEFAULT_MAX_INLINE_BYTES)),
            "longest inline RESP command line (at least 16)",
            config -> config.resp() == null ? null : config.resp().limits().maxInlineBytes()),
    RESP_LINGER_QUIET("resp-linger-quiet", "<duration>", ValueType.duration(Duration.ZERO, ValueType.FOREVER),
            Default.value(RespLinger.DEFAULT_QUIET), "after a drain, the RESP port closes once its clients sent no"
            + " command (but connection and topology ones) for this long; until then it answers MOVED to the new owners",
            config -> config.resp() == null ? null : config.resp().linger().quiet()),
    RESP_LINGER_MAX("resp-linger-max", "<duration>", ValueType.duration(Duration.ZERO, ValueType.FOREVER),
            Default.value(RespLinger.DEFAULT_MAX), "after a drain, the longest the RESP port stays open for clients"
            + " still routing to this node (0 closes it at once; at least --resp-linger-quiet)",
            config -> config.resp() == null ? null : config.resp().linger().max()),
    HTTP_PORT("http-port", "<port|off>", ValueType.PORT_OR_OFF, Default.value("off"),
            "HTTP port for /health/live, /health/ready and /metrics (Prometheus)", null),
    HTTP_HOST("http-host", "<address>", ValueType.ADDRESS, Default.derived("`--host`"), "HTTP bind address", null),
    MAX_MEMORY("max-memory", "<size>", ValueType.TEXT,
            Default.value(Math.round(MemoryOptions.DEFAULT_HEAP_FRACTION * 100) + "%"),
            "memory budget: bytes, NNk, NNm, NNg or NN% of the max heap", config -> config.memory().maxBytes()),
    EVICTION_POLICY("eviction-policy", "<policy>", ValueType.TEXT,
            Default.value(MemoryOptions.DEFAULT_POLICY.toString()),
            "allkeys-lru, volatile-lru, volatile-ttl or noeviction",
            config -> config.memory().policy().toString()),
    PASSWORD_FILE("password-file", "<path>", ValueType.PATH, Default.derived("none (or `ZARIS_PASSWORD`)"),
            "file whose first line is the shared password; clients and peer nodes must log in with it",
            config -> config.security().requiresAuthentication()),
    USERS_FILE("users-file", "<path>", ValueType.PATH, Default.NONE, "extra users, one per line:"
            + " <name> read-write|read-only <password> (needs a shared password)", null),
    ALLOW_INSECURE("allow-insecure", null, ValueType.FLAG, Default.derived("off"), "bind a non-loopback address"
            + " without a password, or the membership port without a cluster secret (prints a warning)", null),
    LOGIN_TIMEOUT("login-timeout", "<duration>", ValueType.duration(Duration.ofMillis(100), ValueType.FOREVER),
            Default.value(SecurityOptions.DEFAULT_LOGIN_TIMEOUT),
            "close connections that have not logged in by then (only with a password)",
            config -> config.security().loginTimeout()),
    TLS_CERT("tls-cert", "<pem>", ValueType.PATH, Default.NONE, "TLS certificate chain (PEM) of this node; with --tls-key",
            config -> config.security().tls() != null),
    TLS_KEY("tls-key", "<pem>", ValueType.PATH, Default.NONE, "its private key (unencrypted PKCS#8 PEM)", null),
    TLS_KEYSTORE("tls-keystore", "<p12|jks>", ValueType.PATH, Default.NONE,
            "TLS key material from a PKCS12 (or .jks) key store instead of PEM files", null),
    TLS_KEYSTORE_PASSWORD_FILE("tls-keystore-password-file", "<path>", ValueType.PATH,
            Default.derived("none (or `" + ServerArguments.TLS_KEYSTORE_PASSWORD_VARIABLE + "`)"),
            "file whose first line is the key store's password", null),
    TLS_CA("tls-ca", "<pem>", ValueType.PATH, Default.NONE, "CA certificates that peer nodes' certificates must chain to",
            null),
    TLS_TRUSTSTORE("tls-truststore", "<p12|jks>", ValueType.PATH, Default.derived("the JVM's trust store"),
            "a trust store instead of --tls-ca", null),
    TLS_TRUSTSTORE_PASSWORD_FILE("tls-truststore-password-file", "<path>", ValueType.PATH,
            Default.derived("none (or `" + ServerArguments.TLS_TRUSTSTORE_PASSWORD_VARIABLE + "`)"),
            "file whose first line is the trust store's password", null),
    CLUSTER_SECRET_FILE("cluster-secret-file", "<path>", ValueType.PATH,
            Default.derived("none (or `" + ServerArguments.CLUSTER_SECRET_VARIABLE + "`)"), "file whose first line is"
            + " the cluster secret; authenticates and encrypts membership traffic",
            config -> config.security().clusterSecret() != null),
    DRAIN_ON_STOP("drain-on-stop", "<duration>", ValueType.duration(Duration.ZERO, null),
            Default.value(ServerArguments.DEFAULT_DRAIN_ON_STOP), "on SIGTERM, move this node's partitions to the"
            + " other nodes first and wait up to this long (0 leaves at once)", null),
    IO_THREADS("io-threads", "<n>", ValueType.count(1, IoLoops.MAX_THREADS), Default.derived("one per core"),
            "event-loop threads for the data port, the RESP port and node-to-node links", null),
    MAX_KEY_BYTES("max-key-bytes", "<size>", ValueType.size(1, ServerArguments.MAX_KEY_BYTES_LIMIT),
            Default.value(ValueType.describeSize(ProtocolLimits.DEFAULT_MAX_KEY_BYTES)), "largest key a request may"
            + " carry, bigger ones are answered TOO_LARGE: bytes, NNk, NNm or NNg",
            config -> config.limits().maxKeyBytes()),
    MAX_VALUE_BYTES("max-value-bytes", "<size>", ValueType.size(1, ServerArguments.MAX_VALUE_BYTES_LIMIT),
            Default.value(ValueType.describeSize(ProtocolLimits.DEFAULT_MAX_VALUE_BYTES)),
            "largest value a request may carry, bigger ones are answered TOO_LARGE",
            config -> config.limits().maxValueBytes()),
    MAX_FRAME_BYTES("max-frame-bytes", "<size>", ValueType.size(ProtocolLimits.MIN_NODE_FRAME_BYTES, Integer.MAX_VALUE),
            Default.derived("key + value limits + 1 KiB, at least `32m` + 65 KiB"), "largest frame the data port"
            + " reads; a bigger one closes its connection (never below 2m or the key + value limits + 1k)",
            config -> config.limits().maxFrameBytes()),

    // The spellings before one duration syntax: plain numbers in the unit their name ends with.
    EVICTION_DELAY_MS("eviction-delay-ms", EVICTION_DELAY, "ms"),
    HEAL_COOLDOWN_MS("heal-cooldown-ms", HEAL_COOLDOWN, "ms"),
    ASYNC_FLUSH_DELAY_US("async-flush-delay-us", ASYNC_FLUSH_DELAY, "us"),
    JOIN_SETTLE_DELAY_MS("join-settle-delay-ms", JOIN_SETTLE_DELAY, "ms"),
    ESCALATION_TIMEOUT_MS("escalation-timeout-ms", ESCALATION_TIMEOUT, "ms"),
    LOGIN_TIMEOUT_MS("login-timeout-ms", LOGIN_TIMEOUT, "ms");

    /** Prefix of every option's environment variable. */
    public static final String ENVIRONMENT_PREFIX = "ZARIS_";

    private final String key;
    /** Placeholder of the value in the help text; {@code null} for a flag, which takes none. */
    private final String valueLabel;
    private final ValueType type;
    private final Default defaultValue;
    private final String help;
    /** Reads what this option set in a node's configuration; {@code null} when it lands outside NodeConfig. */
    private final Function<NodeConfig, Object> landing;
    /** The option to use instead; {@code null} unless this one is deprecated. */
    private final ServerOption deprecatedFor;
    /** Unit of the plain numbers a deprecated duration option takes ({@code ms}, {@code us}). */
    private final String legacyUnit;

    ServerOption(String key, String valueLabel, ValueType type, Default defaultValue, String help,
                 Function<NodeConfig, Object> landing) {
        this(key, valueLabel, type, defaultValue, help, landing, null, null);
    }

    ServerOption(String key, ServerOption replacement, String legacyUnit) {
        this(key, "<" + legacyUnit + ">", replacement.type, replacement.defaultValue,
                "deprecated: use --" + replacement.key + " with a unit", replacement.landing, replacement, legacyUnit);
    }

    ServerOption(String key, String valueLabel, ValueType type, Default defaultValue, String help,
                 Function<NodeConfig, Object> landing, ServerOption deprecatedFor, String legacyUnit) {
        this.key = key;
        this.valueLabel = valueLabel;
        this.type = type;
        this.defaultValue = defaultValue;
        this.help = help;
        this.landing = landing;
        this.deprecatedFor = deprecatedFor;
        this.legacyUnit = legacyUnit;
    }

    /** The configuration-file key, e.g. {@code cluster-port}. */
    public String key() {
        return key;
    }

    /** The command-line name, e.g. {@code --cluster-port}. */
    public String flag() {
        return "--" + key;
    }

    /** The environment variable, e.g. {@code ZARIS_CLUSTER_PORT}. */
    public String environmentVariable() {
        return ENVIRONMENT_PREFIX + key.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** Whether the option takes no value ({@code --allow-insecure}; {@code true}/{@code false} elsewhere). */
    public boolean isFlag() {
        return type == ValueType.FLAG;
    }

    /** What the option's value is, with its bounds. */
    public ValueType type() {
        return type;
    }

    /** The option's default, as documented. */
    public Default defaultValue() {
        return defaultValue;
    }

    /** The constant default read as the option's type ({@link ValueType#read}); empty for a derived default. */
    public Optional<Object> typedDefault() {
        return Optional.ofNullable(defaultValue.value()).map(text -> type.read(flag(), text));
    }

    public String help() {
        return help;
    }

    String valueLabel() {
        return valueLabel;
    }

    /**
     * What this option set in {@code config}, in the option's type where it has one (a port as an
     * {@code Integer}, a duration as a {@link Duration}, a choice in lower case); empty for an option that lands
     * elsewhere (the server's launch: {@code --drain-on-stop}, {@code --io-threads}, the HTTP endpoint) or only
     * decides, with others, an object (a key file, a user list).
     */
    public Optional<Object> valueIn(NodeConfig config) {
        return landing == null ? Optional.empty() : Optional.ofNullable(landing.apply(config));
    }

    /** Whether {@link #valueIn} reads this option from a node's configuration. */
    public boolean landsOnNodeConfig() {
        return landing != null;
    }

    /** The option that replaces this deprecated one. */
    public Optional<ServerOption> deprecatedFor() {
        return Optional.ofNullable(deprecatedFor);
    }

    /** Unit of a deprecated duration option's plain numbers. */
    String legacyUnit() {
        return legacyUnit;
    }

    /** The option with this command-line name ({@code --port}) or file key ({@code port}). */
    public static Optional<ServerOption> named(String name) {
        String key = name.startsWith("--") ? name.substring(2) : name;
        return Arrays.stream(values()).filter(option -> option.key.equals(key)).findFirst();
    }

    /** The options a user should reach for, in help order: every option that is not deprecated. */
    public static List<ServerOption> current() {
        return Arrays.stream(values()).filter(option -> option.deprecatedFor == null).toList();
    }

    /** The help text, one line per current option with its default, generated from the catalog. */
    static String usage() {
        StringBuilder text = new StringBuilder("usage: java -jar zaris-engine-<version>-server.jar --node-id <id> [options]\n");
        for (ServerOption option : current()) {
            String left = "  " + option.flag() + (option.isFlag() ? "" : " " + option.valueLabel);
            text.append(left.length() < 30 ? left + " ".repeat(30 - left.length()) : left + "  ")
                    .append(option.help).append(option.defaultValue.inHelp()).append('\n');
        }
        text.append("  --help                      print this help\n\n")
                .append("Every option can also be set by its environment variable, ZARIS_ and the option's name in capitals\n")
                .append("with '-' as '_' (--cluster-port: ZARIS_CLUSTER_PORT), or in the --config file (cluster-port = 7201).\n")
                .append("Command line wins over environment, environment over the file.\n")
                .append("Durations: a whole number and a unit, 250us, 1500ms, 30s, 2m or 1h (canonical); a plain number is\n")
                .append("still read as milliseconds, with a deprecation warning. Sizes: bytes, 64k, 32m or 1g.\n")
                .append("Deprecated, still accepted with a warning: ");
        text.append(String.join(", ", Arrays.stream(values()).filter(option -> option.deprecatedFor != null)
                .map(option -> option.flag() + " <" + option.legacyUnit + "> (use " + option.deprecatedFor.flag() + ")")
                .toList()));
        text.append("\n\nOperator commands against a running node: java -jar zaris-engine-<version>-server.jar admin --help");
        return text.toString();
    }

    /** What the membership part of the configuration holds, for options that land there; {@code null} in-JVM. */
    private static Object tcp(NodeConfig config, Function<MembershipConfig.Tcp, Object> part) {
        return config.membership() instanceof MembershipConfig.Tcp tcp ? part.apply(tcp) : null;
    }

    /**
     * An option's default: a constant {@code value} in the option's own syntax, or a {@code note} describing a
     * default derived from something else (another option, the machine), or none at all. Exactly one of the two
     * is set. The reference page's default column is {@link #inReference()}.
     */
    public record Default(String value, String note) {

        static final Default NONE = new Default(null, "none");
        static final Default REQUIRED = new Default(null, "required");

        public Default {
            if ((value == null) == (note == null)) {
                throw new IllegalArgumentException("a default is a value or a note, not both or neither");
            }
        }

        static Default value(Object value) {
            return new Default(value instanceof Duration duration ? Durations.describe(duration) : String.valueOf(value),
                    null);
        }

        static Default derived(String note) {
            return new Default(null, note);
        }

        /** The default column of the reference page: a value in backticks, a note as written. */
        public String inReference() {
            return value != null ? "`" + value + "`" : note;
        }

        /**
         * The help's parenthesis: {@code (default 7101)}, {@code (default: --host)}, {@code (required)}, {@code (or
         * set ZARIS_PASSWORD)} for an option whose default is none but a variable; empty for none at all.
         */
        String inHelp() {
            if (value != null) {
                return " (default " + value + ")";
            }
            String plain = note.replace("`", "");
            if (plain.equals("none")) {
                return "";
            }
            if (plain.startsWith("none (or ")) {
                return " (or set " + plain.substring("none (or ".length());
            }
            return plain.equals("required") ? " (required)" : " (default: " + plain + ")";
        }
    }

    /**
     * What an option's value is, with its bounds (inclusive) where it has some; {@link #read} parses a value (given or
     * default) and throws an {@link IllegalArgumentException} that names the option and the text. Pure.
     */
    public record ValueType(Kind kind, long min, long max, List<String> choices) {

        /** The longest duration any option takes where it has no smaller bound: {@code Integer.MAX_VALUE} ms. */
        static final Duration FOREVER = Duration.ofMillis(Integer.MAX_VALUE);

        static final ValueType TEXT = new ValueType(Kind.TEXT, 0, 0, List.of());
        static final ValueType ADDRESS = new ValueType(Kind.ADDRESS, 0, 0, List.of());
        static final ValueType PATH = new ValueType(Kind.PATH, 0, 0, List.of());
        static final ValueType FLAG = new ValueType(Kind.FLAG, 0, 0, List.of());
        static final ValueType PORT = new ValueType(Kind.COUNT, 1, 65535, List.of());
        static final ValueType PORT_OR_OFF = new ValueType(Kind.PORT_OR_OFF, 1, 65535, List.of());

        public enum Kind { TEXT, ADDRESS, PATH, FLAG, COUNT, PORT_OR_OFF, SIZE, DURATION, CHOICE }

        public ValueType {
            choices = List.copyOf(choices);
        }

        static ValueType count(int min, int max) {
            return new ValueType(Kind.COUNT, min, max, List.of());
        }

        static ValueType size(int min, int max) {
            return new ValueType(Kind.SIZE, min, max, List.of());
        }

        /** Bounds in nanoseconds; {@code max} {@code null}: as long as the syntax can say. */
        static ValueType duration(Duration min, Duration max) {
            return new ValueType(Kind.DURATION, min.toNanos(), max == null ? Long.MAX_VALUE : max.toNanos(), List.of());
        }

        static ValueType choice(String... choices) {
            return new ValueType(Kind.CHOICE, 0, 0, List.of(choices));
        }

        /**
         * The value of {@code text} as this type: an {@code Integer} for counts, ports and sizes, a {@link Duration},
         * a choice in lower case, the stripped text otherwise; {@code "off"} for a port that is off.
         *
         * @param option the option's command-line name, for the message
         */
        public Object read(String option, String text) {
            return switch (kind) {
                case COUNT -> readInt(option, text, (int) min, (int) max);
                case PORT_OR_OFF -> text.strip().equalsIgnoreCase("off") || text.strip().equals("0") ? "off"
                        : readInt(option, text, (int) min, (int) max);
                case SIZE -> readSize(option, text, (int) min, (int) max);
                case DURATION -> readDuration(option, text);
                case CHOICE -> {
                    String choice = text.strip().toLowerCase(Locale.ROOT);
                    if (!choices.contains(choice)) {
                        throw new IllegalArgumentException(option + " must be " + String.join(" or ", choices)
                                + " but was '" + text + "'");
                    }
                    yield choice;
                }
                case TEXT, ADDRESS, PATH, FLAG -> text.strip();
            };
        }

        static int readInt(String option, String text, int min, int max) {
            int value;
            try {
                value = Integer.parseInt(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " must be a whole number but was '" + text + "'");
            }
            if (value < min || value > max) {
                throw new IllegalArgumentException(option + " must be in " + min + ".." + max + " but was " + value);
            }
            return value;
        }

        /** A size in bytes: plain bytes, or a whole number of binary kilo-, mega- or gigabytes ({@code 64k}, {@code 32m}). */
        static int readSize(String option, String text, int min, int max) {
            String trimmed = text.trim().toLowerCase(Locale.ROOT);
            int shift = trimmed.isEmpty() ? 0 : switch (trimmed.charAt(trimmed.length() - 1)) {
                case 'k' -> 10;
                case 'm' -> 20;
                case 'g' -> 30;
                default -> 0;
            };
            String number = shift == 0 ? trimmed : trimmed.substring(0, trimmed.length() - 1);
            if (number.isEmpty() || number.length() > 18 || !number.chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException(option + " must be a size such as 65536, 64k or 32m but was '" + text + "'");
            }
            long count = Long.parseLong(number);
            // max is an int, so a count above max >> shift is out of range before the shift could overflow.
            if (count > (max >> shift) || count << shift < min) {
                throw new IllegalArgumentException(option + " must be in " + min + ".." + max + " bytes but was '" + text + "'");
            }
            return (int) (count << shift);
        }

        private Duration readDuration(String option, String text) {
            Duration value = Durations.parse(option, text, "ms").duration();
            if (value.toNanos() < min || value.toNanos() > max) {
                throw new IllegalArgumentException(option + " must be between " + Durations.describe(Duration.ofNanos(min))
                        + " and " + Durations.describe(Duration.ofNanos(max)) + " but was " + Durations.describe(value));
            }
            return value;
        }

        /** The shortest size spelling: {@code 32m}, {@code 64k}, or plain bytes. */
        static String describeSize(int bytes) {
            for (int shift = 30; shift >= 10; shift -= 10) {
                if (bytes != 0 && bytes % (1 << shift) == 0) {
                    return (bytes >> shift) + (shift == 30 ? "g" : shift == 20 ? "m" : "k");
                }
            }
            return Integer.toString(bytes);
        }
    }
}
