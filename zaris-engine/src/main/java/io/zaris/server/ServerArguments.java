package io.zaris.server;

import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.cluster.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.IoLoops;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.replication.AckMode;
import io.zaris.replication.ReplicationSettings;
import io.zaris.resp.RespLimits;
import io.zaris.resp.RespOptions;
import io.zaris.resp.RespPeerPorts;
import io.zaris.security.ClusterSecret;
import io.zaris.security.LoopbackAddresses;
import io.zaris.security.SecurityOptions;
import io.zaris.security.TlsOptions;
import io.zaris.store.EvictionPolicy;
import io.zaris.store.MemoryOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command line of the standalone server, parsed into a {@link NodeConfig}. Pure: no I/O, errors are
 * {@link IllegalArgumentException}s whose message names the option and the offending value.
 */
public final class ServerArguments {

    public static final int DEFAULT_PORT = 7101;
    public static final int DEFAULT_CLUSTER_PORT = 7201;
    public static final String DEFAULT_CLUSTER_NAME = "zaris";
    /** The server's shared password, when not given as a file. */
    public static final String PASSWORD_VARIABLE = "ZARIS_PASSWORD";
    /** The TLS key store's password, when not given as a file. */
    public static final String TLS_KEYSTORE_PASSWORD_VARIABLE = "ZARIS_TLS_KEYSTORE_PASSWORD";
    /** The TLS trust store's password, when not given as a file. */
    public static final String TLS_TRUSTSTORE_PASSWORD_VARIABLE = "ZARIS_TLS_TRUSTSTORE_PASSWORD";
    /** The cluster secret, when not given as a file. */
    public static final String CLUSTER_SECRET_VARIABLE = "ZARIS_CLUSTER_SECRET";
    /** How long SIGTERM waits for the node to drain, when {@code --drain-on-stop} is not given. */
    public static final String DRAIN_ON_STOP_VARIABLE = "ZARIS_DRAIN_ON_STOP";
    /** How long SIGTERM waits for the node to drain by default. */
    public static final Duration DEFAULT_DRAIN_ON_STOP = Duration.ofSeconds(30);

