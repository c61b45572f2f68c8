package io.zaris.bench.peers;

import io.zaris.model.NodeAddress;
import io.zaris.store.MemoryOptions;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Three standalone Zaris server processes from the server jar, replication factor 2, in one ack mode.
 * Each node runs with {@link #HEAP}, like the Hazelcast members, so heap readings compare, and with the
 * collector the README recommends for a node ({@link #COLLECTOR}).
 *
 * <p>{@code bench/run} tunes the servers for throughput ({@link #start}); the failover command starts them with
 * every server option at its default but the ack mode ({@link #startWithServerDefaults}), since what it measures
 * is what a user who changed nothing sees.
 */
final class ZarisServerCluster implements PeerCluster {

    private static final String HEAP_SIZE = "1536m";
    static final String HEAP = "-Xmx" + HEAP_SIZE;
    /**
     * The heap committed whole at start ({@code -Xms} equal to {@code -Xmx}), its pages touched before the node
     * serves, and backed by transparent huge pages where the kernel grants them on request: what the README
     * recommends for a node, and what the Hazelcast members get too. Without them, the kernel zeroed pages for
     * the collector whenever the heap or its young generation grew again after a resize (right after a bulk load
     * the collector threads' kernel time, nearly all {@code clear_page_erms}, was 17 % of node samples), and 700 MB of values read at random through 4 KiB
     * pages miss the TLB. Focused runs on 2 cores (4 s per row), PUT of 10 KiB at 16 in flight: 29.7k and 30.0k
     * ops/s without, 34.3k–43.0k in four runs with (p99.9 30 ms against 8–10 ms); at 128 in flight 46.0k and 43.9k
     * against 50.9k–64.1k (p99 20 ms against 8–10 ms); GET of 10 KiB at 128 118k and 109k against 131k–150k; the
     * 100 B rows moved within the noise. The fixed, touched heap without huge pages gained less (PUT of 10 KiB at
     * 128: 40.6k and 56.3k).
     */
    static final List<String> HEAP_PAGES = List.of("-Xms" + HEAP_SIZE, "-XX:+AlwaysPreTouch", "-XX:+UseTransparentHugePages");
    /**
     * The collector the README recommends for a node: a node's heap is mostly values that live until they are
     * replaced, and under writes G1 spends its time in mixed collections and remembered-set upkeep. Interleaved
     * focused runs on 2 cores (4 s per row, two rounds) gave PUT of 10 KiB at 16 in flight 23.0k / 22.4k ops/s
     * with the parallel collector against 9.2k / 7.5k with G1 (p99 2.2 ms against 10 ms), at 128 in flight
     * 38.3k / 31.4k against 25.2k / 20.8k, and PUT of 100 B at 128 112k / 108k against 95k / 95k; GET rows
     * moved within the noise.
     */
    static final String COLLECTOR = "-XX:+UseParallelGC";
    /**
     * How the report describes the native client's connections: besides the pipelined connection, blocking
     * single-key calls use direct sockets, and every 1-in-flight row (and so the GET p50 target) runs over them.
     */
    static final String CLIENT = "native client with default options: one pipelined connection per node, plus "
            + io.zaris.client.ZarisClientOptions.DEFAULT_DIRECT_READ_CONNECTIONS_PER_NODE + " direct blocking sockets per"
            + " node that serve blocking single-key GET, PUT and DELETE (every 1-in-flight row runs over them; 16 and"
            + " 128 in flight use the pipelined connection)";
    /** How the report names {@link #HEAP_PAGES}. */
    static final String HEAP_PAGES_DESCRIPTION = " fixed and pre-touched, transparent huge pages";

    /**
     * The heap options of a JVM node (a Zaris node or a Hazelcast member), and how the report names them.
     */
    record Heap(List<String> options, String description) {

        /** What {@code bench/run} gives every JVM node: {@link #HEAP} with {@link #HEAP_PAGES}. */
        static final Heap TUNED = new Heap(Stream.concat(Stream.of(HEAP), HEAP_PAGES.stream()).toList(),
                HEAP + HEAP_PAGES_DESCRIPTION);

        Heap {
            options = List.copyOf(options);
        }
    }
    /**
     * The memory budget: the default (40 % of the heap) would evict part of the 10 KiB key set (about
     * 680 MB of copies per node beside the memory row's entries), and the benchmark measures serving, not
     * eviction; Hazelcast, with the same heap, keeps everything.
     */
    static final String MEMORY_BUDGET = "75%";
    /**
     * One event-loop thread per node, as each Redis process serves from one thread: the three nodes share
     * the machine's cores, and more loops than cores only add hand-overs between threads.
     */
    static final String IO_THREADS = System.getProperty("zaris.bench.io-threads", "1");
    /** Extra JVM options for every node, e.g. a flight recording while profiling one workload. */
    static final String NODE_OPTIONS_VARIABLE = "ZARIS_BENCH_NODE_OPTS";
    /** Extra server arguments for every node (e.g. {@code --async-flush-delay 2ms}), after the benchmark's own. */
    static final String NODE_ARGUMENTS_VARIABLE = "ZARIS_BENCH_NODE_ARGS";
    private static final int NODES = 3;
    /** What the benchmark runs Zaris with unless a variant keeps one copy: each entry on two nodes. */
    static final int DEFAULT_REPLICATION_FACTOR = 2;

    private final String ackMode;
    private final int replicationFactor;
    /** Whether the servers run with their default options (see {@link #startWithServerDefaults}). */
    private final boolean serverDefaults;
    private final Heap heap;
    private final LocalProcesses processes;
    private final List<Process> nodes = new ArrayList<>();
    private final List<NodeAddress> dataAddresses = new ArrayList<>();
    /** Each node's HTTP port ({@code /metrics}), in the order of {@link #nodes}; none with the server defaults. */
    private final List<Integer> httpPorts = new ArrayList<>();

    private ZarisServerCluster(String ackMode, int replicationFactor, boolean serverDefaults, Heap heap, Path logDirectory)
            throws IOException {
        this.ackMode = ackMode;
        this.replicationFactor = replicationFactor;
        this.serverDefaults = serverDefaults;
        this.heap = heap;
        this.processes = new LocalProcesses(logDirectory);
    }

    /**
     * @param replicationFactor copies of each entry: {@link #DEFAULT_REPLICATION_FACTOR}, or 1 for the variant
     *                          that keeps what a Redis Cluster without replicas keeps
     */
    static ZarisServerCluster start(String ackMode, int replicationFactor, Path serverJar, Path logDirectory)
            throws IOException {
        return start(new ZarisServerCluster(ackMode, replicationFactor, false, Heap.TUNED, logDirectory), serverJar);
    }

    /**
     * Nodes with the given heap and the same collector, and every server option at its default except the ack mode
     * (so replication factor {@link #DEFAULT_REPLICATION_FACTOR}, the default failure detection, escalation and heal
     * timings, memory budget, I/O threads and RESP port) and {@code --drain-on-stop 0}, which only spares the final
     * shutdown the default drain.
     */
    static ZarisServerCluster startWithServerDefaults(String ackMode, Heap heap, Path serverJar, Path logDirectory)
            throws IOException {
        return start(new ZarisServerCluster(ackMode, DEFAULT_REPLICATION_FACTOR, true, heap, logDirectory), serverJar);
    }

    private static ZarisServerCluster start(ZarisServerCluster cluster, Path serverJar) throws IOException {
        if (!Files.isRegularFile(serverJar)) {
            throw new IllegalStateException("no Zaris server jar at " + serverJar + " (bench/run and bench/failover build it)");
        }
        try {
            cluster.startNodes(serverJar);
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startNodes(Path serverJar) throws IOException {
        List<int[]> ports = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            ports.add(new int[] {LocalProcesses.freePort(), LocalProcesses.freePort(), LocalProcesses.freePort()});
        }
        String seeds = ports.stream().map(p -> "127.0.0.1:" + p[1]).collect(Collectors.joining(","));
        String clusterName = "zaris-bench-" + UUID.randomUUID();
        for (int i = 0; i < NODES; i++) {
            String nodeId = nodeId(i);
            List<String> command = new ArrayList<>(List.of(LocalProcesses.javaBinary()));
            command.addAll(heap.options());
            List<String> extra = splitVariable(NODE_OPTIONS_VARIABLE, nodeId);
            if (extra.stream().noneMatch(o -> o.startsWith("-XX:+Use") && o.endsWith("GC"))) {
                command.add(COLLECTOR); // unless the extra options choose another collector
            }
            command.addAll(extra);
            command.addAll(List.of("-jar", serverJar.toString(), "--node-id", nodeId,
                    "--port", Integer.toString(ports.get(i)[0]), "--cluster-port", Integer.toString(ports.get(i)[1]),
                    "--seeds", seeds, "--cluster-name", clusterName, "--ack-mode", ackMode, "--drain-on-stop", "0"));
            if (!serverDefaults) {
                command.addAll(List.of("--replication-factor", Integer.toString(replicationFactor),
                        "--resp-port", "off", "--max-memory", MEMORY_BUDGET, "--io-threads", IO_THREADS,
                        "--http-port", Integer.toString(ports.get(i)[2])));
                httpPorts.add(ports.get(i)[2]);
            }
            command.addAll(splitVariable(NODE_ARGUMENTS_VARIABLE, nodeId));
            nodes.add(processes.start("zaris-" + ackMode + "-" + nodeId, command));
            dataAddresses.add(new NodeAddress("127.0.0.1", ports.get(i)[0]));
        }
    }

    /** The id of the node started {@code index}-th (from 0), as the cluster and its maps name it. */
    static String nodeId(int index) {
        return "n" + (index + 1);
    }

    int nodeCount() {
        return nodes.size();
    }

    /** Kills the node started {@code index}-th (from 0) with SIGKILL, as {@code kill -9} does. */
    void kill(int index) throws InterruptedException {
        LocalProcesses.kill(nodes.get(index));
    }

    /** The environment variable's value split at spaces, with {@code {node}} replaced by the node's id. */
    private static List<String> splitVariable(String variable, String nodeId) {
        String options = System.getenv(variable);
        if (options == null || options.isBlank()) {
            return List.of();
        }
        return java.util.Arrays.stream(options.trim().split("\\s+")).map(o -> o.replace("{node}", nodeId)).toList();
    }

    @Override
    public Duration serverCpuTime() {
        return processes.cpuTime();
    }

    @Override
    public ThreadCpu.Housekeeping serverHousekeeping() {
        return processes.housekeeping();
    }

    @Override
    public String system() {
        String name = "Zaris " + ackMode.toUpperCase(java.util.Locale.ROOT);
        return replicationFactor == 1 ? name + ", 1 copy" : name;
    }

    @Override
    public int copiesPerEntry() {
        return replicationFactor;
    }

    /**
     * The one-copy variant measures only the rows its bounds are checked on (16 and 128 in flight): it is there
     * to compare like with like against the Redis Cluster without replicas, not to be a product row of its own.
     */
    @Override
    public boolean measures(Workload workload) {
        return replicationFactor != 1 || workload.inFlight() > 1;
    }

    @Override
    public String configuration() {
        if (serverDefaults) {
            return NODES + " server processes (" + heap.description() + ", " + COLLECTOR.substring("-XX:+Use".length())
                    + "), every server option at its default (replication factor " + replicationFactor
                    + ") but the ack mode, " + ackMode + ", and --drain-on-stop 0 for a quick final shutdown; " + CLIENT;
        }
        return NODES + " server processes (" + heap.description() + ", " + COLLECTOR.substring("-XX:+Use".length())
                + ", memory budget " + MEMORY_BUDGET + " of the heap, "
                + IO_THREADS + " I/O thread each, HTTP endpoint on for the memory row's charged bytes), replication factor "
                + replicationFactor + ", ack mode " + ackMode + "; " + CLIENT;
    }

    List<NodeAddress> dataAddresses() {
        return List.copyOf(dataAddresses);
    }

    /** The nodes' data addresses as {@code host:port}. */
    List<String> seeds() {
        return dataAddresses.stream().map(a -> a.host() + ":" + a.port()).toList();
    }

    @Override
    public KvClient connect() {
        return new ZarisKvClient(dataAddresses);
    }

    @Override
    public MemoryReading memory(KvClient client) throws IOException, InterruptedException {
        List<Long> heaps = new ArrayList<>();
        List<Long> resident = new ArrayList<>();
        for (Process node : nodes) {
            heaps.add(HeapAfterGc.bytes(node.pid()));
            resident.add(ResidentMemory.bytes(node.pid()));
        }
        long charged = httpPorts.isEmpty() ? -1 : 0;
        HttpClient http = HttpClient.newHttpClient();
        for (int port : httpPorts) {
            charged += ChargedMemory.bytes(http, port);
        }
        return new MemoryReading(heaps, resident, charged);
    }

    /** A node's default memory budget: the rest of the heap is its headroom (these nodes run at {@link #MEMORY_BUDGET}). */
    @Override
    public RecommendedOccupancy recommendedOccupancy() {
        return new RecommendedOccupancy(MemoryOptions.DEFAULT_HEAP_FRACTION, "the heap",
                "Zaris' default memory budget (docs/memory.md: the rest of the heap is headroom for garbage, buffers "
                        + "and replication); the benchmark's nodes run with a budget of " + MEMORY_BUDGET);
    }

    @Override
    public void close() {
        processes.close();
    }
}
