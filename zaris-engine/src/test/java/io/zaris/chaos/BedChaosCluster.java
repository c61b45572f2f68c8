package io.zaris.chaos;

import io.zaris.model.NodeAddress;
import io.zaris.netbed.NetworkBed;
import io.zaris.server.ServerProcesses;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The chaos run's nodes on a {@link NetworkBed}: node {@code n<i>} in namespace host {@code i}, bound to that host's
 * own address as a production node is, so it needs what a non-loopback node requires, a password and a cluster
 * secret. The workload's clients and the admin commands run on the bridge side. Every port is the same on every
 * host (each host has its own address), so a restarted node comes back on the same address and ports.
 *
 * <p>Owned by the run's main thread (start, close); the nemesis thread restarts nodes and injects network faults
 * while the run lasts. {@link #nodes} is replaced element by element on a restart, under this object's lock.
 */
final class BedChaosCluster implements ChaosCluster {

    static final int DATA_PORT = 7101;
    static final int CLUSTER_PORT = 7201;
    /** Each node's HTTP port, for the readiness probe the nemesis reads. */
    static final int HTTP_PORT = 7301;
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

    private final Path logDirectory;
    private final int nodeCount;
    private final int replicationFactor;
    private final List<String> serverArguments;
    private final Path jar;
    private final String password = "chaos-" + UUID.randomUUID();
    private final Map<String, List<String>> commands = new LinkedHashMap<>();
    private final Map<String, ServerProcesses.Node> nodes = new LinkedHashMap<>();
    private NetworkBed bed;
    private NetworkFaults faults;
    private Path passwordFile;

    BedChaosCluster(Path logDirectory, int nodes, int replicationFactor, List<String> serverArguments) {
        String jarProperty = System.getProperty("zaris.server.jar");
        if (jarProperty == null || !Files.isRegularFile(Path.of(jarProperty))) {
            throw new IllegalStateException("system property zaris.server.jar must name the built server jar, was "
                    + jarProperty + " (run through chaos/run or 'mvn verify')");
        }
        this.jar = Path.of(jarProperty).toAbsolutePath();
        this.logDirectory = logDirectory.toAbsolutePath();
        this.nodeCount = nodes;
        this.replicationFactor = replicationFactor;
        this.serverArguments = List.copyOf(serverArguments);
    }

    @Override
    public synchronized List<NodeAddress> start() throws IOException, InterruptedException {
        NetworkBed.missingCapability().ifPresent(reason -> {
            throw new IllegalStateException("--network bed needs network namespaces: " + reason);
        });
        Files.createDirectories(logDirectory);
        bed = NetworkBed.create(nodeCount);
        faults = new NetworkFaults(bed);
        passwordFile = secretFile("password", password);
        Path secretFile = secretFile("cluster-secret", "chaos-secret-" + UUID.randomUUID());
        String seeds = bed.hostNumbers().stream().map(host -> bed.address(host) + ":" + CLUSTER_PORT)
                .collect(Collectors.joining(","));
        String clusterName = "zaris-chaos-" + UUID.randomUUID();
        for (int host : bed.hostNumbers()) {
            String nodeId = NetworkFaults.nodeId(host);
            List<String> command = new ArrayList<>(List.of(javaBinary(), ChaosRun.NODE_HEAP, "-XX:+UseSerialGC", "-jar",
                    jar.toString(), "--node-id", nodeId, "--host", bed.address(host), "--port", Integer.toString(DATA_PORT),
                    "--cluster-port", Integer.toString(CLUSTER_PORT), "--http-port", Integer.toString(HTTP_PORT),
                    "--seeds", seeds, "--cluster-name", clusterName,
                    "--replication-factor", Integer.toString(replicationFactor), "--resp-port", "off",
                    "--drain-on-stop", "0", "--password-file", passwordFile.toString(),
                    "--cluster-secret-file", secretFile.toString()));
            command.addAll(serverArguments);
            commands.put(nodeId, command);
            Path log = logDirectory.resolve(nodeId + ".log");
            Files.deleteIfExists(log);
            nodes.put(nodeId, new ServerProcesses.Node(nodeId, bed.start(host, command, log), log));
        }
        awaitStarted();
        return bed.hostNumbers().stream().map(host -> new NodeAddress(bed.address(host), DATA_PORT)).toList();
    }

    private Path secretFile(String name, String content) throws IOException {
        Path file = logDirectory.resolve(name);
        Files.writeString(file, content + "\n");
        return file;
    }

    private void awaitStarted() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        for (ServerProcesses.Node node : nodes.values()) {
            String started = "node " + node.nodeId() + " started";
            while (!Files.exists(node.log()) || !node.logText().contains(started)) {
                if (!node.process().isAlive()) {
                    throw new IllegalStateException(node.nodeId() + " exited with " + node.process().exitValue()
                            + "; see " + node.log());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(node.nodeId() + " had not started after " + STARTUP_TIMEOUT
                            + "; see " + node.log());
                }
                Thread.sleep(100); // polling a log file; nothing to be notified by
            }
        }
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public synchronized List<ServerProcesses.Node> nodes() {
        return List.copyOf(nodes.values());
    }

    @Override
    public synchronized ServerProcesses.Node node(String nodeId) {
        ServerProcesses.Node node = nodes.get(nodeId);
        if (node == null) {
            throw new IllegalArgumentException("no node " + nodeId);
        }
        return node;
    }

    @Override
    public synchronized ServerProcesses.Node restart(String nodeId) throws IOException {
        ServerProcesses.Node node = node(nodeId);
        if (node.process().isAlive()) {
            throw new IllegalStateException("node " + nodeId + " is still running");
        }
        Files.writeString(node.log(), ServerProcesses.RESTART_MARKER + "\n", StandardOpenOption.APPEND);
        ServerProcesses.Node restarted = new ServerProcesses.Node(nodeId,
                bed.start(NetworkFaults.hostOf(nodeId), commands.get(nodeId), node.log()), node.log());
        nodes.put(nodeId, restarted);
        return restarted;
    }

    /** Runs {@code admin} from the bridge side, logged in with the nodes' password. */
    @Override
    public ServerProcesses.AdminRun admin(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx64m", "-XX:+UseSerialGC", "-jar",
                jar.toString(), "admin", "--password-file", passwordFile.toString()));
        command.addAll(List.of(arguments));
        Path out = Files.createTempFile(logDirectory, "admin-", ".out");
        Path err = Files.createTempFile(logDirectory, "admin-", ".err");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("admin " + String.join(" ", arguments) + " did not finish in two minutes");
        }
        return new ServerProcesses.AdminRun(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Override
    public synchronized URI readinessUri(String nodeId) {
        return URI.create("http://" + bed.address(NetworkFaults.hostOf(nodeId)) + ":" + HTTP_PORT + "/health/ready");
    }

    @Override
    public Optional<NetworkFaults> network() {
        return Optional.ofNullable(faults);
    }

    @Override
    public String describe() {
        String where = nodeCount + " processes on a network test bed (one namespace host each, own address, password and "
                + "cluster secret; clients on the bridge side)";
        if (faults == null) {
            return where;
        }
        return where + (faults.supportsDelay() ? "; every network fault available"
                : "; ADDED_LATENCY SKIPPED: this kernel has no tc netem (CONFIG_NET_SCH_NETEM)");
    }

    /** Kills every node, then removes the bed (namespaces, links, bridge). */
    @Override
    public synchronized void close() {
        if (bed != null) {
            bed.close();
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