    static final String USAGE = String.join("\n",
            "usage: java -jar zaris-engine-<version>-server.jar --node-id <id> [options]",
            "  --node-id <id>              unique name of this node (required)",
            "  --host <address>            data port bind address (default 127.0.0.1)",
            "  --port <port>               data port for clients (default " + DEFAULT_PORT + ")",
            "  --cluster-host <address>    membership bind address (default: --host)",
            "  --cluster-port <port>       membership port (default " + DEFAULT_CLUSTER_PORT + ")",
            "  --seeds <h:p,h:p,...>       membership ports of the cluster's nodes (default: this node only)",
            "  --cluster-size <n>          nodes the cluster is configured with (default: number of seeds)",
            "  --cluster-name <name>       nodes join only peers with the same name (default " + DEFAULT_CLUSTER_NAME + ")",
            "  --replication-factor <n>    owners per partition (default " + ClusterSettings.DEFAULT_REPLICATION_FACTOR + ")",
            "  --partitions <n>            partitions (default " + PartitionLayout.DEFAULT_PARTITION_COUNT + ")",
            "  --segments <n>              segments (default " + PartitionLayout.DEFAULT_SEGMENT_COUNT + ")",
            "  --ack-mode <sync|async>     when writes are acknowledged (default sync)",
            "  --min-sync-replicas <n>     strict SYNC: refuse writes with fewer replicas connected (default "
                    + ReplicationSettings.DEFAULT_MIN_SYNC_REPLICAS + ": wait for every live replica, none if none is left)",
            "  --eviction-delay-ms <ms>    a node missing this long has its copies re-homed to live nodes (default "
                    + ReplicationSettings.DEFAULT_EVICTION_DELAY.toMillis() + ": as soon as its partitions failed over)",
            "  --heal-cooldown-ms <ms>     stable time before a partition heals or fails back (default "
                    + ReplicationSettings.DEFAULT_HEAL_COOLDOWN.toMillis() + ")",
            "  --async-flush-delay-us <us> how long changes of ASYNC writes may wait to share a flush to replicas (0 to "
                    + ReplicationSettings.MAX_ASYNC_FLUSH_DELAY.toMillis() * 1000 + "; default "
                    + ReplicationSettings.DEFAULT_ASYNC_FLUSH_DELAY.toNanos() / 1000 + ")",
            "  --join-settle-delay-ms <ms> how long a node that joined a running cluster stays before it gets partitions"
                    + " (default " + ClusterSettings.DEFAULT_JOIN_SETTLE_DELAY.toMillis() + ")",
            "  --max-concurrent-moves <n>  partitions a rebalance moves at once (default "
                    + ClusterSettings.DEFAULT_MAX_CONCURRENT_MOVES + ")",
            "  --escalation-timeout-ms <ms> how long a silent (hung) node is suspected before its partitions fail over"
                    + " (default " + MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT.toMillis() + ")",
            "  --resp-port <port|off>      Redis protocol port (default: --port + " + RespOptions.DEFAULT_PORT_OFFSET
                    + "); every node of a cluster must use the same offset from its data port; 0 or off disables it",
            "  --resp-host <address>       Redis protocol bind address (default: --host)",
            "  --resp-max-bulk-bytes <size> largest bulk string a RESP command may carry: bytes, NNk, NNm or NNg"
                    + " (default 32m, at most 1g)",
            "  --resp-max-args <n>         most arguments of one RESP command (default " + RespLimits.DEFAULT_MAX_ARRAY_LENGTH + ")",
            "  --resp-max-inline-bytes <size> longest inline RESP command line (default 64k, at least 16)",
            "  --max-memory <size>         memory budget: bytes, NNk, NNm, NNg or NN% of the max heap (default "
                    + Math.round(MemoryOptions.DEFAULT_HEAP_FRACTION * 100) + "%)",
            "  --eviction-policy <policy>  allkeys-lru, volatile-lru, volatile-ttl or noeviction (default "
                    + MemoryOptions.DEFAULT_POLICY + ")",
            "  --password-file <path>      file whose first line is the shared password (or set ZARIS_PASSWORD);"
                    + " clients and peer nodes must log in with it",
            "  --users-file <path>         extra users, one per line: <name> read-write|read-only <password>"
                    + " (needs a shared password)",
            "  --allow-insecure            bind a non-loopback address without a password, or the membership port"
                    + " without a cluster secret (prints a warning)",
            "  --login-timeout-ms <ms>     close connections that have not logged in by then (default "
                    + SecurityOptions.DEFAULT_LOGIN_TIMEOUT.toMillis() + "; only with a password)",
            "  --tls-cert <pem>            TLS certificate chain (PEM) of this node; with --tls-key",
            "  --tls-key <pem>             its private key (unencrypted PKCS#8 PEM)",
            "  --tls-keystore <p12|jks>    TLS key material from a PKCS12 (or .jks) key store instead of PEM files",
            "  --tls-keystore-password-file <path>  the key store's password (or set " + TLS_KEYSTORE_PASSWORD_VARIABLE + ")",
            "  --tls-ca <pem>              CA certificates that peer nodes' certificates must chain to",
            "  --tls-truststore <p12|jks>  a trust store instead of --tls-ca (default: the JVM's trust store)",
            "  --tls-truststore-password-file <path>  the trust store's password (or set "
                    + TLS_TRUSTSTORE_PASSWORD_VARIABLE + ")",
            "  --cluster-secret-file <path> file whose first line is the cluster secret (or set " + CLUSTER_SECRET_VARIABLE
                    + "); authenticates and encrypts membership traffic",
            "  --drain-on-stop <duration>  on SIGTERM, move this node's partitions to the other nodes first and wait"
                    + " up to this long (e.g. 30s, 1500ms, 2m; plain numbers are ms; 0 leaves at once; default "
                    + DEFAULT_DRAIN_ON_STOP.toSeconds() + "s, or set " + DRAIN_ON_STOP_VARIABLE + ")",
            "  --io-threads <n>            event-loop threads for the data port, the RESP port and node-to-node links"
                    + " (default: one per core)",
            "  --max-key-bytes <size>      largest key a request may carry, bigger ones are answered TOO_LARGE: bytes,"
                    + " NNk, NNm or NNg (default 64k)",
            "  --max-value-bytes <size>    largest value a request may carry, bigger ones are answered TOO_LARGE"
                    + " (default 32m)",
            "  --max-frame-bytes <size>    largest frame the data port reads; a bigger one closes its connection (default:"
                    + " key + value limits + 1k, at least 32m+65k; never below 2m or the key + value limits + 1k)",
            "  --help                      print this help",
            "",
            "Operator commands against a running node: java -jar zaris-engine-<version>-server.jar admin --help");

