package io.zaris.server;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.NodeAddress;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Starts standalone server processes from the server jar on loopback, each with its own log file, and
 * cleans them up. Ports are chosen free at start ({@link LoopbackPorts}); the cluster name is unique per instance so concurrent
 * runs never merge.
 */
public final class ServerProcesses implements AutoCloseable {

    /** Written into a node's log before it is started again, so a reader can tell the runs apart. */
    public static final String RESTART_MARKER = "=== zaris test harness: node restarted ===";

    private static final int START_ATTEMPTS = 3;
    private static final java.time.Duration STARTUP_TIMEOUT = java.time.Duration.ofSeconds(60);

    private final Path jar;
    private final Path logDirectory;
    private final String clusterName = "zaris-test-" + UUID.randomUUID();
    private final List<Node> nodes = new ArrayList<>();
    private final java.util.Map<String, List<String>> commands = new java.util.HashMap<>();
    private boolean leaveAtOnceOnStop = true;
    /** Whether nodes spawned by {@link #start} get an HTTP health port each; see {@link #withHttpPorts}. */
    private boolean httpPorts;
    /** JVM options (before {@code -jar}) of nodes started from now on, e.g. a test fault's system property; see {@link #withJvmOptions}. */
    private final List<String> jvmOptions = new ArrayList<>();

    public ServerProcesses(Path logDirectory) {
        String jarProperty = System.getProperty("zaris.server.jar");
        if (jarProperty == null || !Files.isRegularFile(Path.of(jarProperty))) {
            throw new IllegalStateException("system property zaris.server.jar must name the built server jar, was "
                    + jarProperty + " (run through 'mvn verify')");
        }
        this.jar = Path.of(jarProperty);
        this.logDirectory = logDirectory;
    }

    /** Starts every node from now on with these extra JVM options, e.g. {@code -Dname=value}. */
    public ServerProcesses withJvmOptions(List<String> options) {
        jvmOptions.addAll(options);
        return this;
    }

    /**
     * Lets nodes started from now on drain on SIGTERM as the server does by default (up to 30 s, or what an
     * extra {@code --drain-on-stop} says). Without it every node is started with {@code --drain-on-stop 0},
     * so a stopped node leaves at once and tests keep the timing they were written for.
     */
    public ServerProcesses drainingOnStop() {
        leaveAtOnceOnStop = false;
        return this;
    }

    /** Nodes started by {@link #start} from now on get a free {@code --http-port} each ({@link #httpPort}). */
    public ServerProcesses withHttpPorts() {
        httpPorts = true;
        return this;
    }

    /**
     * Nodes started by {@link #start} from now on run with these JVM options too, e.g. a system property that makes
     * them speak an older protocol version. {@link #restart(String, UnaryOperator)} can take one away again.
     */
    public ServerProcesses withJvmOptions(String... options) {
        jvmOptions.addAll(List.of(options));
        return this;
    }

