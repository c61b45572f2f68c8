package io.zaris.chaos;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import io.zaris.server.ServerProcesses;
import io.zaris.time.TimeSource;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A chaos certification run: N standalone server processes (on loopback, or one per host of a network test bed
 * with {@code --network bed}), a workload whose clients record every operation in a history, a nemesis injecting
 * real faults, then healing, waiting for every partition to be {@code HEALTHY}, reading every written key back,
 * fetching every owner's digest of every segment, and judging both with the {@link Checker}. Run
 * with {@code chaos/run}; a short run is part of the test suite ({@code ChaosHarnessIntegrationTests}).
 */
public final class ChaosRun {

    private static final Logger log = LoggerFactory.getLogger(ChaosRun.class);
    /** How long healing may take before the run is declared failed. */
    static final Duration HEAL_TIMEOUT = Duration.ofMinutes(3);
    /**
     * How long the copies of a partition may take to agree once the cluster is healthy and the final reads are
     * done: ASYNC replicas trail by the changes in flight. After it, the last digests fetched are judged.
     */
    static final Duration REPLICA_CONVERGENCE_TIMEOUT = Duration.ofSeconds(30);
    /** A node's log line for a membership view; group 1 is its member count. */
    /** Segments of the run's cluster (its {@code --segments}). */
    static final int SEGMENTS = 512;
    /**
     * Each node's heap. Its default budget (40 %, about 205 MB) holds what a 30-minute run writes (the sets only grow: a
     * 128 MB heap's 51 MB budget filled 14 minutes into a run). A run certifies durability, not eviction, so nodes run
     * with {@code noeviction}: a node over its budget refuses writes, which the history records as refused, instead of
     * evicting acknowledged data that the checker would report as lost (seed 120422 on a 128 MB heap: 6,824 "lost"
     * set adds, all evicted).
     */
    static final String NODE_HEAP = "-Xmx512m";
    private static final java.util.regex.Pattern VIEW_LINE = java.util.regex.Pattern.compile("membership view \\S+ with (\\d+) member");

    private ChaosRun() {
    }

    public static void main(String[] args) throws Exception {
        ChaosOptions options = ChaosOptions.parse(args);
        ChaosReport report = run(options);
        System.out.println(report.markdown());
        System.out.println("report written to " + options.outputDirectory().toAbsolutePath());
        System.exit(report.passed() ? 0 : 1);
    }

    static ChaosReport run(ChaosOptions options) throws Exception {
        return run(options, List.of());
    }

