package io.zaris.bench.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The side-by-side benchmark behind {@code bench/run}: starts each system as a 3-node cluster on loopback,
 * alone or beside the other system of its pair ({@link SideBySide}), measures it through its own client (one
 * system at a time: an idle neighbour leaves the cores to the measured one), then writes the Markdown report and
 * checks it against the previous one.
 */
public final class PeerBenchmark {

    private PeerBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("hazelcast.logging.type", "slf4j");
        System.setProperty("java.net.preferIPv4Stack", "true");
        Path root = Path.of(System.getProperty("zaris.repository", ".")).toAbsolutePath().normalize();
        BenchSettings settings;
        try {
            settings = BenchSettings.parse(args, root);
        } catch (IllegalArgumentException e) {
            System.err.println("bench/run: " + e.getMessage());
            System.err.println(BenchSettings.USAGE);
            System.exit(2);
            return;
        }
        Instant started = Instant.now();
        System.out.println(settings.describe());
        BenchResults results = new BenchResults();
        Path work = Files.createDirectories(settings.workDirectory());
        results.systemIds.addAll(settings.systems());
        for (List<String> group : settings.springOnly() ? List.<List<String>>of() : SideBySide.groups(settings.systems())) {
            for (String system : group) {
                if (BenchSettings.MEMORY_ROW_SYSTEMS.contains(system) && settings.memoryEntries() > 0) {
                    // The memory row gets a cluster of its own, stopped before the workloads: its million entries
                    // would otherwise stay resident through every later row, where they take a fifth of a JVM
                    // node's heap (and a heap near full collects far more often) but cost a Redis process nothing.
                    try (PeerCluster cluster = start(system, settings, work.resolve("memory-row"));
                         KvClient client = cluster.connect()) {
                        results.memory.add(new SystemRun(cluster, client, settings).measureMemory());
                        if (settings.memoryOnly()) {
                            results.labels.put(system, cluster.system());
                            results.configurations.put(cluster.system(), cluster.configuration());
                        }
                    }
                }
            }
            if (!settings.memoryOnly()) {
                measureGroup(group, settings, work, results);
            }
        }
        if (settings.springOnly()) {
            for (String system : settings.systems()) {
                try (PeerCluster cluster = start(system, settings, work)) {
                    // Connecting the system's own client waits (with its long bootstrap timeout) until the cluster
                    // serves, which the Spring applications' default start-up timeouts would not.
                    cluster.connect().close();
                    results.labels.put(system, cluster.system());
                    results.configurations.put(cluster.system(), cluster.configuration());
                    measureSpring(system, cluster, settings, results);
                }
            }
        }
        if (settings.spring()) {
            results.spring.addAll(SpringCacheBench.measure(SpringCacheProvider.CAFFEINE, List.of(), settings));
        }
        Duration took = Duration.between(started, Instant.now());
        Path previous = RegressionCheck.latestReport(settings.historyDirectory()).orElse(null);
        List<String> regressions = previous == null ? List.of() : RegressionCheck.compare(results, previous);
        String report = MarkdownReport.render(results, settings, took, previous, regressions);
        Path written = MarkdownReport.write(report, settings.reportDirectory(), LocalDate.now());
        System.out.println();
        System.out.println(report);
        System.out.println("written to " + root.relativize(written));
        if (!regressions.isEmpty()) {
            System.out.println(regressions.size() + " row(s) dropped more than 10 % against " + root.relativize(previous));
        }
    }

    /** Starts the group's clusters, measures their workloads side by side (see {@link SideBySide}), then Spring. */
    private static void measureGroup(List<String> group, BenchSettings settings, Path work, BenchResults results)
            throws IOException, InterruptedException {
        List<PeerCluster> clusters = new ArrayList<>();
        List<KvClient> clients = new ArrayList<>();
        try {
            List<SystemRun> runs = new ArrayList<>();
            for (String system : group) {
                PeerCluster cluster = start(system, settings, work);
                clusters.add(cluster);
                results.labels.put(system, cluster.system());
                results.configurations.put(cluster.system(), cluster.configuration());
                KvClient client = cluster.connect();
                clients.add(client);
                runs.add(new SystemRun(cluster, client, settings));
            }
            SideBySide.measureWorkloads(runs, settings, results);
            for (KvClient client : clients) {
                client.close();
            }
            clients.clear();
            if (settings.spring()) {
                for (int i = 0; i < group.size(); i++) {
                    measureSpring(group.get(i), clusters.get(i), settings, results);
                }
            }
        } finally {
            for (KvClient client : clients) {
                client.close();
            }
            for (PeerCluster cluster : clusters) {
                cluster.close();
            }
        }
    }

    private static PeerCluster start(String system, BenchSettings settings, Path work)
            throws IOException, InterruptedException {
        System.out.println("starting " + system);
        return switch (system) {
            case "zaris-async" -> ZarisServerCluster.start("async", ZarisServerCluster.DEFAULT_REPLICATION_FACTOR,
                    settings.serverJar(), work.resolve(system));
            case "zaris-sync" -> ZarisServerCluster.start("sync", ZarisServerCluster.DEFAULT_REPLICATION_FACTOR,
                    settings.serverJar(), work.resolve(system));
            case "zaris-async-1copy" -> ZarisServerCluster.start("async", 1, settings.serverJar(), work.resolve(system));
            case "redis" -> RedisClusterProcesses.start(work.resolve(system), 0);
            case "redis-replicas" -> RedisClusterProcesses.start(work.resolve(system), 1);
            case "hazelcast" -> HazelcastCluster.start(work.resolve(system));
            default -> throw new IllegalArgumentException(system);
        };
    }

    private static void measureSpring(String system, PeerCluster cluster, BenchSettings settings, BenchResults results)
            throws InterruptedException {
        if (cluster instanceof ZarisServerCluster zaris && system.equals("zaris-async")) {
            results.spring.addAll(SpringCacheBench.measure(SpringCacheProvider.ZARIS, zaris.seeds(), settings));
            results.spring.addAll(SpringCacheBench.measure(SpringCacheProvider.ZARIS_NEAR, zaris.seeds(), settings));
            results.nearClientGets.add(NearClientGetBench.measure(zaris.seeds(), settings));
        } else if (cluster instanceof RedisClusterProcesses redis && !redis.hasReplicas()) {
            results.spring.addAll(SpringCacheBench.measure(SpringCacheProvider.REDIS, redis.hostPorts(), settings));
        }
    }
}
