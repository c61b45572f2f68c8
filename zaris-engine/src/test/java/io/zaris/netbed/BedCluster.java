package io.zaris.netbed;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.NodeAddress;
import io.zaris.security.Credentials;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A cluster of standalone server processes, node {@code n<i>} in host {@code i} of a {@link NetworkBed}, each bound
 * to its host's address as a production node would be: with a password, and with a cluster secret unless the test
 * asks for an insecure cluster. Started from the server jar the build made (system property {@code
 * zaris.server.jar}, set by failsafe). Every node runs with the server's defaults apart from {@code --drain-on-stop
 * 0} (a killed node leaves at once), no RESP port, and whatever arguments the test adds. Unless a test gives its own
 * {@link Addressing}, node {@code n<i>} binds its host's address and has every host's membership port as seeds.
 */
final class BedCluster implements AutoCloseable {

    static final int DATA_PORT = 7101;
    static final int CLUSTER_PORT = 7201;
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

    private final NetworkBed bed;
    private final Path logDirectory;
    private final boolean clusterSecret;
    private final List<String> serverArguments;
    private Addressing addressing;
    private Path passwordFile;
    private Path secretFile;
    private final Path jar;
    private final String clusterName = "zaris-netbed-" + UUID.randomUUID();
    private final String password = "netbed-" + UUID.randomUUID();
    private final Map<String, Process> processes = new LinkedHashMap<>();

    /** How the nodes protect their membership traffic; the partition tests run under both. */
    enum Membership {
        /** A cluster secret: membership authenticated and encrypted, as a non-loopback node requires by default. */
        CLUSTER_SECRET,
        /** {@code --allow-insecure} instead of a cluster secret: plaintext, unauthenticated membership. */
        INSECURE;

        /**
         * The settings a scenario runs with: {@code usual} alone in the suite, every setting when the system property
         * {@code zaris.netbed.all-settings} is {@code true} (each cut takes a minute; both settings ran whenever the
         * membership or its transport changed, see the network partitions page).
         */
        static java.util.stream.Stream<Membership> toRun(Membership usual) {
            return Boolean.getBoolean("zaris.netbed.all-settings") ? java.util.Arrays.stream(values())
                    : java.util.stream.Stream.of(usual);
        }
    }

    /**
     * The arguments that say where node {@code n<host>} listens, what it announces and how it finds its peers (e.g.
     * {@code --host}, {@code --advertise-host}, {@code --seeds} or {@code --discovery}).
     */
    @FunctionalInterface
    interface Addressing {
        List<String> arguments(int host);
    }

    private BedCluster(NetworkBed bed, Path logDirectory, Membership membership, List<String> serverArguments) {
        String jarProperty = System.getProperty("zaris.server.jar");
        if (jarProperty == null || !Files.isRegularFile(Path.of(jarProperty))) {
            throw new IllegalStateException("system property zaris.server.jar must name the built server jar, was "
                    + jarProperty + " (run through 'mvn verify')");
        }
        this.jar = Path.of(jarProperty).toAbsolutePath();
        this.bed = bed;
        this.logDirectory = logDirectory.toAbsolutePath();
        this.clusterSecret = membership == Membership.CLUSTER_SECRET;
        this.serverArguments = List.copyOf(serverArguments);
        String seeds = bed.hostNumbers().stream().map(host -> bed.address(host) + ":" + CLUSTER_PORT)
                .collect(Collectors.joining(","));
        this.addressing = host -> List.of("--host", bed.address(host), "--seeds", seeds);
    }

    /**
     * Nodes with a password, and a cluster secret or {@code --allow-insecure} as {@code membership} says; {@code
     * serverArguments} are added to every node's command line (e.g. {@code --replication-factor 3}).
     */
    static BedCluster create(NetworkBed bed, Path logDirectory, Membership membership, String... serverArguments) {
        return new BedCluster(bed, logDirectory, membership, List.of(serverArguments));
    }

    /** Nodes with a password and a cluster secret: authenticated, encrypted membership. */
    static BedCluster secured(NetworkBed bed, Path logDirectory) {
        return create(bed, logDirectory, Membership.CLUSTER_SECRET);
    }

    /** Replaces how nodes are addressed (see {@link Addressing}); call before starting any node. */
    BedCluster addressedBy(Addressing addressing) {
        if (!processes.isEmpty()) {
            throw new IllegalStateException("addressing must be chosen before the first node starts");
        }
        this.addressing = addressing;
        return this;
    }