    private static final Set<String> KNOWN = Set.of("--node-id", "--host", "--port", "--cluster-host",
            "--cluster-port", "--seeds", "--cluster-size", "--cluster-name", "--replication-factor",
            "--partitions", "--segments", "--ack-mode", "--min-sync-replicas", "--eviction-delay-ms", "--async-flush-delay-us",
            "--heal-cooldown-ms", "--join-settle-delay-ms", "--max-concurrent-moves", "--escalation-timeout-ms", "--resp-port", "--resp-host", "--max-memory",
            "--eviction-policy", "--password-file", "--users-file", "--allow-insecure", "--login-timeout-ms",
            "--tls-cert", "--tls-key", "--tls-keystore", "--tls-keystore-password-file", "--tls-ca", "--tls-truststore",
            "--tls-truststore-password-file", "--cluster-secret-file", "--drain-on-stop", "--io-threads",
            "--max-key-bytes", "--max-value-bytes", "--max-frame-bytes");
    /** The RESP listener's input limits ({@link RespLimits}); known options besides {@link #KNOWN}. */
    private static final Set<String> RESP_LIMITS = Set.of("--resp-max-bulk-bytes", "--resp-max-args", "--resp-max-inline-bytes");
    /** Options that take no value. */
    private static final Set<String> FLAGS = Set.of("--allow-insecure");

    private ServerArguments() {
    }

