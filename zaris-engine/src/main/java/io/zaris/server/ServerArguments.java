package io.zaris.server;

import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.AckMode;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.IoLoops;
import io.zaris.protocol.ProtocolLimits;
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
 * The standalone server's configuration — command line, environment and configuration file, merged by
 * {@link OptionSources} over the option table {@link ServerOption} — parsed into a {@link NodeConfig} and the rest of
 * a {@link Launch}. Pure apart from the injected {@link FileReader}: errors are {@link IllegalArgumentException}s
 * whose message names the option (and, when it did not come from the command line, where it came from) and the
 * offending value.
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

    /** The help text, generated from the option table ({@link ServerOption}). */
    static String usage() {
        return ServerOption.usage();
    }

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

    static List<String> readLines(String path) throws java.io.IOException {
        return java.nio.file.Files.readAllLines(java.nio.file.Path.of(path), java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Everything the server's main needs beyond the node: how long SIGTERM drains, the event-loop threads when
     * configured ({@code null}: {@link IoLoops}' own default), the HTTP endpoint ({@code null}: none), and the
     * deprecation warnings to log once logging is up.
     */
    record Launch(NodeConfig node, Duration drainOnStop, Integer ioThreads, HttpEndpointOptions http,
                  List<String> warnings) {
    }

    /**
     * Event-loop threads for the node's network I/O ({@link IoLoops}): {@code --io-threads}, else one per core.
     * More loops than cores oversubscribe a small machine: every request and replicated write then pays for
     * hand-overs between more threads than there are cores to run them.
     */
    public static int ioThreads(String[] args, int cores) {
        String option = OptionSources.resolve(args, Map.of(), ServerArguments::readLines).get(ServerOption.IO_THREADS);
        if (option == null) {
            return Math.max(1, cores);
        }
        return intOption(Map.of("--io-threads", option), "--io-threads", 1, 1, IoLoops.MAX_THREADS);
    }

    /**
     * How long SIGTERM waits for the node to drain: {@code --drain-on-stop}, else {@value #DRAIN_ON_STOP_VARIABLE}
     * (or the configuration file), else {@link #DEFAULT_DRAIN_ON_STOP}; {@link Duration#ZERO} means the node leaves
     * at once.
     */
    public static Duration drainOnStop(String[] args, Map<String, String> environment) {
        OptionSources sources = OptionSources.resolve(args, environment, ServerArguments::readLines);
        return named(sources, () -> durationOption(sources, ServerOption.DRAIN_ON_STOP, DEFAULT_DRAIN_ON_STOP));
    }

    /**
     * A duration as operators write it: {@code 1500ms}, {@code 30s}, {@code 2m}, {@code 1h}, or a plain number of
     * milliseconds; {@code 0} is zero. Never negative.
     *
     * @param what names the option in the error message
     */
    static Duration duration(String what, String text) {
        return Durations.parse(what, text, "ms").duration();
    }

    /**
     * A duration option in the one syntax; a plain number is still read as milliseconds, with a deprecation
     * warning, and the option's default when it is not given.
     */
    private static Duration durationOption(OptionSources sources, ServerOption option, Duration defaultValue) {
        String text = sources.get(option);
        if (text == null) {
            return defaultValue;
        }
        Durations.Parsed parsed = Durations.parse(option.flag(), text, "ms");
        if (parsed.withoutUnit()) {
            sources.warn(option.flag() + " " + text.strip() + " has no unit, which is deprecated: write "
                    + Durations.describe(parsed.duration()) + " (units: us, ms, s, m, h)");
        }
        return parsed.duration();
    }

    /** A duration option bounded to {@code min..max}, named in the message when outside. */
    private static Duration durationOption(OptionSources sources, ServerOption option, Duration defaultValue,
                                           Duration min, Duration max) {
        Duration value = durationOption(sources, option, defaultValue);
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException(option.flag() + " must be between " + Durations.describe(min) + " and "
                    + Durations.describe(max) + " but was " + Durations.describe(value));
        }
        return value;
    }

    /**
     * Runs one parsing step; an error about an option that came from the environment or the configuration file
     * says so, since the operator did not type it on this command line.
     */
    private static <T> T named(OptionSources sources, java.util.function.Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            for (ServerOption option : ServerOption.values()) {
                String origin = sources.origin(option);
                if (origin != null && !origin.equals("command line") && message.startsWith(option.flag())) {
                    throw new IllegalArgumentException(origin + ": " + message, e);
                }
            }
            throw e;
        }
    }

    public static NodeConfig parse(String[] args, Map<String, String> environment, FileReader files) {
        return launch(args, environment, files).node();
    }

    /** The whole server command line (with its environment and configuration file); pure apart from {@code files}. */
    static Launch launch(String[] args, Map<String, String> environment, FileReader files) {
        OptionSources sources = OptionSources.resolve(args, environment, files);
        return named(sources, () -> launch(sources, environment, files));
    }

    private static Launch launch(OptionSources sources, Map<String, String> environment, FileReader files) {
        Map<String, String> values = sources.byFlag();
        String nodeId = values.get("--node-id");
        if (nodeId == null) {
            throw new IllegalArgumentException("--node-id is required");
        }
        Duration drainOnStop = durationOption(sources, ServerOption.DRAIN_ON_STOP, DEFAULT_DRAIN_ON_STOP);
        Integer ioThreads = values.containsKey("--io-threads")
                ? intOption(values, "--io-threads", 1, 1, IoLoops.MAX_THREADS) : null;
        String host = values.getOrDefault("--host", NodeConfig.DEFAULT_HOST);
        int port = intOption(values, "--port", DEFAULT_PORT, 1, 65535);
        String advertiseHost = values.get("--advertise-host");
        int advertisePort = intOption(values, "--advertise-port", 0, 1, 65535);
        String clusterHost = values.getOrDefault("--cluster-host", host);
        int clusterPort = intOption(values, "--cluster-port", DEFAULT_CLUSTER_PORT, 1, 65535);
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
        Duration forever = Duration.ofMillis(Integer.MAX_VALUE);
        ReplicationSettings replication = new ReplicationSettings(ackMode,
                intOption(values, "--min-sync-replicas", defaults.minSyncReplicas(), 0, 254),
                defaults.ackTimeout(),
                durationOption(sources, ServerOption.HEAL_COOLDOWN, defaults.healCooldown(), Duration.ZERO, forever),
                durationOption(sources, ServerOption.EVICTION_DELAY, defaults.evictionDelay(), Duration.ZERO, forever),
                durationOption(sources, ServerOption.ASYNC_FLUSH_DELAY, defaults.asyncFlushDelay(), Duration.ZERO,
                        ReplicationSettings.MAX_ASYNC_FLUSH_DELAY));
        RespOptions resp = respOptions(values, host, port, advertisePort);
        SecurityOptions security = securityOptions(values, environment, files)
                .withLoginTimeout(durationOption(sources, ServerOption.LOGIN_TIMEOUT, SecurityOptions.DEFAULT_LOGIN_TIMEOUT,
                        Duration.ofMillis(100), forever))
                .withTls(tlsOptions(values, environment, files))
                .withClusterSecret(clusterSecret(values, environment, files));
        HttpEndpointOptions http = httpOptions(values, host);
        requireSafeBinding(values, UnprotectedPorts.of(host, resp == null ? null : resp.host(), clusterHost,
                security.requiresAuthentication(), security.clusterSecret() != null));
        // Addresses are checked after the safety of the binds: an unprotected port is the more important refusal.
        if (advertiseHost == null && MembershipConfig.isWildcard(host)) {
            throw new IllegalArgumentException("--host " + host + " binds every interface, an address nobody can"
                    + " connect to: give --advertise-host, the address clients and peer nodes reach this node at");
        }
        NodeAddress clusterAdvertised = clusterAdvertised(values, clusterHost, clusterPort, advertiseHost);
        MembershipConfig.DnsDiscovery dns = discovery(values);
        List<NodeAddress> seeds = new ArrayList<>();
        if (values.containsKey("--seeds")) {
            if (dns != null) {
                throw new IllegalArgumentException("--seeds and --discovery " + values.get("--discovery")
                        + " exclude each other: give one way of finding peers");
            }
            for (String seed : values.get("--seeds").split(",")) {
                try {
                    seeds.add(NodeAddress.parse(unbracketed(seed)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--seeds: " + e.getMessage(), e);
                }
            }
        } else if (dns == null) {
            seeds.add(clusterAdvertised == null ? new NodeAddress(clusterHost, clusterPort) : clusterAdvertised);
        }
        if (dns != null && !values.containsKey("--cluster-size")) {
            throw new IllegalArgumentException("--discovery " + values.get("--discovery") + " needs --cluster-size: the"
                    + " first partition map waits for that many nodes, and DNS may not list them all yet");
        }
        int clusterSize = intOption(values, "--cluster-size", seeds.size(), 1, 1024);
        MembershipConfig.Tcp membership = new MembershipConfig.Tcp(clusterName, clusterHost, clusterPort, seeds,
                durationOption(sources, ServerOption.ESCALATION_TIMEOUT, MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT,
                        Duration.ofSeconds(3), forever), clusterAdvertised, dns);
        NodeConfig node = NodeConfig.builder(nodeId)
                .memory(memoryOptions(values, Runtime.getRuntime().maxMemory()))
                .limits(protocolLimits(values))
                .security(security)
                .resp(resp)
                .replication(replication)
                .host(host)
                .port(port)
                .advertisedHost(advertiseHost)
                .advertisedPort(advertisePort)
                .clusterSettings(new ClusterSettings(clusterSize, PartitionLayout.of(segments, partitions), replicationFactor,
                        durationOption(sources, ServerOption.JOIN_SETTLE_DELAY, ClusterSettings.DEFAULT_JOIN_SETTLE_DELAY,
                                Duration.ZERO, forever),
                        intOption(values, "--max-concurrent-moves", ClusterSettings.DEFAULT_MAX_CONCURRENT_MOVES, 1, 100_000)))
                .membership(membership)
                .build();
        return new Launch(node, drainOnStop, ioThreads, http, sources.warnings());
    }

    /**
     * Where peers reach the membership port, when that differs from its bind address: {@code --cluster-advertise-*}
     * if given; else, for a wildcard (or defaulted) membership bind, the data port's advertised host; else {@code
     * null} (the bind address is announced, as before advertised addresses existed).
     */
    private static NodeAddress clusterAdvertised(Map<String, String> values, String clusterHost, int clusterPort,
                                                 String advertiseHost) {
        String host = values.get("--cluster-advertise-host");
        if (host == null && advertiseHost != null
                && (!values.containsKey("--cluster-host") || MembershipConfig.isWildcard(clusterHost))) {
            host = advertiseHost;
        }
        if (host != null && MembershipConfig.isWildcard(host)) {
            throw new IllegalArgumentException("--cluster-advertise-host must be an address peers can reach but was " + host);
        }
        if (host == null && MembershipConfig.isWildcard(clusterHost)) {
            throw new IllegalArgumentException("--cluster-host " + clusterHost + " binds every interface: give"
                    + " --cluster-advertise-host (or --advertise-host), the address peers reach this node's membership at");
        }
        int port = intOption(values, "--cluster-advertise-port", clusterPort, 1, 65535);
        if (host == null && port == clusterPort) {
            return null;
        }
        return new NodeAddress(unbracketed(host == null ? clusterHost : host), port);
    }

    /** {@code --discovery}: {@code seeds} (or absent) is {@code null}; {@code dns:<name>}, {@code dns-srv:<name>}. */
    static MembershipConfig.DnsDiscovery discovery(Map<String, String> values) {
        String text = values.get("--discovery");
        String server = values.get("--dns-server");
        if (text == null || text.strip().equals("seeds")) {
            if (server != null) {
                throw new IllegalArgumentException("--dns-server needs --discovery dns:<name> or dns-srv:<name>");
            }
            return null;
        }
        String trimmed = text.strip();
        MembershipConfig.DnsDiscovery.RecordType type;
        String name;
        if (trimmed.startsWith("dns:")) {
            type = MembershipConfig.DnsDiscovery.RecordType.A;
            name = trimmed.substring(4);
        } else if (trimmed.startsWith("dns-srv:")) {
            type = MembershipConfig.DnsDiscovery.RecordType.SRV;
            name = trimmed.substring(8);
        } else {
            throw new IllegalArgumentException("--discovery must be seeds, dns:<name> or dns-srv:<name> but was '" + text + "'");
        }
        try {
            return new MembershipConfig.DnsDiscovery(name, type, server);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--discovery: " + e.getMessage(), e);
        }
    }

    /** {@code [::1]} as {@code ::1}: the form URLs write IPv6 literals in, accepted wherever a host is. */
    private static String unbracketed(String host) {
        String trimmed = host.strip();
        if (trimmed.startsWith("[")) {
            int close = trimmed.indexOf(']');
            if (close > 0) {
                return trimmed.substring(1, close) + trimmed.substring(close + 1);
            }
        }
        return trimmed;
    }

    /** {@code --http-port} and {@code --http-host}; {@code null} when the endpoint is off (the default). */
    static HttpEndpointOptions httpOptions(Map<String, String> values, String host) {
        String text = values.get("--http-port");
        if (text == null || text.strip().equalsIgnoreCase("off") || text.strip().equals("0")) {
            if (values.containsKey("--http-host")) {
                throw new IllegalArgumentException("--http-host needs --http-port");
            }
            return null;
        }
        return new HttpEndpointOptions(values.getOrDefault("--http-host", host), intOption(values, "--http-port", 0, 1, 65535));
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
    private static RespOptions respOptions(Map<String, String> values, String host, int port, int advertisePort) {
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
                .peerPorts(RespPeerPorts.offset(respAdvertiseOffset(values, respPort, port, advertisePort)))
                .build();
    }

    /**
     * How far the announced RESP port lies from the announced data port (what MOVED and CLUSTER SLOTS name for
     * every node): {@code --resp-advertise-port} less the advertised data port when given, else the bound offset.
     */
    private static int respAdvertiseOffset(Map<String, String> values, int respPort, int port, int advertisePort) {
        if (!values.containsKey("--resp-advertise-port")) {
            return respPort - port;
        }
        return intOption(values, "--resp-advertise-port", 0, 1, 65535) - (advertisePort == 0 ? port : advertisePort);
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