    /** Starts one node per host of the bed, all seeds of each other, and waits until each has started. */
    List<NodeAddress> start() throws IOException, InterruptedException {
        return start(bed.hostNumbers());
    }

    /** Starts a node on each of {@code hosts} (a bed may keep hosts for nodes started later), waits until each started. */
    List<NodeAddress> start(List<Integer> hosts) throws IOException, InterruptedException {
        for (int host : hosts) {
            launch(host);
        }
        awaitStarted();
        return dataAddresses();
    }

    /** Starts one more node, on {@code host}, while the others run; waits until it has started. */
    void startNode(int host) throws IOException, InterruptedException {
        launch(host);
        awaitStarted();
    }

    private void launch(int host) throws IOException {
        String nodeId = nodeId(host);
        if (processes.containsKey(nodeId)) {
            throw new IllegalStateException(nodeId + " was started already");
        }
        if (passwordFile == null) {
            Files.createDirectories(logDirectory);
            passwordFile = secretFile("password", password);
            secretFile = clusterSecret ? secretFile("cluster-secret", "netbed-secret-" + UUID.randomUUID()) : null;
        }
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx128m", "-XX:+UseSerialGC", "-jar",
                jar.toString(), "--node-id", nodeId));
        command.addAll(addressing.arguments(host));
        command.addAll(List.of("--port", Integer.toString(DATA_PORT), "--cluster-port", Integer.toString(CLUSTER_PORT),
                "--cluster-name", clusterName, "--resp-port", "off", "--drain-on-stop", "0",
                "--password-file", passwordFile.toString()));
        if (secretFile != null) {
            command.addAll(List.of("--cluster-secret-file", secretFile.toString()));
        } else {
            command.add("--allow-insecure");
        }
        command.addAll(serverArguments);
        processes.put(nodeId, bed.start(host, command, log(nodeId)));
    }

    private Path secretFile(String name, String content) throws IOException {
        Path file = logDirectory.resolve(name);
        Files.writeString(file, content + "\n");
        return file;
    }

    private void awaitStarted() throws InterruptedException, IOException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        for (Map.Entry<String, Process> node : processes.entrySet()) {
            String started = "node " + node.getKey() + " started";
            Path log = log(node.getKey());
            while (!Files.exists(log) || !Files.readString(log).contains(started)) {
                if (!node.getValue().isAlive()) {
                    throw new IllegalStateException(node.getKey() + " exited with " + node.getValue().exitValue()
                            + "; see " + log);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(node.getKey() + " had not started after " + STARTUP_TIMEOUT + "; see " + log);
                }
                Thread.sleep(100); // polling a log file; nothing to be notified by
            }
        }
    }

    /** The started nodes' data addresses on their hosts' bed addresses, in the order they started. */
    List<NodeAddress> dataAddresses() {
        return List.copyOf(dataAddressesById().values());
    }

    /** Each started node's data address on its host's bed address, by node id. */
    Map<String, NodeAddress> dataAddressesById() {
        Map<String, NodeAddress> byId = new LinkedHashMap<>();
        for (String nodeId : processes.keySet()) {
            byId.put(nodeId, new NodeAddress(bed.address(hostOf(nodeId)), DATA_PORT));
        }
        return byId;
    }

    /** The login every node accepts: the password the cluster was started with. */
    Credentials credentials() {
        return Credentials.password(password);
    }

    /** A client as an application on the host side gets it: default options, the password, no environment. */
    ZarisClient defaultClient() {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(dataAddresses()).password(password)
                .environment(Map.of()).build());
    }

    static String nodeId(int host) {
        return "n" + host;
    }

    static int hostOf(String nodeId) {
        return Integer.parseInt(nodeId.substring(1));
    }

    /** The node's process (its {@code java} process: {@code ip netns exec} replaces itself with the command). */
    Process process(String nodeId) {
        Process process = processes.get(nodeId);
        if (process == null) {
            throw new IllegalArgumentException("no node " + nodeId);
        }
        return process;
    }

    List<String> nodeIds() {
        return List.copyOf(processes.keySet());
    }

    Path log(String nodeId) {
        return logDirectory.resolve(nodeId + ".log");
    }

    NodeLog nodeLog(String nodeId) {
        return new NodeLog(log(nodeId));
    }

    @Override
    public void close() {
        processes.values().forEach(Process::destroyForcibly);
        for (Process process : processes.values()) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