    /** Whether the arguments ask for help instead of a node. */
    static boolean wantsHelp(String[] args) {
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) {
                return true;
            }
        }
        return false;
    }

    public static NodeConfig parse(String[] args) {
        return parse(args, System.getenv(), ServerArguments::readLines);
    }

    /** Reads a file named on the command line; injected so parsing stays free of I/O in tests. */
    @FunctionalInterface
    public interface FileReader {
        List<String> readLines(String path) throws java.io.IOException;
    }

    private static List<String> readLines(String path) throws java.io.IOException {
        return java.nio.file.Files.readAllLines(java.nio.file.Path.of(path), java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Event-loop threads for the node's network I/O ({@link IoLoops}): {@code --io-threads}, else one per core.
     * More loops than cores oversubscribe a small machine: every request and replicated write then pays for
     * hand-overs between more threads than there are cores to run them.
     */
    public static int ioThreads(String[] args, int cores) {
        String option = options(args).get("--io-threads");
        if (option == null) {
            return Math.max(1, cores);
        }
        return intOption(Map.of("--io-threads", option), "--io-threads", 1, 1, IoLoops.MAX_THREADS);
    }

    /** Whether the command line gives {@code option}. */
    static boolean hasOption(String[] args, String option) {
        return options(args).containsKey(option);
    }

    /**
     * How long SIGTERM waits for the node to drain: {@code --drain-on-stop}, else {@value #DRAIN_ON_STOP_VARIABLE},
     * else {@link #DEFAULT_DRAIN_ON_STOP}; {@link Duration#ZERO} means the node leaves at once.
     */
    public static Duration drainOnStop(String[] args, Map<String, String> environment) {
        String option = options(args).get("--drain-on-stop");
        if (option != null) {
            return duration("--drain-on-stop", option);
        }
        String variable = environment.get(DRAIN_ON_STOP_VARIABLE);
        if (variable != null) {
            return duration("environment variable " + DRAIN_ON_STOP_VARIABLE, variable);
        }
        return DEFAULT_DRAIN_ON_STOP;
    }

    /**
     * A duration as operators write it: {@code 1500ms}, {@code 30s}, {@code 2m}, {@code 1h}, or a plain number of
     * milliseconds; {@code 0} is zero. Never negative.
     *
     * @param what names the option in the error message
     */
    static Duration duration(String what, String text) {
        String trimmed = text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT);
        int digits = 0;
        while (digits < trimmed.length() && Character.isDigit(trimmed.charAt(digits))) {
            digits++;
        }
        String unit = trimmed.substring(digits);
        long factorMillis = switch (unit) {
            case "", "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> -1;
        };
        if (digits == 0 || factorMillis < 0 || digits > 12) {
            throw new IllegalArgumentException(what + " must be a duration such as 30s, 1500ms or 2m (plain numbers are"
                    + " milliseconds) but was '" + text + "'");
        }
        return Duration.ofMillis(Long.parseLong(trimmed.substring(0, digits)) * factorMillis);
    }

    /** The command line as option name to value; flags map to {@code "true"}. */
    private static Map<String, String> options(String[] args) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            String value = null;
            int equals = name.indexOf('=');
            if (FLAGS.contains(name)) {
                values.put(name, "true");
                continue;
            }
            if (equals > 0) {
                value = name.substring(equals + 1);
                name = name.substring(0, equals);
            } else if (i + 1 < args.length) {
                value = args[++i];
            }
            if (!KNOWN.contains(name) && !RESP_LIMITS.contains(name)) {
                throw new IllegalArgumentException("unknown option '" + name + "'");
            }
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("option " + name + " needs a value");
            }
            values.put(name, value);
        }
        return values;
    }

    public static NodeConfig parse(String[] args, Map<String, String> environment, FileReader files) {
        Map<String, String> values = options(args);
        String nodeId = values.get("--node-id");
        if (nodeId == null) {
            throw new IllegalArgumentException("--node-id is required");
        }
        if (values.containsKey("--drain-on-stop")) {
            duration("--drain-on-stop", values.get("--drain-on-stop")); // read by drainOnStop; refused here with the rest
        }
        if (values.containsKey("--io-threads")) {
            ioThreads(args, 1); // read by ioThreads before the node starts; refused here with the rest
        }
        String host = values.getOrDefault("--host", NodeConfig.DEFAULT_HOST);
        int port = intOption(values, "--port", DEFAULT_PORT, 1, 65535);
        String clusterHost = values.getOrDefault("--cluster-host", host);
        int clusterPort = intOption(values, "--cluster-port", DEFAULT_CLUSTER_PORT, 1, 65535);
        List<NodeAddress> seeds = new ArrayList<>();
        if (values.containsKey("--seeds")) {
            for (String seed : values.get("--seeds").split(",")) {
                try {
                    seeds.add(NodeAddress.parse(seed));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--seeds: " + e.getMessage(), e);
                }
            }
        } else {
            seeds.add(new NodeAddress(clusterHost, clusterPort));
        }
        int clusterSize = intOption(values, "--cluster-size", seeds.size(), 1, 1024);
        int replicationFactor = intOption(values, "--replication-factor", ClusterSettings.DEFAULT_REPLICATION_FACTOR, 1, 255);
        int segments = intOption(values, "--segments", PartitionLayout.DEFAULT_SEGMENT_COUNT, 1, 16384);
        int partitions = intOption(values, "--partitions", Math.min(PartitionLayout.DEFAULT_PARTITION_COUNT, segments),
                1, segments);
        String clusterName = values.getOrDefault("--cluster-name", DEFAULT_CLUSTER_NAME);
        ReplicationSettings defaults = ReplicationSettings.defaults();
        AckMode ackMode = defaults.ackMode();
        if (values.containsKey("--ack-mode")) {
            String mode = values.get("--ack-mode").trim().toUpperCase(java.util.Locale.ROOT);
            if (!mode.equals("SYNC") && !mode.equals("ASYNC")) {
                throw new IllegalArgumentException("--ack-mode must be sync or async but was '" + values.get("--ack-mode") + "'");
            }
            ackMode = AckMode.valueOf(mode);
        }
        ReplicationSettings replication = new ReplicationSettings(ackMode,
                intOption(values, "--min-sync-replicas", defaults.minSyncReplicas(), 0, 254),
                defaults.ackTimeout(),
                Duration.ofMillis(intOption(values, "--heal-cooldown-ms", (int) defaults.healCooldown().toMillis(), 0,
                        Integer.MAX_VALUE)),
                Duration.ofMillis(intOption(values, "--eviction-delay-ms", (int) defaults.evictionDelay().toMillis(), 0,
                        Integer.MAX_VALUE)),
                Duration.ofNanos(1000L * intOption(values, "--async-flush-delay-us",
                        (int) (defaults.asyncFlushDelay().toNanos() / 1000), 0,
                        (int) (ReplicationSettings.MAX_ASYNC_FLUSH_DELAY.toNanos() / 1000))));
        RespOptions resp = respOptions(values, host, port);
        SecurityOptions security = securityOptions(values, environment, files)
                .withLoginTimeout(Duration.ofMillis(intOption(values, "--login-timeout-ms",
                        (int) SecurityOptions.DEFAULT_LOGIN_TIMEOUT.toMillis(), 100, Integer.MAX_VALUE)))
                .withTls(tlsOptions(values, environment, files))
                .withClusterSecret(clusterSecret(values, environment, files));
        requireSafeBinding(values, UnprotectedPorts.of(host, resp == null ? null : resp.host(), clusterHost,
                security.requiresAuthentication(), security.clusterSecret() != null));
        return NodeConfig.builder(nodeId)
                .memory(memoryOptions(values, Runtime.getRuntime().maxMemory()))
                .limits(protocolLimits(values))
                .security(security)
                .resp(resp)
                .replication(replication)
                .host(host)
                .port(port)
                .clusterSettings(new ClusterSettings(clusterSize, PartitionLayout.of(segments, partitions), replicationFactor,
                        Duration.ofMillis(intOption(values, "--join-settle-delay-ms",
                                (int) ClusterSettings.DEFAULT_JOIN_SETTLE_DELAY.toMillis(), 0, Integer.MAX_VALUE)),
                        intOption(values, "--max-concurrent-moves", ClusterSettings.DEFAULT_MAX_CONCURRENT_MOVES, 1, 100_000)))
                .membership(new MembershipConfig.Tcp(clusterName, clusterHost, clusterPort, seeds,
                        Duration.ofMillis(intOption(values, "--escalation-timeout-ms",
                                (int) MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT.toMillis(), 3000, Integer.MAX_VALUE))))
                .build();
    }

    private static SecurityOptions securityOptions(Map<String, String> values, Map<String, String> environment,
                                                   FileReader files) {
        String password = null;
        if (values.containsKey("--password-file")) {
            List<String> lines = read(files, "--password-file", values.get("--password-file"));
            if (lines.isEmpty() || lines.get(0).isEmpty()) {
                throw new IllegalArgumentException("--password-file " + values.get("--password-file") + " is empty");
            }
            password = lines.get(0);
        } else if (environment.get(PASSWORD_VARIABLE) != null) {
            password = environment.get(PASSWORD_VARIABLE);
            if (password.isEmpty()) {
                throw new IllegalArgumentException("environment variable " + PASSWORD_VARIABLE + " is set but empty");
            }
        }
        List<String> users = List.of();
        if (values.containsKey("--users-file")) {
            if (password == null) {
                throw new IllegalArgumentException("--users-file needs a shared password (--password-file or "
                        + PASSWORD_VARIABLE + "): nodes log in to each other with it");
            }
            users = read(files, "--users-file", values.get("--users-file"));
        }
        if (password == null) {
            return SecurityOptions.none();
        }
        try {
            return SecurityOptions.of(password, users);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((values.containsKey("--users-file") ? "--users-file: " : "password: ")
                    + e.getMessage(), e);
        }
    }

    /**
     * TLS from PEM files ({@code --tls-cert}, {@code --tls-key}) or a key store, trusting {@code --tls-ca} or a
     * trust store; {@code null} when no TLS option is given. A node always needs key material: it serves TLS.
     */
    static TlsOptions tlsOptions(Map<String, String> values, Map<String, String> environment, FileReader files) {
        boolean pem = values.containsKey("--tls-cert") || values.containsKey("--tls-key");
        boolean keyStore = values.containsKey("--tls-keystore");
        boolean trust = values.containsKey("--tls-ca") || values.containsKey("--tls-truststore");
        if (!pem && !keyStore && !trust) {
            return null;
        }
        if (!pem && !keyStore) {
            throw new IllegalArgumentException("TLS trust is configured but no key material: a node serves TLS, so give"
                    + " --tls-cert and --tls-key, or --tls-keystore");
        }
        if (pem && !(values.containsKey("--tls-cert") && values.containsKey("--tls-key"))) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together: give both");
        }
        TlsOptions.Builder tls = TlsOptions.builder();
        try {
            if (pem) {
                tls.pem(Path.of(values.get("--tls-cert")), Path.of(values.get("--tls-key")));
            }
            if (keyStore) {
                tls.keyStore(Path.of(values.get("--tls-keystore")), secret(values, environment, files,
                        "--tls-keystore-password-file", TLS_KEYSTORE_PASSWORD_VARIABLE, "--tls-keystore"));
            }
            if (values.containsKey("--tls-ca")) {
                tls.trustedCertificates(Path.of(values.get("--tls-ca")));
            }
            if (values.containsKey("--tls-truststore")) {
                tls.trustStore(Path.of(values.get("--tls-truststore")), secret(values, environment, files,
                        "--tls-truststore-password-file", TLS_TRUSTSTORE_PASSWORD_VARIABLE, "--tls-truststore"));
            }
            return tls.build();
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("TLS: not a file name: " + e.getInput(), e);
        }
    }

    /** The cluster secret from {@code --cluster-secret-file} or {@value #CLUSTER_SECRET_VARIABLE}; {@code null} without. */
    static ClusterSecret clusterSecret(Map<String, String> values, Map<String, String> environment, FileReader files) {
        String secret = null;
        if (values.containsKey("--cluster-secret-file")) {
            secret = firstLine(files, "--cluster-secret-file", values.get("--cluster-secret-file"));
        } else if (environment.get(CLUSTER_SECRET_VARIABLE) != null) {
            secret = environment.get(CLUSTER_SECRET_VARIABLE);
        }
        if (secret == null) {
            return null;
        }
        try {
            return ClusterSecret.of(secret);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((values.containsKey("--cluster-secret-file") ? "--cluster-secret-file: "
                    : CLUSTER_SECRET_VARIABLE + ": ") + e.getMessage(), e);
        }
    }

    /** A password from its file option, else its environment variable; required by {@code forOption}. */
    private static String secret(Map<String, String> values, Map<String, String> environment, FileReader files,
                                 String fileOption, String variable, String forOption) {
        if (values.containsKey(fileOption)) {
            return firstLine(files, fileOption, values.get(fileOption));
        }
        String value = environment.get(variable);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(forOption + " needs a password: give " + fileOption + " or set " + variable);
        }
        return value;
    }

    private static String firstLine(FileReader files, String option, String path) {
        List<String> lines = read(files, option, path);
        if (lines.isEmpty() || lines.get(0).isEmpty()) {
            throw new IllegalArgumentException(option + " " + path + " is empty");
        }
        return lines.get(0);
    }

    private static List<String> read(FileReader files, String option, String path) {
        try {
            return files.readLines(path);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(option + " " + path + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * Safe default: without a password the data and RESP ports stay on loopback, and without a cluster secret
     * so does the membership port, unless {@code --allow-insecure} says the operator means it (the server then
     * logs a warning at start).
     */
    private static void requireSafeBinding(Map<String, String> values, UnprotectedPorts unprotected) {
        if (values.containsKey("--allow-insecure")) {
            return;
        }
        for (UnprotectedPorts.Exposure exposure : unprotected.exposures()) {
            if (exposure.missing().equals(UnprotectedPorts.CLUSTER_SECRET)) {
                throw new IllegalArgumentException("refusing to open the membership port on " + exposure.address()
                        + " without a cluster secret: any machine that can reach it could join the cluster and be"
                        + " handed its data; set a cluster secret (--cluster-secret-file or " + CLUSTER_SECRET_VARIABLE
                        + "), keep --cluster-host on loopback, or pass --allow-insecure on a network you trust");
            }
            throw new IllegalArgumentException("refusing to serve " + exposure.address() + " without a password: anyone"
                    + " who can reach it could read and change every key; set a password (--password-file or "
                    + PASSWORD_VARIABLE + "), or pass --allow-insecure on a network you trust");
        }
    }

    /**
     * Whether the node serves a non-loopback address without a password, or membership on one without a
     * cluster secret (the caller warns loudly).
     */
    static boolean isInsecure(NodeConfig config) {
        return !UnprotectedPorts.of(config).none();
    }

    /**
     * On by default at the data port plus {@link RespOptions#DEFAULT_PORT_OFFSET}, given up with a warning if
     * that port is taken; an explicit port must bind. Peers are assumed at the same offset from their data
     * ports (nodes do not exchange RESP ports), which is what MOVED and CLUSTER SLOTS name.
     */
    private static RespOptions respOptions(Map<String, String> values, String host, int port) {
        RespLimits limits = respLimits(values); // checked even when RESP is off, so a bad value is reported
        String text = values.get("--resp-port");
        boolean explicit = text != null;
        int respPort;
        if (text != null && (text.trim().equalsIgnoreCase("off") || text.trim().equals("0"))) {
            return null;
        } else if (explicit) {
            respPort = intOption(values, "--resp-port", 0, 1, 65535);
        } else {
            respPort = port + RespOptions.DEFAULT_PORT_OFFSET;
            if (respPort > 65535) {
                return null;
            }
        }
        return RespOptions.builder()
                .host(values.getOrDefault("--resp-host", host))
                .port(respPort)
                .required(explicit)
                .limits(limits)
                .peerPorts(RespPeerPorts.offset(respPort - port))
                .build();
    }

    /** {@code --resp-max-bulk-bytes}, {@code --resp-max-args} and {@code --resp-max-inline-bytes}; the defaults for the rest. */
    static RespLimits respLimits(Map<String, String> values) {
        return RespLimits.of(
                sizeOption(values, "--resp-max-bulk-bytes", RespLimits.DEFAULT_MAX_BULK_BYTES, 1, RespLimits.MAX_BULK_BYTES),
                intOption(values, "--resp-max-args", RespLimits.DEFAULT_MAX_ARRAY_LENGTH, 1, Integer.MAX_VALUE),
                sizeOption(values, "--resp-max-inline-bytes", RespLimits.DEFAULT_MAX_INLINE_BYTES, 16, RespLimits.MAX_BULK_BYTES));
    }

    /** {@code --max-memory} (a size or a share of {@code maxHeapBytes}) and {@code --eviction-policy}. */
    static MemoryOptions memoryOptions(Map<String, String> values, long maxHeapBytes) {
        MemoryOptions.Builder memory = MemoryOptions.builder();
        String maxMemory = values.get("--max-memory");
        if (maxMemory != null) {
            try {
                memory.maxBytes(MemoryOptions.parseSize(maxMemory, maxHeapBytes));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--max-memory: " + e.getMessage(), e);
            }
        }
        String policy = values.get("--eviction-policy");
        if (policy != null) {
            try {
                memory.policy(EvictionPolicy.parse(policy));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--eviction-policy: " + e.getMessage(), e);
            }
        }
        return memory.build();
    }

    /** Largest {@code --max-key-bytes}: far beyond any sensible key, and small enough that the sums below fit an int. */
    static final int MAX_KEY_BYTES_LIMIT = 16 * 1024 * 1024;
    /** Largest {@code --max-value-bytes}. */
    static final int MAX_VALUE_BYTES_LIMIT = 1024 * 1024 * 1024;

    /**
     * {@code --max-key-bytes}, {@code --max-value-bytes} and {@code --max-frame-bytes}. A frame must hold the
     * largest key and value (else a request within those limits would close its connection instead of being
     * answered) and node-to-node frames; without {@code --max-frame-bytes} it grows with the key and value limits.
     */
    static ProtocolLimits protocolLimits(Map<String, String> values) {
        int maxKey = sizeOption(values, "--max-key-bytes", ProtocolLimits.DEFAULT_MAX_KEY_BYTES, 1, MAX_KEY_BYTES_LIMIT);
        int maxValue = sizeOption(values, "--max-value-bytes", ProtocolLimits.DEFAULT_MAX_VALUE_BYTES, 1,
                MAX_VALUE_BYTES_LIMIT);
        int needed = (int) ProtocolLimits.nodeFrameBytesFor(maxKey, maxValue); // both capped: fits an int
        int maxFrame = sizeOption(values, "--max-frame-bytes", Math.max(ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, needed),
                ProtocolLimits.MIN_NODE_FRAME_BYTES, Integer.MAX_VALUE);
        if (maxFrame < needed) {
            throw new IllegalArgumentException("--max-frame-bytes " + maxFrame + " cannot carry a key of --max-key-bytes "
                    + maxKey + " and a value of --max-value-bytes " + maxValue + " plus "
                    + ProtocolLimits.FRAME_HEADROOM_BYTES + " bytes of headers: give at least " + needed
                    + ", or lower the key and value limits");
        }
        return new ProtocolLimits(maxFrame, maxKey, maxValue, ProtocolLimits.DEFAULT_MAX_BATCH_KEYS);
    }

    /** A size in bytes: plain bytes, or a whole number of binary kilo-, mega- or gigabytes ({@code 64k}, {@code 32m}). */
    static int sizeOption(Map<String, String> values, String name, int defaultValue, int min, int max) {
        String text = values.get(name);
        if (text == null) {
            return defaultValue;
        }
        String trimmed = text.trim().toLowerCase(java.util.Locale.ROOT);
        int shift = trimmed.isEmpty() ? 0 : switch (trimmed.charAt(trimmed.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        String number = shift == 0 ? trimmed : trimmed.substring(0, trimmed.length() - 1);
        if (number.isEmpty() || number.length() > 18 || !number.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException(name + " must be a size such as 65536, 64k or 32m but was '" + text + "'");
        }
        long count = Long.parseLong(number);
        // max is an int, so a count above max >> shift is out of range before the shift could overflow.
        if (count > (max >> shift) || count << shift < min) {
            throw new IllegalArgumentException(name + " must be in " + min + ".." + max + " bytes but was '" + text + "'");
        }
        return (int) (count << shift);
    }

    private static int intOption(Map<String, String> values, String name, int defaultValue, int min, int max) {
        String text = values.get(name);
        if (text == null) {
            return defaultValue;
        }
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number but was '" + text + "'");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in " + min + ".." + max + " but was " + value);
        }
        return value;
    }
}
