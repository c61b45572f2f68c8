package io.zaris.test;

import io.zaris.model.NodeAddress;
import io.zaris.server.ZarisServerMain;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A {@link ZarisCluster} of standalone server processes on loopback, one JVM per node, started from the server
 * jar with the server's own command line. Each node gets a data, a membership and an HTTP port, and a log file
 * under {@value #LOG_DIRECTORY_PROPERTY} (default {@code target/zaris-test-servers}); the cluster name is unique,
 * so clusters of concurrent runs never merge. A start returns once every node answers {@code /health/ready}.
 *
 * <p>Threads: every method that starts or stops a process holds this object's lock, so a test that stops and
 * restarts a node never races the shutdown hook that closes the cluster. The ports are fixed at the start, so a
 * restarted node comes back at the address its peers and clients know.
 */
public final class ZarisServerProcesses implements StartedCluster {

    /** System property naming the server jar when {@link ZarisCluster#serverJar()} is empty. */
    public static final String SERVER_JAR_PROPERTY = "zaris.test.server-jar";
    /** System property naming the directory of the nodes' log files. */
    public static final String LOG_DIRECTORY_PROPERTY = "zaris.test.server-logs";

    private static final String MAIN_CLASS = ZarisServerMain.class.getName();
    private static final String HOST = "127.0.0.1";
    /** How long a start (or a restart) waits for the nodes to be ready. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    /** How long a stop waits for a node to leave after SIGTERM before it is killed. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    /** Ports handed out by this JVM, so two clusters of one run never get the same one. */
    private static final Set<Integer> PICKED_PORTS = Collections.synchronizedSet(new HashSet<>());

    /**
     * How far each node's RESP port lies from its data port when {@link ZarisCluster#resp()} is on: every node of a
     * cluster must use one offset (it is how a node names its peers' RESP ports in MOVED and CLUSTER SLOTS).
     */
    static final int RESP_PORT_OFFSET = 1000;

    private final List<String> launcher;
    private final List<NodePorts> ports;
    private final boolean resp;
    private final List<String> clusterOptions;
    private final Path logDirectory;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    /** Guarded by {@code this}: the process of each node, {@code null} while it is stopped. */
    private final List<Process> processes;

    private record NodePorts(int data, int cluster, int http) {
    }

    private ZarisServerProcesses(List<String> launcher, List<NodePorts> ports, boolean resp, List<String> clusterOptions,
                                 Path logDirectory) {
        this.launcher = List.copyOf(launcher);
        this.ports = List.copyOf(ports);
        this.resp = resp;
        this.clusterOptions = List.copyOf(clusterOptions);
        this.logDirectory = logDirectory;
        this.processes = new ArrayList<>(Collections.nCopies(ports.size(), null));
    }

    /** Starts the nodes {@code spec} describes and waits until each is ready; on failure stops those started. */
    static ZarisServerProcesses start(ZarisClusterSpec spec) {
        List<NodePorts> ports = IntStream.range(0, spec.nodes())
                .mapToObj(i -> new NodePorts(spec.resp() ? freePort(RESP_PORT_OFFSET) : freePort(0), freePort(0), freePort(0)))
                .toList();
        String clusterName = "zaris-test-" + UUID.randomUUID();
        List<String> options = List.of("--seeds", ports.stream().map(p -> HOST + ":" + p.cluster())
                        .collect(Collectors.joining(",")),
                "--cluster-name", clusterName, "--replication-factor", Integer.toString(spec.replicationFactor()),
                "--segments", Integer.toString(spec.segments()), "--partitions", Integer.toString(spec.partitions()),
                "--join-settle-delay", "1s", "--drain-on-stop", "0");
        Path logs = Path.of(System.getProperty(LOG_DIRECTORY_PROPERTY, "target/zaris-test-servers")).resolve(clusterName);
        List<String> launcher = launcher(spec.serverJar(), System.getProperty(SERVER_JAR_PROPERTY, ""),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), System.getProperty("java.class.path"));
        ZarisServerProcesses cluster = new ZarisServerProcesses(launcher, ports, spec.resp(), options, logs);
        try {
            Files.createDirectories(logs);
            synchronized (cluster) {
                for (int i = 0; i < ports.size(); i++) {
                    cluster.launch(i);
                }
                for (int i = 0; i < ports.size(); i++) {
                    cluster.awaitReady(i);
                }
            }
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e instanceof IOException io ? new UncheckedIOException("cannot start the Zaris server processes", io)
                    : (RuntimeException) e;
        }
    }

    /**
     * How to run the server: {@code java -jar <jar>} with the annotation's jar, else the property's, else its main
     * class on {@code classPath} (the test JVM's).
     */
    static List<String> launcher(String annotatedJar, String propertyJar, String java, String classPath) {
        String jar = annotatedJar.isEmpty() ? propertyJar : annotatedJar;
        List<String> launcher = new ArrayList<>(List.of(java, "-Xmx192m", "-XX:+UseSerialGC"));
        if (jar.isEmpty()) {
            launcher.addAll(List.of("-cp", classPath, MAIN_CLASS));
        } else {
            if (!Files.isRegularFile(Path.of(jar))) {
                throw new IllegalStateException("the Zaris server jar '" + jar + "' (from @ZarisCluster(serverJar) or"
                        + " -D" + SERVER_JAR_PROPERTY + ") is not a file; build it with 'mvn -pl zaris-engine package'");
            }
            launcher.addAll(List.of("-jar", jar));
        }
        return launcher;
    }

    /** The data addresses of the nodes, in node order ({@code n1} first). */
    @Override
    public List<NodeAddress> seeds() {
        return ports.stream().map(p -> new NodeAddress(HOST, p.data())).toList();
    }

    /**
     * The RESP addresses of the nodes, in node order, for a Redis Cluster client's seeds.
     *
     * @throws IllegalStateException when the cluster was started without {@link ZarisCluster#resp()}
     */
    public List<NodeAddress> respSeeds() {
        if (!resp) {
            throw new IllegalStateException("this cluster runs no RESP listener: annotate the test with"
                    + " @ZarisCluster(resp = true)");
        }
        return ports.stream().map(p -> new NodeAddress(HOST, p.data() + RESP_PORT_OFFSET)).toList();
    }

    /** The number of nodes, running or stopped. */
    public int size() {
        return ports.size();
    }

    /** The node id of the node at {@code index}: {@code n1} for 0. */
    public String nodeId(int index) {
        return "n" + (checked(index) + 1);
    }

    /** The log file (standard output and error) of the node at {@code index}. */
    public Path logFile(int index) {
        return logDirectory.resolve(nodeId(index) + ".log");
    }

    /** Whether the node at {@code index} runs. */
    public synchronized boolean isRunning(int index) {
        Process process = processes.get(checked(index));
        return process != null && process.isAlive();
    }

    /**
     * Stops the node at {@code index} with SIGTERM (it leaves at once: {@code --drain-on-stop 0}) and waits until
     * its process has ended; a node that does not end in 20 s is killed.
     */
    public synchronized void stop(int index) {
        Process process = processes.set(checked(index), null);
        if (process != null) {
            end(process);
        }
    }

    /**
     * Kills the node at {@code index} with SIGKILL ({@code kill -9}: no leave, no flush, its peers find out by
     * missing it) and waits until its process has ended. {@link #start(int)} brings it back, empty.
     */
    public synchronized void kill(int index) {
        Process process = processes.set(checked(index), null);
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException(nodeId(index) + " did not end within " + STOP_TIMEOUT.toSeconds()
                        + " s of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + nodeId(index), e);
        }
    }

    /** Starts the stopped node at {@code index} again, on the same ports, and waits until it is ready. */
    public synchronized void start(int index) {
        if (isRunning(index)) {
            throw new IllegalStateException(nodeId(index) + " is running; stop it first");
        }
        try {
            launch(index);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + nodeId(index), e);
        }
        awaitReady(index);
    }

    @Override
    public Object handle() {
        return this;
    }

    /** Stops every node. */
    @Override
    public synchronized void close() {
        for (int i = 0; i < processes.size(); i++) {
            stop(i);
        }
    }

    @Override
    public String toString() {
        return "ZarisServerProcesses" + seeds();
    }

    /** The command line of the node at {@code index}: the launcher, its addresses and the cluster's options. */
    List<String> command(int index) {
        NodePorts own = ports.get(index);
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of("--node-id", nodeId(index), "--host", HOST, "--port", Integer.toString(own.data()),
                "--cluster-host", HOST, "--cluster-port", Integer.toString(own.cluster()),
                "--http-port", Integer.toString(own.http()),
                "--resp-port", resp ? Integer.toString(own.data() + RESP_PORT_OFFSET) : "off"));
        command.addAll(clusterOptions);
        return command;
    }

    private void launch(int index) throws IOException {
        Process process = new ProcessBuilder(command(index)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile(index).toFile())).start();
        processes.set(index, process);
    }

    /** Polls the node's {@code /health/ready} until it answers 200; fails if the process ends or time runs out. */
    private void awaitReady(int index) {
        URI ready = URI.create("http://" + HOST + ":" + ports.get(index).http() + "/health/ready");
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            Process process = processes.get(index);
            if (process == null || !process.isAlive()) {
                throw new IllegalStateException(nodeId(index) + " ended before it was ready; see " + logFile(index)
                        + ":\n" + tail(logFile(index)));
            }
            try {
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2))
                        .build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return;
                }
                last = answer.statusCode() + " " + answer.body().strip();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + nodeId(index), e);
            }
            pause();
        }
        throw new IllegalStateException(nodeId(index) + " was not ready within " + READY_TIMEOUT.toSeconds() + " s ("
                + ready + " last answered: " + last + "); see " + logFile(index));
    }

    private static void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a Zaris node", e);
        }
    }

    private static void end(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The last lines of a node's log, for a failure message. */
    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(cannot read it: " + e + ")";
        }
    }

    private int checked(int index) {
        if (index < 0 || index >= ports.size()) {
            throw new IndexOutOfBoundsException("node index " + index + " of a cluster of " + ports.size());
        }
        return index;
    }

    /**
     * A bindable loopback port below 32768, where Linux never picks the local end of an outgoing connection (a
     * port from {@code bind(0)} could be taken that way before the server process binds it); with a
     * {@code companionOffset} above 0, the port that far above it is bindable and below 32768 too (a node's RESP
     * port), and both are taken.
     */
    private static int freePort(int companionOffset) {
        for (int attempt = 0; attempt < 500; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(10_000, 32_768 - companionOffset);
            if (bindable(port) && (companionOffset == 0 || bindable(port + companionOffset))) {
                synchronized (PICKED_PORTS) {
                    if (!PICKED_PORTS.contains(port) && !PICKED_PORTS.contains(port + companionOffset)) {
                        PICKED_PORTS.add(port);
                        PICKED_PORTS.add(port + companionOffset);
                        return port;
                    }
                }
            }
        }
        throw new IllegalStateException("no free loopback port below 32768 after 500 tries");
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
