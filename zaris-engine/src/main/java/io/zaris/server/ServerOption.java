package io.zaris.server;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The standalone server's option table: every option once, with its help line. Everything else is derived from
 * it, so no option can be missing from one of its three sources: the command-line name ({@code --cluster-port}),
 * the environment variable ({@code ZARIS_CLUSTER_PORT}: {@code ZARIS_}, the name upper-cased, dashes turned into
 * underscores) and the configuration-file key ({@code cluster-port}). The help text ({@link #usage()}) and the
 * reference page's table are checked against it.
 *
 * <p>A {@link #deprecatedFor deprecated} option still works and names its replacement in a warning; the old
 * {@code *-ms} and {@code *-us} options took plain numbers where their replacements take one duration syntax
 * ({@code 1500ms}, {@code 30s}, {@code 2m}).
 */
enum ServerOption {

    NODE_ID("node-id", "<id>", "unique name of this node (required)"),
    CONFIG("config", "<file>", "configuration file: one 'option-name = value' per line, '#' starts a comment;"
            + " command-line options and environment variables win over it"),
    HOST("host", "<address>", "data port bind address; 0.0.0.0 or :: for every interface (then give --advertise-host)"
            + " (default " + NodeConfig.DEFAULT_HOST + ")"),
    PORT("port", "<port>", "data port for clients and peer nodes (default " + ServerArguments.DEFAULT_PORT + ")"),
    ADVERTISE_HOST("advertise-host", "<address>", "address clients and peers reach the data port at, announced in"
            + " the cluster map (default: --host); also the host of the announced RESP port"),
    ADVERTISE_PORT("advertise-port", "<port>", "port clients and peers reach the data port at (default: --port)"),
    CLUSTER_HOST("cluster-host", "<address>", "membership bind address (default: --host)"),
    CLUSTER_PORT("cluster-port", "<port>", "membership port (default " + ServerArguments.DEFAULT_CLUSTER_PORT + ")"),
    CLUSTER_ADVERTISE_HOST("cluster-advertise-host", "<address>", "address peers reach the membership port at"
            + " (default: --advertise-host when --cluster-host is a wildcard or not given, else --cluster-host)"),
    CLUSTER_ADVERTISE_PORT("cluster-advertise-port", "<port>", "port peers reach the membership port at"
            + " (default: --cluster-port)"),
    SEEDS("seeds", "<h:p,h:p,...>", "membership ports of the cluster's nodes (default: this node only)"),
    DISCOVERY("discovery", "<how>", "how peers are found: 'seeds' (the default: --seeds), 'dns:<name>' (A/AAAA"
            + " records; every node uses this node's --cluster-port) or 'dns-srv:<name>' (SRV records carry the ports)"),
    DNS_SERVER("dns-server", "<host[:port]>", "DNS server for --discovery dns (default: the system's resolver)"),
    CLUSTER_SIZE("cluster-size", "<n>", "nodes the cluster is configured with (default: number of seeds; required"
            + " with DNS discovery)"),
    CLUSTER_NAME("cluster-name", "<name>", "nodes join only peers with the same name (default "
            + ServerArguments.DEFAULT_CLUSTER_NAME + ")"),
    REPLICATION_FACTOR("replication-factor", "<n>", "owners per partition (default "
            + io.zaris.cluster.ClusterSettings.DEFAULT_REPLICATION_FACTOR + ")"),
    PARTITIONS("partitions", "<n>", "partitions (default " + io.zaris.placement.PartitionLayout.DEFAULT_PARTITION_COUNT + ")"),
    SEGMENTS("segments", "<n>", "segments (default " + io.zaris.placement.PartitionLayout.DEFAULT_SEGMENT_COUNT + ")"),
    ACK_MODE("ack-mode", "<sync|async>", "when writes are acknowledged (default sync)"),
    MIN_SYNC_REPLICAS("min-sync-replicas", "<n>", "strict SYNC: refuse writes with fewer replicas connected (default "
            + io.zaris.replication.ReplicationSettings.DEFAULT_MIN_SYNC_REPLICAS
            + ": wait for every live replica, none if none is left)"),
    EVICTION_DELAY("eviction-delay", "<duration>", "a node missing this long has its copies re-homed to live nodes"
            + " (default 0: as soon as its partitions failed over)"),
    HEAL_COOLDOWN("heal-cooldown", "<duration>", "stable time before a partition heals or fails back (default "
            + Durations.describe(io.zaris.replication.ReplicationSettings.DEFAULT_HEAL_COOLDOWN) + ")"),
    ASYNC_FLUSH_DELAY("async-flush-delay", "<duration>", "how long changes of ASYNC writes may wait to share a flush"
            + " to replicas, e.g. 1ms or 250us (0 to "
            + Durations.describe(io.zaris.replication.ReplicationSettings.MAX_ASYNC_FLUSH_DELAY) + "; default "
            + Durations.describe(io.zaris.replication.ReplicationSettings.DEFAULT_ASYNC_FLUSH_DELAY) + ")"),
    JOIN_SETTLE_DELAY("join-settle-delay", "<duration>", "how long a node that joined a running cluster stays"
            + " before it gets partitions (default "
            + Durations.describe(io.zaris.cluster.ClusterSettings.DEFAULT_JOIN_SETTLE_DELAY) + ")"),
    MAX_CONCURRENT_MOVES("max-concurrent-moves", "<n>", "partitions a rebalance moves at once (default "
            + io.zaris.cluster.ClusterSettings.DEFAULT_MAX_CONCURRENT_MOVES + ")"),
    ESCALATION_TIMEOUT("escalation-timeout", "<duration>", "how long a silent (hung) node is suspected before its"
            + " partitions fail over (default "
            + Durations.describe(io.zaris.cluster.MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT) + ", at least 3s)"),
    RESP_PORT("resp-port", "<port|off>", "Redis protocol port (default: --port + "
            + io.zaris.resp.RespOptions.DEFAULT_PORT_OFFSET + "); every node of a cluster must use the same offset"
            + " from its data port; 0 or off disables it"),
    RESP_HOST("resp-host", "<address>", "Redis protocol bind address (default: --host)"),
    RESP_ADVERTISE_PORT("resp-advertise-port", "<port>", "port Redis clients reach the RESP port at, named in MOVED"
            + " and CLUSTER SLOTS/SHARDS/NODES at the --advertise-host (default: --advertise-port plus the RESP"
            + " port's offset from --port); every node must use the same offset from its advertised data port"),
    RESP_MAX_BULK_BYTES("resp-max-bulk-bytes", "<size>", "largest bulk string a RESP command may carry: bytes, NNk,"
            + " NNm or NNg (default 32m, at most 1g)"),
    RESP_MAX_ARGS("resp-max-args", "<n>", "most arguments of one RESP command (default "
            + io.zaris.resp.RespLimits.DEFAULT_MAX_ARRAY_LENGTH + ")"),
    RESP_MAX_INLINE_BYTES("resp-max-inline-bytes", "<size>", "longest inline RESP command line (default 64k, at least 16)"),
    HTTP_PORT("http-port", "<port|off>", "HTTP port for /health/live, /health/ready and /metrics (Prometheus)"
            + " (default off)"),
    HTTP_HOST("http-host", "<address>", "HTTP bind address (default: --host)"),
    MAX_MEMORY("max-memory", "<size>", "memory budget: bytes, NNk, NNm, NNg or NN% of the max heap (default "
            + Math.round(io.zaris.store.MemoryOptions.DEFAULT_HEAP_FRACTION * 100) + "%)"),
    EVICTION_POLICY("eviction-policy", "<policy>", "allkeys-lru, volatile-lru, volatile-ttl or noeviction (default "
            + io.zaris.store.MemoryOptions.DEFAULT_POLICY + ")"),
    PASSWORD_FILE("password-file", "<path>", "file whose first line is the shared password (or set ZARIS_PASSWORD);"
            + " clients and peer nodes must log in with it"),
    USERS_FILE("users-file", "<path>", "extra users, one per line: <name> read-write|read-only <password> (needs a"
            + " shared password)"),
    ALLOW_INSECURE("allow-insecure", (String) null, "bind a non-loopback address without a password, or the membership port"
            + " without a cluster secret (prints a warning)"),
    LOGIN_TIMEOUT("login-timeout", "<duration>", "close connections that have not logged in by then (default "
            + Durations.describe(io.zaris.security.SecurityOptions.DEFAULT_LOGIN_TIMEOUT) + "; only with a password)"),
    TLS_CERT("tls-cert", "<pem>", "TLS certificate chain (PEM) of this node; with --tls-key"),
    TLS_KEY("tls-key", "<pem>", "its private key (unencrypted PKCS#8 PEM)"),
    TLS_KEYSTORE("tls-keystore", "<p12|jks>", "TLS key material from a PKCS12 (or .jks) key store instead of PEM files"),
    TLS_KEYSTORE_PASSWORD_FILE("tls-keystore-password-file", "<path>", "the key store's password (or set "
            + ServerArguments.TLS_KEYSTORE_PASSWORD_VARIABLE + ")"),
    TLS_CA("tls-ca", "<pem>", "CA certificates that peer nodes' certificates must chain to"),
    TLS_TRUSTSTORE("tls-truststore", "<p12|jks>", "a trust store instead of --tls-ca (default: the JVM's trust store)"),
    TLS_TRUSTSTORE_PASSWORD_FILE("tls-truststore-password-file", "<path>", "the trust store's password (or set "
            + ServerArguments.TLS_TRUSTSTORE_PASSWORD_VARIABLE + ")"),
    CLUSTER_SECRET_FILE("cluster-secret-file", "<path>", "file whose first line is the cluster secret (or set "
            + ServerArguments.CLUSTER_SECRET_VARIABLE + "); authenticates and encrypts membership traffic"),
    DRAIN_ON_STOP("drain-on-stop", "<duration>", "on SIGTERM, move this node's partitions to the other nodes first"
            + " and wait up to this long (0 leaves at once; default "
            + Durations.describe(ServerArguments.DEFAULT_DRAIN_ON_STOP) + ")"),
    IO_THREADS("io-threads", "<n>", "event-loop threads for the data port, the RESP port and node-to-node links"
            + " (default: one per core)"),
    MAX_KEY_BYTES("max-key-bytes", "<size>", "largest key a request may carry, bigger ones are answered TOO_LARGE:"
            + " bytes, NNk, NNm or NNg (default 64k)"),
    MAX_VALUE_BYTES("max-value-bytes", "<size>", "largest value a request may carry, bigger ones are answered"
            + " TOO_LARGE (default 32m)"),
    MAX_FRAME_BYTES("max-frame-bytes", "<size>", "largest frame the data port reads; a bigger one closes its"
            + " connection (default: key + value limits + 1k, at least 32m+65k; never below 2m or the key + value"
            + " limits + 1k)"),

    // The spellings before one duration syntax: plain numbers in the unit their name ends with.
    EVICTION_DELAY_MS("eviction-delay-ms", EVICTION_DELAY, "ms"),
    HEAL_COOLDOWN_MS("heal-cooldown-ms", HEAL_COOLDOWN, "ms"),
    ASYNC_FLUSH_DELAY_US("async-flush-delay-us", ASYNC_FLUSH_DELAY, "us"),
    JOIN_SETTLE_DELAY_MS("join-settle-delay-ms", JOIN_SETTLE_DELAY, "ms"),
    ESCALATION_TIMEOUT_MS("escalation-timeout-ms", ESCALATION_TIMEOUT, "ms"),
    LOGIN_TIMEOUT_MS("login-timeout-ms", LOGIN_TIMEOUT, "ms");

    /** Prefix of every option's environment variable. */
    static final String ENVIRONMENT_PREFIX = "ZARIS_";

    private final String key;
    /** Placeholder of the value in the help text; {@code null} for a flag, which takes none. */
    private final String valueLabel;
    private final String help;
    /** The option to use instead; {@code null} unless this one is deprecated. */
    private final ServerOption deprecatedFor;
    /** Unit of the plain numbers a deprecated duration option takes ({@code ms}, {@code us}). */
    private final String legacyUnit;

    ServerOption(String key, String valueLabel, String help) {
        this(key, valueLabel, help, null, null);
    }

    ServerOption(String key, ServerOption replacement, String legacyUnit) {
        this(key, "<" + legacyUnit + ">", "deprecated: use --" + replacement.key + " with a unit", replacement, legacyUnit);
    }

    ServerOption(String key, String valueLabel, String help, ServerOption deprecatedFor, String legacyUnit) {
        this.key = key;
        this.valueLabel = valueLabel;
        this.help = help;
        this.deprecatedFor = deprecatedFor;
        this.legacyUnit = legacyUnit;
    }

    /** The configuration-file key, e.g. {@code cluster-port}. */
    String key() {
        return key;
    }

    /** The command-line name, e.g. {@code --cluster-port}. */
    String flag() {
        return "--" + key;
    }

    /** The environment variable, e.g. {@code ZARIS_CLUSTER_PORT}. */
    String environmentVariable() {
        return ENVIRONMENT_PREFIX + key.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** Whether the option takes no value ({@code --allow-insecure}; {@code true}/{@code false} elsewhere). */
    boolean isFlag() {
        return valueLabel == null;
    }

    String help() {
        return help;
    }

    String valueLabel() {
        return valueLabel;
    }

    /** The option that replaces this deprecated one. */
    Optional<ServerOption> deprecatedFor() {
        return Optional.ofNullable(deprecatedFor);
    }

    /** Unit of a deprecated duration option's plain numbers. */
    String legacyUnit() {
        return legacyUnit;
    }

    /** The option with this command-line name ({@code --port}) or file key ({@code port}). */
    static Optional<ServerOption> named(String name) {
        String key = name.startsWith("--") ? name.substring(2) : name;
        return Arrays.stream(values()).filter(option -> option.key.equals(key)).findFirst();
    }

    /** The options a user should reach for, in help order: every option that is not deprecated. */
    static List<ServerOption> current() {
        return Arrays.stream(values()).filter(option -> option.deprecatedFor == null).toList();
    }

    /** The help text, one line per current option, generated from the table. */
    static String usage() {
        StringBuilder text = new StringBuilder("usage: java -jar zaris-engine-<version>-server.jar --node-id <id> [options]\n");
        for (ServerOption option : current()) {
            String left = "  " + option.flag() + (option.isFlag() ? "" : " " + option.valueLabel);
            text.append(left.length() < 30 ? left + " ".repeat(30 - left.length()) : left + "  ")
                    .append(option.help).append('\n');
        }
        text.append("  --help                      print this help\n\n")
                .append("Every option can also be set by its environment variable, ZARIS_ and the option's name in capitals\n")
                .append("with '-' as '_' (--cluster-port: ZARIS_CLUSTER_PORT), or in the --config file (cluster-port = 7201).\n")
                .append("Command line wins over environment, environment over the file. Durations: 250us, 1500ms, 30s, 2m, 1h.\n")
                .append("Deprecated, still accepted with a warning: ");
        text.append(String.join(", ", Arrays.stream(values()).filter(option -> option.deprecatedFor != null)
                .map(option -> option.flag() + " <" + option.legacyUnit + "> (use " + option.deprecatedFor.flag() + ")")
                .toList()));
        text.append("\n\nOperator commands against a running node: java -jar zaris-engine-<version>-server.jar admin --help");
        return text.toString();
    }
}
