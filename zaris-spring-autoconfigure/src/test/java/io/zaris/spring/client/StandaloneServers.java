package io.zaris.spring.client;

import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.placement.SegmentMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Standalone Zaris server processes on loopback, started from the engine's server jar (system property
 * {@code zaris.server.jar}, set by the build), each logging to its own file. Ports are picked free; the
 * cluster name is unique, so concurrent runs never merge. {@link #close()} kills every process.
 */
final class StandaloneServers implements AutoCloseable {

    private static final Set<Integer> pickedPorts = ConcurrentHashMap.newKeySet();

    private final Path jar;
    private final Path logDirectory;
    private final List<Process> processes = new ArrayList<>();

    StandaloneServers(Path logDirectory) {
        String jarProperty = System.getProperty("zaris.server.jar");
        if (jarProperty == null || !Files.isRegularFile(Path.of(jarProperty))) {
            throw new IllegalStateException("system property zaris.server.jar must name the engine's built server jar,"
                    + " was " + jarProperty + " (run through 'mvn verify' with the engine in the reactor)");
        }
        this.jar = Path.of(jarProperty);
        this.logDirectory = logDirectory;
    }

    /**
     * Starts nodes n1..n{count} forming one cluster with the server's own defaults (replication factor, ack
     * mode, partitions, eviction delay...); returns their data addresses as host:port seeds.
     */
    List<String> start(int count) throws IOException {
        return start(count, List.of());
    }

    /** Starts nodes n1..n{count} forming one cluster; returns their data addresses as host:port seeds. */
    List<String> start(int count, int replicationFactor, int partitions, int segments) throws IOException {
        return start(count, List.of("--replication-factor", Integer.toString(replicationFactor),
                "--partitions", Integer.toString(partitions), "--segments", Integer.toString(segments)));
    }

    /**
     * Waits until a write to every partition is acknowledged: a fresh cluster refuses SYNC writes
     * (retryable UNAVAILABLE) until its replication links are up. Returns the id of the cluster's leader.
     */
    static String awaitEveryPartitionWritable(List<String> seeds, Duration timeout) {
        AtomicReference<String> leader = new AtomicReference<>();
        await().atMost(timeout).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            try (ZarisClient probe = ZarisClient.connect(ZarisClientOptions.builder()
                    .seeds(seeds.stream().map(NodeAddress::parse).toList()).bootstrapTimeout(timeout).build())) {
                ClusterView view = probe.clusterView();
                SegmentMapper segments = new SegmentMapper(view.layout().segmentCount());
                Set<Integer> written = new HashSet<>();
                for (int i = 0; written.size() < view.layout().partitionCount(); i++) {
                    String key = "readiness-" + i;
                    if (written.add(view.layout().partitionOf(segments.segmentOf(key)))) {
                        probe.sync().put(key, "yes".getBytes(StandardCharsets.UTF_8));
                    }
                }
                leader.set(view.leader());
                return view.addresses().size() == seeds.size();
            }
        });
        return leader.get();
    }

    private List<String> start(int count, List<String> clusterOptions) throws IOException {
        List<int[]> ports = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ports.add(new int[] {freePort(), freePort()});
        }
        String clusterSeeds = ports.stream().map(p -> "127.0.0.1:" + p[1]).collect(Collectors.joining(","));
        String clusterName = "zaris-spring-test-" + UUID.randomUUID();
        Files.createDirectories(logDirectory);
        List<String> dataSeeds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String nodeId = "n" + (i + 1);
            List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx128m", "-XX:+UseSerialGC", "-jar",
                    jar.toString(), "--node-id", nodeId, "--host", "127.0.0.1",
                    "--port", Integer.toString(ports.get(i)[0]),
                    "--cluster-host", "127.0.0.1", "--cluster-port", Integer.toString(ports.get(i)[1]),
                    "--seeds", clusterSeeds, "--cluster-name", clusterName, "--resp-port", "off"));
            command.addAll(clusterOptions);
            processes.add(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(logDirectory.resolve(nodeId + ".log").toFile()).start());
            dataSeeds.add("127.0.0.1:" + ports.get(i)[0]);
        }
        return dataSeeds;
    }

    /** {@code kill -9} of node {@code n<index+1>}: no clean leave. */
    void kill(int index) throws InterruptedException {
        Process process = processes.get(index);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
        for (Process process : processes) {
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

    /**
     * A bindable port below 32768, where Linux never picks the local end of an outgoing connection: a port
     * from {@code bind(0)} could be taken that way before the server process binds it.
     */
    private static int freePort() throws IOException {
        for (int attempt = 0; attempt < 500; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(10_000, 32_768);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                if (pickedPorts.add(port)) {
                    return port;
                }
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free loopback port below 32768");
    }
}
