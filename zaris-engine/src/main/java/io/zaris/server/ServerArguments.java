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
import io.zaris.resp.RespLinger;
import io.zaris.resp.RespOptions;
import io.zaris.resp.RespPeerPorts;
import io.zaris.security.ClusterSecret;
import io.zaris.security.SecurityOptions;
import io.zaris.security.TlsOptions;
import io.zaris.store.EvictionPolicy;
import io.zaris.store.MemoryOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The standalone server's configuration — command line, environment and configuration file, merged by
 * {@link OptionSources} over the option catalog {@link ServerOption} — parsed into a {@link NodeConfig} and the rest
 * of a {@link Launch}. Each option's type, bounds and constant default come from the catalog; this class holds only
 * what relates options to each other (derived defaults, options that need or exclude others, files and secrets).
 * Pure apart from the injected {@link FileReader}: errors are {@link IllegalArgumentException}s whose message names
 * the option (and, when it did not come from the command line, where it came from) and the offending value.
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
        OptionSources sources = OptionSources.resolve(args, Map.of(), ServerArguments::readLines);
        return sources.intValue(ServerOption.IO_THREADS, Math.max(1, cores));
    }

    /**
     * How long SIGTERM waits for the node to drain: {@code --drain-on-stop}, else {@value #DRAIN_ON_STOP_VARIABLE}
     * (or the configuration file), else {@link #DEFAULT_DRAIN_ON_STOP}; {@link Duration#ZERO} means the node leaves
     * at once.
     */
    public static Duration drainOnStop(String[] args, Map<String, String> environment) {
        OptionSources sources = OptionSources.resolve(args, environment, ServerArguments::readLines);
        return named(sources, () -> sources.duration(ServerOption.DRAIN_ON_STOP));
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

    /**
     * Assembles the node from the catalog's typed values. Each option's type, bounds and constant default come
     * from {@link ServerOption}; what stays here is what relates options to each other (derived defaults, options
     * that exclude or need each other, the frame limit that must hold the key and value limits).
     */
    private static Launch launch(OptionSources sources, Map<String, String> environment, FileReader files) {
        String nodeId = sources.get(ServerOption.NODE_ID);
        if (nodeId == null) {
            throw new IllegalArgumentException("--node-id is required");
        }
        Duration drainOnStop = sources.duration(ServerOption.DRAIN_ON_STOP);
        Integer ioThreads = sources.has(ServerOption.IO_THREADS) ? sources.intValue(ServerOption.IO_THREADS, 1) : null;
        String host = sources.text(ServerOption.HOST);
        int port = sources.intValue(ServerOption.PORT);
        String advertiseHost = sources.get(ServerOption.ADVERTISE_HOST);
        int advertisePort = sources.intValue(ServerOption.ADVERTISE_PORT, 0);
        String clusterHost = sources.has(ServerOption.CLUSTER_HOST) ? sources.get(ServerOption.CLUSTER_HOST) : host;
        int clusterPort = sources.intValue(ServerOption.CLUSTER_PORT);
        int replicationFactor = sources.intValue(ServerOption.REPLICATION_FACTOR);
        int segments = sources.intValue(ServerOption.SEGMENTS);
        int partitions = sources.intValue(ServerOption.PARTITIONS, Math.min(PartitionLayout.DEFAULT_PARTITION_COUNT, segments));
        if (sources.has(ServerOption.PARTITIONS) && partitions > segments) {
            throw new IllegalArgumentException("--partitions must be in 1.." + segments + " but was " + partitions);
        }
        String clusterName = sources.text(ServerOption.CLUSTER_NAME);
        ReplicationSettings replication = new ReplicationSettings(
                AckMode.valueOf(((String) sources.value(ServerOption.ACK_MODE)).toUpperCase(java.util.Locale.ROOT)),
                sources.intValue(ServerOption.MIN_SYNC_REPLICAS),
                ReplicationSettings.DEFAULT_ACK_TIMEOUT,
                sources.duration(ServerOption.HEAL_COOLDOWN),
                sources.duration(ServerOption.EVICTION_DELAY),
                sources.duration(ServerOption.ASYNC_FLUSH_DELAY),
                sources.intValue(ServerOption.REPLICA_BACKLOG, 0));
        RespOptions resp = respOptions(sources, host, port, advertisePort);
        SecurityOptions security = securityOptions(sources, environment, files)
                .withLoginTimeout(sources.duration(ServerOption.LOGIN_TIMEOUT))
                .withTls(tlsOptions(sources, environment, files))
                .withClusterSecret(clusterSecret(sources, environment, files));
        HttpEndpointOptions http = httpOptions(sources, host);
        requireSafeBinding(sources, UnprotectedPorts.of(host, resp == null ? null : resp.host(), clusterHost,
                security.requiresAuthentication(), security.clusterSecret() != null));
        // Addresses are checked after the safety of the binds: an unprotected port is the more important refusal.
        if (advertiseHost == null && MembershipConfig.isWildcard(host)) {
            throw new IllegalArgumentException("--host " + host + " binds every interface, an address nobody can"
                    + " connect to: give --advertise-host, the address clients and peer nodes reach this node at");
        }
        NodeAddress clusterAdvertised = clusterAdvertised(sources, clusterHost, clusterPort, advertiseHost);
        MembershipConfig.DnsDiscovery dns = discovery(sources);
        List<NodeAddress> seeds = new ArrayList<>();
        if (sources.has(ServerOption.SEEDS)) {
            if (dns != null) {
                throw new IllegalArgumentException("--seeds and --discovery " + sources.get(ServerOption.DISCOVERY)
                        + " exclude each other: give one way of finding peers");
            }
            for (String seed : sources.get(ServerOption.SEEDS).split(",")) {
                try {
                    seeds.add(NodeAddress.parse(unbracketed(seed)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--seeds: " + e.getMessage(), e);
                }
            }
        } else if (dns == null) {
            seeds.add(clusterAdvertised == null ? new NodeAddress(clusterHost, clusterPort) : clusterAdvertised);
        }
        if (dns != null && !sources.has(ServerOption.CLUSTER_SIZE)) {
            throw new IllegalArgumentException("--discovery " + sources.get(ServerOption.DISCOVERY) + " needs"
                    + " --cluster-size: the first partition map waits for that many nodes, and DNS may not list them all yet");
        }
        int clusterSize = sources.intValue(ServerOption.CLUSTER_SIZE, seeds.size());
        MembershipConfig.Tcp membership = new MembershipConfig.Tcp(clusterName, clusterHost, clusterPort, seeds,
                sources.duration(ServerOption.ESCALATION_TIMEOUT), clusterAdvertised, dns);
        NodeConfig node = NodeConfig.builder(nodeId)
                .memory(memoryOptions(sources, Runtime.getRuntime().maxMemory()))
                .limits(protocolLimits(sources))
                .security(security)
                .resp(resp)
                .replication(replication)
                .host(host)
                .port(port)
                .advertisedHost(advertiseHost)
                .advertisedPort(advertisePort)
                .clusterSettings(new ClusterSettings(clusterSize, PartitionLayout.of(segments, partitions), replicationFactor,
                        sources.duration(ServerOption.JOIN_SETTLE_DELAY), sources.intValue(ServerOption.MAX_CONCURRENT_MOVES)))
                .membership(membership)
                .build();
        return new Launch(node, drainOnStop, ioThreads, http, sources.warnings());
    }

    /**
     * Where peers reach the membership port, when that differs from its bind address: {@code --cluster-advertise-*}
     * if given; else, for a wildcard (or defaulted) membership bind, the data port's advertised host; else {@code
     * null} (the bind address is announced, as before advertised addresses existed).
     */
    private static NodeAddress clusterAdvertised(OptionSources sources, String clusterHost, int clusterPort,
                                                 String advertiseHost) {
        String host = sources.get(ServerOption.CLUSTER_ADVERTISE_HOST);
        if (host == null && advertiseHost != null
                && (!sources.has(ServerOption.CLUSTER_HOST) || MembershipConfig.isWildcard(clusterHost))) {
            host = advertiseHost;
        }
        if (host != null && MembershipConfig.isWildcard(host)) {
            throw new IllegalArgumentException("--cluster-advertise-host must be an address peers can reach but was " + host);
        }
        if (host == null && MembershipConfig.isWildcard(clusterHost)) {
            throw new IllegalArgumentException("--cluster-host " + clusterHost + " binds every interface: give"
                    + " --cluster-advertise-host (or --advertise-host), the address peers reach this node's membership at");
        }
        int port = sources.intValue(ServerOption.CLUSTER_ADVERTISE_PORT, clusterPort);
        if (host == null && port == clusterPort) {
            return null;
        }
        return new NodeAddress(unbracketed(host == null ? clusterHost : host), port);
    }

    /** {@code --discovery}: {@code seeds} (or absent) is {@code null}; {@code dns:<name>}, {@code dns-srv:<name>}. */
    static MembershipConfig.DnsDiscovery discovery(OptionSources sources) {
        String text = sources.get(ServerOption.DISCOVERY);
        String server = sources.get(ServerOption.DNS_SERVER);
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
    static HttpEndpointOptions httpOptions(OptionSources sources, String host) {
        Object port = sources.value(ServerOption.HTTP_PORT);
        if ("off".equals(port)) {
            if (sources.has(ServerOption.HTTP_HOST)) {
                throw new IllegalArgumentException("--http-host needs --http-port");
            }
            return null;
        }
        return new HttpEndpointOptions(sources.has(ServerOption.HTTP_HOST) ? sources.get(ServerOption.HTTP_HOST) : host,
                (Integer) port);
    }

    private static SecurityOptions securityOptions(OptionSources sources, Map<String, String> environment,
                                                   FileReader files) {
        String password = null;
        if (sources.has(ServerOption.PASSWORD_FILE)) {
            List<String> lines = read(files, "--password-file", sources.get(ServerOption.PASSWORD_FILE));
            if (lines.isEmpty() || lines.get(0).isEmpty()) {
                throw new IllegalArgumentException("--password-file " + sources.get(ServerOption.PASSWORD_FILE) + " is empty");
            }
            password = lines.get(0);
        } else if (environment.get(PASSWORD_VARIABLE) != null) {
            password = environment.get(PASSWORD_VARIABLE);
            if (password.isEmpty()) {
                throw new IllegalArgumentException("environment variable " + PASSWORD_VARIABLE + " is set but empty");
            }
        }
        List<String> users = List.of();
        if (sources.has(ServerOption.USERS_FILE)) {
            if (password == null) {
                throw new IllegalArgumentException("--users-file needs a shared password (--password-file or "
                        + PASSWORD_VARIABLE + "): nodes log in to each other with it");
            }
            users = read(files, "--users-file", sources.get(ServerOption.USERS_FILE));
        }
        if (password == null) {
            return SecurityOptions.none();
        }
        try {
            return SecurityOptions.of(password, users);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((sources.has(ServerOption.USERS_FILE) ? "--users-file: " : "password: ")
                    + e.getMessage(), e);
        }
    }

    /**
     * TLS from PEM files ({@code --tls-cert}, {@code --tls-key}) or a key store, trusting {@code --tls-ca} or a
     * trust store; {@code null} when no TLS option is given. A node always needs key material: it serves TLS.
     */
    static TlsOptions tlsOptions(OptionSources sources, Map<String, String> environment, FileReader files) {
        boolean pem = sources.has(ServerOption.TLS_CERT) || sources.has(ServerOption.TLS_KEY);
        boolean keyStore = sources.has(ServerOption.TLS_KEYSTORE);
        boolean trust = sources.has(ServerOption.TLS_CA) || sources.has(ServerOption.TLS_TRUSTSTORE);
        if (!pem && !keyStore && !trust) {
            return null;
        }
        if (!pem && !keyStore) {
            throw new IllegalArgumentException("TLS trust is configured but no key material: a node serves TLS, so give"
                    + " --tls-cert and --tls-key, or --tls-keystore");
        }
        if (pem && !(sources.has(ServerOption.TLS_CERT) && sources.has(ServerOption.TLS_KEY))) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together: give both");
        }
        TlsOptions.Builder tls = TlsOptions.builder();
        try {
            if (pem) {
                tls.pem(Path.of(sources.get(ServerOption.TLS_CERT)), Path.of(sources.get(ServerOption.TLS_KEY)));
            }
            if (keyStore) {
                tls.keyStore(Path.of(sources.get(ServerOption.TLS_KEYSTORE)), secret(sources, environment, files,
                        ServerOption.TLS_KEYSTORE_PASSWORD_FILE, TLS_KEYSTORE_PASSWORD_VARIABLE, "--tls-keystore"));
            }
            if (sources.has(ServerOption.TLS_CA)) {
                tls.trustedCertificates(Path.of(sources.get(ServerOption.TLS_CA)));
            }
            if (sources.has(ServerOption.TLS_TRUSTSTORE)) {
                tls.trustStore(Path.of(sources.get(ServerOption.TLS_TRUSTSTORE)), secret(sources, environment, files,
                        ServerOption.TLS_TRUSTSTORE_PASSWORD_FILE, TLS_TRUSTSTORE_PASSWORD_VARIABLE, "--tls-truststore"));
            }
            return tls.build();
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("TLS: not a file name: " + e.getInput(), e);
        }
    }

    /** The cluster secret from {@code --cluster-secret-file} or {@value #CLUSTER_SECRET_VARIABLE}; {@code null} without. */
    static ClusterSecret clusterSecret(OptionSources sources, Map<String, String> environment, FileReader files) {
        String secret = null;
        if (sources.has(ServerOption.CLUSTER_SECRET_FILE)) {
            secret = firstLine(files, "--cluster-secret-file", sources.get(ServerOption.CLUSTER_SECRET_FILE));
        } else if (environment.get(CLUSTER_SECRET_VARIABLE) != null) {
            secret = environment.get(CLUSTER_SECRET_VARIABLE);
        }
        if (secret == null) {
            return null;
        }
        try {
            return ClusterSecret.of(secret);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((sources.has(ServerOption.CLUSTER_SECRET_FILE) ? "--cluster-secret-file: "
                    : CLUSTER_SECRET_VARIABLE + ": ") + e.getMessage(), e);
        }
    }

    /** A password from its file option, else its environment variable; required by {@code forOption}. */
    private static String secret(OptionSources sources, Map<String, String> environment, FileReader files,
                                 ServerOption fileOption, String variable, String forOption) {
        if (sources.has(fileOption)) {
            return firstLine(files, fileOption.flag(), sources.get(fileOption));
        }
        String value = environment.get(variable);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(forOption + " needs a password: give " + fileOption.flag() + " or set " + variable);
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
    private static void requireSafeBinding(OptionSources sources, UnprotectedPorts unprotected) {
        if (sources.has(ServerOption.ALLOW_INSECURE)) {
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
    private static RespOptions respOptions(OptionSources sources, String host, int port, int advertisePort) {
        RespLimits limits = respLimits(sources); // checked even when RESP is off, so a bad value is reported
        boolean explicit = sources.has(ServerOption.RESP_PORT);
        Object given = explicit ? sources.value(ServerOption.RESP_PORT) : null;
        int respPort;
        if ("off".equals(given)) {
            return null;
        } else if (explicit) {
            respPort = (Integer) given;
        } else {
            respPort = port + RespOptions.DEFAULT_PORT_OFFSET;
            if (respPort > 65535) {
                return null;
            }
        }
        return RespOptions.builder()
                .host(sources.has(ServerOption.RESP_HOST) ? sources.get(ServerOption.RESP_HOST) : host)
                .port(respPort)
                .required(explicit)
                .limits(limits)
                .peerPorts(RespPeerPorts.offset(respAdvertiseOffset(sources, respPort, port, advertisePort)))
                .linger(respLinger(sources))
                .build();
    }

    /** {@code --resp-linger-quiet} and {@code --resp-linger-max}: the quiet time may not exceed the longest linger. */
    static RespLinger respLinger(OptionSources sources) {
        Duration quiet = sources.duration(ServerOption.RESP_LINGER_QUIET);
        Duration max = sources.duration(ServerOption.RESP_LINGER_MAX);
        if (quiet.compareTo(max) > 0) {
            throw new IllegalArgumentException(ServerOption.RESP_LINGER_QUIET.flag() + " (" + quiet + ") must not exceed "
                    + ServerOption.RESP_LINGER_MAX.flag() + " (" + max + ")");
        }
        return new RespLinger(quiet, max);
    }

    /**
     * How far the announced RESP port lies from the announced data port (what MOVED and CLUSTER SLOTS name for
     * every node): {@code --resp-advertise-port} less the advertised data port when given, else the bound offset.
     */
    private static int respAdvertiseOffset(OptionSources sources, int respPort, int port, int advertisePort) {
        if (!sources.has(ServerOption.RESP_ADVERTISE_PORT)) {
            return respPort - port;
        }
        return sources.intValue(ServerOption.RESP_ADVERTISE_PORT, 0) - (advertisePort == 0 ? port : advertisePort);
    }

    /** {@code --resp-max-bulk-bytes}, {@code --resp-max-args} and {@code --resp-max-inline-bytes}; the defaults for the rest. */
    static RespLimits respLimits(OptionSources sources) {
        return RespLimits.of(
                sources.intValue(ServerOption.RESP_MAX_BULK_BYTES),
                sources.intValue(ServerOption.RESP_MAX_ARGS),
                sources.intValue(ServerOption.RESP_MAX_INLINE_BYTES));
    }

    /** {@code --max-memory} (a size or a share of {@code maxHeapBytes}) and {@code --eviction-policy}. */
    static MemoryOptions memoryOptions(OptionSources sources, long maxHeapBytes) {
        MemoryOptions.Builder memory = MemoryOptions.builder();
        String maxMemory = sources.get(ServerOption.MAX_MEMORY);
        if (maxMemory != null) {
            try {
                memory.maxBytes(MemoryOptions.parseSize(maxMemory, maxHeapBytes));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--max-memory: " + e.getMessage(), e);
            }
        }
        try {
            memory.policy(EvictionPolicy.parse(sources.text(ServerOption.EVICTION_POLICY)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--eviction-policy: " + e.getMessage(), e);
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
    static ProtocolLimits protocolLimits(OptionSources sources) {
        int maxKey = sources.intValue(ServerOption.MAX_KEY_BYTES);
        int maxValue = sources.intValue(ServerOption.MAX_VALUE_BYTES);
        int needed = (int) ProtocolLimits.nodeFrameBytesFor(maxKey, maxValue); // both capped: fits an int
        int maxFrame = sources.intValue(ServerOption.MAX_FRAME_BYTES, Math.max(ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, needed));
        if (maxFrame < needed) {
            throw new IllegalArgumentException("--max-frame-bytes " + maxFrame + " cannot carry a key of --max-key-bytes "
                    + maxKey + " and a value of --max-value-bytes " + maxValue + " plus "
                    + ProtocolLimits.FRAME_HEADROOM_BYTES + " bytes of headers: give at least " + needed
                    + ", or lower the key and value limits");
        }
        return new ProtocolLimits(maxFrame, maxKey, maxValue, ProtocolLimits.DEFAULT_MAX_BATCH_KEYS);
    }
}