    /**
     * Starts {@code count} nodes that form one cluster of that size, and waits until each has bound its ports
     * and joined. A node that exits first (a port taken in the meantime by another program) costs the whole
     * set a fresh start on fresh ports, at most {@value #START_ATTEMPTS} times: the seeds name every port.
     */
    public List<NodeAddress> start(int count, int replicationFactor, String... extraArguments) throws IOException {
        List<String> failures = new ArrayList<>();
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            List<NodeAddress> dataAddresses = spawn(count, replicationFactor, extraArguments);
            String failure = awaitStarted(nodes.subList(nodes.size() - count, nodes.size()));
            if (failure == null) {
                return dataAddresses;
            }
            failures.add(failure);
            List<Node> failed = new ArrayList<>(nodes.subList(nodes.size() - count, nodes.size()));
            nodes.removeAll(failed);
            for (Node node : failed) {
                commands.remove(node.nodeId());
                try {
                    node.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while stopping a cluster that did not start", e);
                }
            }
        }
        throw new IllegalStateException("a cluster of " + count + " did not start in " + START_ATTEMPTS + " attempts: "
                + failures);
    }

    private List<NodeAddress> spawn(int count, int replicationFactor, String... extraArguments) throws IOException {
        List<int[]> ports = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ports.add(new int[] {freePort(), freePort()});
        }
        String seeds = ports.stream().map(p -> "127.0.0.1:" + p[1]).collect(Collectors.joining(","));
        Files.createDirectories(logDirectory);
        List<NodeAddress> dataAddresses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String nodeId = "n" + (i + 1);
            List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx128m", "-XX:+UseSerialGC"));
            command.addAll(jvmOptions);
            command.addAll(List.of("-jar", jar.toString(),
                    "--node-id", nodeId, "--port", Integer.toString(ports.get(i)[0]),
                    "--cluster-port", Integer.toString(ports.get(i)[1]), "--seeds", seeds,
                    "--cluster-name", clusterName, "--replication-factor", Integer.toString(replicationFactor)));
            if (!List.of(extraArguments).contains("--resp-port")) {
                // The default RESP port (data port + 1000) is not reserved like the free ports above.
                command.addAll(List.of("--resp-port", "off"));
            }
            if (leaveAtOnceOnStop && !List.of(extraArguments).contains("--drain-on-stop")) {
                command.addAll(List.of("--drain-on-stop", "0"));
            }
            if (httpPorts) {
                command.addAll(List.of("--http-port", Integer.toString(freePort())));
            }
            command.addAll(List.of(extraArguments));
            File log = logDirectory.resolve(nodeId + ".log").toFile();
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log)).start();
            nodes.add(new Node(nodeId, process, log.toPath()));
            commands.put(nodeId, command);
            dataAddresses.add(new NodeAddress("127.0.0.1", ports.get(i)[0]));
        }
        return dataAddresses;
    }

    /** Null once every node logged that it started; otherwise why one did not (it exited, or took too long). */
    private static String awaitStarted(List<Node> starting) throws IOException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        for (Node node : starting) {
            String started = "node " + node.nodeId() + " started";
            while (!node.logText().contains(started)) {
                if (!node.process().isAlive()) {
                    return node.nodeId() + " exited with status " + node.process().exitValue() + ": " + tail(node.logText());
                }
                if (System.nanoTime() > deadline) {
                    return node.nodeId() + " had not started after " + STARTUP_TIMEOUT + ": " + tail(node.logText());
                }
                try {
                    Thread.sleep(50); // polling a log file; nothing to be notified by
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for " + node.nodeId() + " to start", e);
                }
            }
        }
        return null;
    }

    private static String tail(String log) {
        return log.length() <= 2_000 ? log : "..." + log.substring(log.length() - 2_000);
    }

    /**
     * Starts one node with exactly {@code arguments} after {@code --node-id} (no ports, seeds or cluster name
     * added), logging to its own file; stopped with the others on {@link #close()}.
     */
    public Node startNode(String nodeId, List<String> arguments) throws IOException {
        Files.createDirectories(logDirectory);
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx128m", "-XX:+UseSerialGC"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString(), "--node-id", nodeId));
        command.addAll(arguments);
        File log = logDirectory.resolve(nodeId + ".log").toFile();
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.to(log));
        builder.environment().remove("ZARIS_PASSWORD");
        builder.environment().remove("ZARIS_CLUSTER_SECRET");
        Node node = new Node(nodeId, builder.start(), log.toPath());
        nodes.add(node);
        commands.put(nodeId, command);
        return node;
    }

    /**
     * Starts one more node that joins the running cluster: {@code first}'s command line (cluster name, seeds,
     * replication factor and extra arguments) with its own id and fresh ports; waits until it has started.
     */
    public Node join(String nodeId, String first) throws IOException {
        List<String> command = new ArrayList<>(commands.get(first));
        command.set(command.indexOf("--node-id") + 1, nodeId);
        command.set(command.indexOf("--port") + 1, Integer.toString(freePort()));
        command.set(command.indexOf("--cluster-port") + 1, Integer.toString(freePort()));
        Files.createDirectories(logDirectory);
        File log = logDirectory.resolve(nodeId + ".log").toFile();
        Node node = new Node(nodeId, new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log)).start(), log.toPath());
        nodes.add(node);
        commands.put(nodeId, command);
        String failure = awaitStarted(List.of(node));
        if (failure != null) {
            throw new IllegalStateException("node " + nodeId + " did not join: " + failure);
        }
        return node;
    }

    /**
     * The client an application gets by default, except that it waits up to 90 s for a first map; it reads no
     * {@code ZARIS_*} variables from the environment.
     */
    public static ZarisClient defaultClient(List<NodeAddress> seeds) {
        // Only the first map may take longer than by default (processes start slowly on a loaded 2-core machine);
        // retries, deadlines and timeouts are the defaults an application gets.
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds).bootstrapTimeout(Duration.ofSeconds(90))
                .environment(Map.of()).build());
    }

    public static int freeTcpPort() throws IOException {
        return freePort();
    }

    /**
     * A fresh cluster refuses writes (retryable UNAVAILABLE) until each owner holds its lease and its
     * replication links are up; waits until one SYNC write to every partition was acknowledged.
     */
    public static void awaitEveryPartitionWritable(io.zaris.client.ZarisClient client) {
        io.zaris.model.ClusterView view = client.clusterView();
        io.zaris.placement.SegmentMapper mapper = new io.zaris.placement.SegmentMapper(view.layout().segmentCount());
        java.util.Set<Integer> pending = new java.util.TreeSet<>();
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            pending.add(p);
        }
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(90)).pollInterval(java.time.Duration.ofMillis(200))
                .until(() -> {
                    for (int i = 0; !pending.isEmpty() && i < 100_000; i++) {
                        String key = "readiness-" + i;
                        int partition = view.layout().partitionOf(mapper.segmentOf(key));
                        if (pending.contains(partition)) {
                            try {
                                client.sync().put(key, new byte[] {1});
                                pending.remove(partition);
                            } catch (RuntimeException notYet) {
                                return false;
                            }
                        }
                    }
                    return pending.isEmpty();
                });
    }

    /** What a run of the jar's {@code admin} subcommand printed, and its exit status. */
    public record AdminRun(int status, String out, String err) {
    }

    /** Runs {@code java -jar <server jar> admin <arguments>} to its end (at most two minutes). */
    public AdminRun admin(String... arguments) throws IOException, InterruptedException {
        Files.createDirectories(logDirectory);
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx64m", "-XX:+UseSerialGC", "-jar", jar.toString(),
                "admin"));
        command.addAll(List.of(arguments));
        Path out = Files.createTempFile(logDirectory, "admin-", ".out");
        Path err = Files.createTempFile(logDirectory, "admin-", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().remove("ZARIS_PASSWORD");
        Process process = builder.start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("admin " + String.join(" ", arguments) + " did not finish in two minutes");
        }
        return new AdminRun(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    public List<Node> nodes() {
        return List.copyOf(nodes);
    }

    public Node node(String nodeId) {
        return nodes.stream().filter(n -> n.nodeId().equals(nodeId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + nodeId));
    }

    /** The command line the node was last started with. */
    public List<String> command(String nodeId) {
        List<String> command = commands.get(nodeId);
        if (command == null) {
            throw new IllegalArgumentException("no node " + nodeId);
        }
        return List.copyOf(command);
    }

    /**
     * Waits until every node answers 200 on {@code /health/ready} (nodes started after {@link #withHttpPorts}): it holds
     * the map, sees a majority, serves its active partitions and has an open, synced replication link to each replica.
     * Before that a SYNC write may wait, up to the ack timeout, for a replica whose link is still opening; a test whose
     * writes must not spend their deadlines on that writes only after this.
     */
    public void awaitEveryNodeReady(Duration atMost) {
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        org.awaitility.Awaitility.await("every node ready").atMost(atMost).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> {
                    for (Node node : nodes()) {
                        java.net.http.HttpRequest ready = java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create("http://127.0.0.1:" + httpPort(node.nodeId()) + "/health/ready"))
                                .timeout(Duration.ofSeconds(2)).GET().build();
                        if (http.send(ready, java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    /** The node's HTTP health port (nodes started after {@link #withHttpPorts}). */
    public int httpPort(String nodeId) {
        List<String> command = command(nodeId);
        int at = command.indexOf("--http-port");
        if (at < 0) {
            throw new IllegalStateException("node " + nodeId + " has no HTTP port; start it after withHttpPorts()");
        }
        return Integer.parseInt(command.get(at + 1));
    }

    /** The server jar every node runs. */
    public Path jar() {
        return jar;
    }

    /** Starts a node that exited again, with its original command line (same ports, empty store), appending to its log. */
    public Node restart(String nodeId) throws IOException {
        return restart(nodeId, UnaryOperator.identity());
    }

    /**
     * Starts a node that exited again with its command line changed by {@code change} (e.g. a JVM option dropped, as
     * an upgraded release would run), appending to its log; later restarts keep the change.
     */
    public Node restart(String nodeId, UnaryOperator<List<String>> change) throws IOException {
        for (int i = 0; i < nodes.size(); i++) {
            Node node = nodes.get(i);
            if (node.nodeId().equals(nodeId)) {
                if (node.process().isAlive()) {
                    throw new IllegalStateException("node " + nodeId + " is still running");
                }
                Files.writeString(node.log(), RESTART_MARKER + "\n", java.nio.file.StandardOpenOption.APPEND);
                commands.put(nodeId, List.copyOf(change.apply(new ArrayList<>(commands.get(nodeId)))));
                Process process = new ProcessBuilder(commands.get(nodeId)).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(node.log().toFile())).start();
                Node restarted = new Node(nodeId, process, node.log());
                nodes.set(i, restarted);
                return restarted;
            }
        }
        throw new IllegalArgumentException("no node " + nodeId);
    }

    @Override
    public void close() {
        for (Node node : nodes) {
            node.process.destroyForcibly();
        }
        for (Node node : nodes) {
            try {
                node.process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        return LoopbackPorts.free();
    }

    /** Partitions that list the node as an owner or as their active node. */
    public static long rolesOf(io.zaris.model.ClusterView view, String nodeId) {
        long roles = 0;
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (view.partitionMap().ownersOf(p).contains(nodeId) || nodeId.equals(view.runtimeMap().get(p).activeNode())) {
                roles++;
            }
        }
        return roles;
    }

    /** One server process and its log. */
    public record Node(String nodeId, Process process, Path log) {

        public String logText() throws IOException {
            return Files.readString(log);
        }

        /** {@code kill -9}: no shutdown hook, no clean leave. */
        public void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }

        /**
         * {@code SIGTERM}, as an orchestrator stops a node, and waits for the exit: a draining node hands its roles
         * over first (the default drain waits up to 30 s; closing the node after it takes a few more).
         */
        public void stopGracefully() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                throw new AssertionError(nodeId + " did not exit within 90 s of SIGTERM");
            }
        }

        /** Sends a POSIX signal (e.g. {@code STOP}, {@code CONT}) to the process. */
        public void signal(String name) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            kill.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