    /**
     * A run whose nodes' JVMs get {@code nodeJvmOptions} too: how a test arms a node's test-only fault switch to show
     * the checker fails the run. Loopback only.
     */
    static ChaosReport run(ChaosOptions options, List<String> nodeJvmOptions) throws Exception {
        if (options.network() == ChaosOptions.Network.BED && !nodeJvmOptions.isEmpty()) {
            throw new IllegalArgumentException("extra node JVM options are for loopback runs, not the bed: " + nodeJvmOptions);
        }
        List<String> serverArguments = List.of("--partitions", "32", "--segments", String.valueOf(SEGMENTS),
                "--ack-mode", options.ackMode().name().toLowerCase(java.util.Locale.ROOT),
                "--escalation-timeout", options.escalationTimeout().toMillis() + "ms",
                "--heal-cooldown", "2s", "--join-settle-delay", "3s", "--eviction-policy", "noeviction");
        Path logs = options.outputDirectory().resolve("logs");
        try (ChaosCluster processes = options.network() == ChaosOptions.Network.BED
                ? new BedChaosCluster(logs, options.nodes(), options.replicationFactor(), serverArguments)
                : new LoopbackChaosCluster(logs, options.nodes(), options.replicationFactor(), serverArguments,
                        Stream.concat(Stream.of(NODE_HEAP), nodeJvmOptions.stream()).toList())) {
            List<NodeAddress> seeds = processes.start();
            HistoryRecorder recorder = new HistoryRecorder(TimeSource.system());
            // The nemesis' and the healing wait's own client: default options, not part of the history.
            try (ZarisClient control = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .password(processes.password()).clientName("chaos-control").environment(Map.of()).build())) {
                Workload workload = new Workload(seeds, processes.password(), recorder, options.ackMode(), options.seed());
                Nemesis nemesis = new Nemesis(processes, control, options);
                try (ChaosWatchers watchers = ChaosWatchers.start(Workload.clientCount() + 1, seeds,
                        processes.password(), recorder)) {
                    long start = recorder.now();
                    workload.start();
                    nemesis.start();
                    log.info("chaos: running for {} with {} nodes, RF {}, {}, seed {}", options.duration(), options.nodes(),
                            options.replicationFactor(), options.ackMode(), options.seed());
                    Thread.sleep(options.duration().toMillis());
                    List<Nemesis.Fault> faults = nemesis.heal();
                    workload.stop();
                    long end = recorder.now();
                    awaitHealthy(control, processes, options.nodes(), options.replicationFactor());
                    String clients;
                    try (ChaosClient reader = ChaosClient.connect(Workload.clientCount(), seeds,
                            processes.password(), recorder)) {
                        FinalReads.readAll(reader, Workload.keys());
                        workload.readCollectionsBack(reader);
                        clients = describeClients(reader.options(), workload.collections());
                    }
                    watchers.catchUpAndClose(options.ackMode(), SEGMENTS);
                    ReplicaCopies copies = ReplicaDigests.awaitConverged(control, processes.password(),
                            REPLICA_CONVERGENCE_TIMEOUT);
                    History history = recorder.history(options.ackMode(), SEGMENTS);
                    ChaosReport report = new ChaosReport(options, TimeUnit.NANOSECONDS.toSeconds(end - start),
                            processes.describe(), faultsByKind(faults), nemesis.deferrals(), clients,
                            Checker.check(history, copies),
                            Timeline.of(history.ops(), faults, start, end));
                    report.writeTo(options.outputDirectory());
                    return report;
                }
            }
        }
    }

    /** How the report describes the clients: how many, where they run, and their options. */
    static String describeClients(ZarisClientOptions options, boolean collections) {
        return (Workload.clientCount() - (collections ? 0 : Workload.COLLECTION_CLIENTS) + 1 + ChaosWatchers.WATCHERS)
                + " separate client instances in the workload's "
                + "JVM (" + Workload.WRITERS + " writers, " + Workload.READERS + " readers, " + Workload.CAS_THREADS
                + " CAS, " + Workload.COUNTER_THREADS + " counters, " + Workload.NEAR_READERS + " near-cache readers "
                + "with a near cache of the default bounds, " + ChaosWatchers.WATCHERS + " key watchers of the prefix '"
                + ChaosWatchers.PREFIX + "', 1 for the reads after healing" + (collections ? ", "
                + Workload.SET_ADDERS + " set adders, 1 list producer and 1 list consumer; the counter threads also "
                + "increment hash fields and sorted-set scores, the readers also read those and the sets"
                : "; the counter threads also increment hash fields, the readers also read them")
                + "), each with "
                + ChaosClient.describe(options);
    }

    private static Map<String, Long> faultsByKind(List<Nemesis.Fault> faults) {
        Map<String, Long> byKind = new TreeMap<>();
        faults.forEach(fault -> byKind.merge(fault.kind().name(), 1L, Long::sum));
        return byKind;
    }

    /**
     * Whether the process runs, adopted a map since its last start, and its latest membership view holds at
     * least {@code members} nodes (read from its log).
     */
    static boolean hasJoined(ServerProcesses.Node node, int members) throws IOException {
        String text = node.logText();
        String sinceStart = text.substring(Math.max(0, text.lastIndexOf(ServerProcesses.RESTART_MARKER)));
        java.util.regex.Matcher views = VIEW_LINE.matcher(sinceStart);
        int lastViewSize = 0;
        while (views.find()) {
            lastViewSize = Integer.parseInt(views.group(1));
        }
        return node.process().isAlive() && sinceStart.contains("adopted") && lastViewSize >= members;
    }

    /**
     * Waits until every process is back in one membership view holding every node, has adopted a map since
     * its last start, every partition is HEALTHY, and the map is the one the leader's planner makes for every node: no
     * rebalance is pending or under way. A rebalance begins a join-settle delay after a node returns and moves a
     * partition by adding its new owners first, so without that the copies compared after healing could be those of
     * a map in motion, with more owners than the replication factor.
     */
    private static void awaitHealthy(ZarisClient client, ChaosCluster processes, int nodes, int replicationFactor)
            throws Exception {
        long deadline = System.nanoTime() + HEAL_TIMEOUT.toNanos();
        String unhealthy = "";
        while (System.nanoTime() < deadline) {
            ClusterView view = client.refreshMap().join();
            unhealthy = unhealthyPartitions(view) + unplannedPartitions(view, processes, replicationFactor);
            boolean joined = true;
            for (ServerProcesses.Node node : processes.nodes()) {
                joined &= hasJoined(node, nodes);
            }
            if (unhealthy.isEmpty() && joined) {
                return;
            }
            Thread.sleep(500); // polling the cluster's own progress
        }
        throw new IllegalStateException("the cluster did not return to HEALTHY with every node joined within " + HEAL_TIMEOUT
                + (unhealthy.isEmpty() ? "" : "; partitions not HEALTHY, or not yet where the planner puts them: " + unhealthy));
    }

    /**
     * The partitions whose owners differ from what the planner plans for every node of the run, as
     * " to move: p [owners] -> [planned]"; "" if none.
     */
    static String unplannedPartitions(ClusterView view, ChaosCluster processes, int replicationFactor) {
        List<String> nodes = processes.nodes().stream().map(ServerProcesses.Node::nodeId).toList();
        PartitionMap map = view.partitionMap();
        PartitionMap planned = PartitionPlanner.plan(nodes, map.partitionCount(), replicationFactor, map);
        StringBuilder out = new StringBuilder();
        for (int p = 0; p < map.partitionCount(); p++) {
            if (!map.ownersOf(p).equals(planned.ownersOf(p))) {
                out.append(out.length() == 0 ? " to move: " : ", ").append(p).append(' ').append(map.ownersOf(p))
                        .append(" -> ").append(planned.ownersOf(p));
            }
        }
        return out.toString();
    }

    /** The partitions of the view that are not HEALTHY, each with its health, active, epoch and owners; "" if none. */
    static String unhealthyPartitions(ClusterView view) {
        StringBuilder out = new StringBuilder();
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            PartitionRuntime runtime = view.runtimeMap().get(p);
            if (runtime.health() != PartitionHealth.HEALTHY) {
                out.append(out.length() == 0 ? "" : ", ").append(p).append(' ').append(runtime.health()).append(" on ")
                        .append(runtime.activeNode()).append(" (epoch ").append(runtime.epoch()).append(", owners ")
                        .append(view.partitionMap().ownersOf(p)).append(')');
            }
        }
        return out.toString();
    }
}
