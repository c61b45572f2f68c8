package io.zaris.bench.peers;

import io.lettuce.core.RedisURI;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Redis Cluster of three masters from the system's {@code redis-server}, formed with
 * {@code redis-cli --cluster create}: without replicas (the reference setup), or with one replica
 * per master, as Redis' cluster tutorial recommends for production and as Zaris (replication factor 2) and
 * Hazelcast (one backup) keep every entry twice. Persistence is off (RDB snapshots and AOF), as for a pure
 * cache; everything else is Redis' default, so replication is asynchronous and reads go to the masters.
 */
final class RedisClusterProcesses implements PeerCluster {

    private static final int MASTERS = 3;
    /** Redis Cluster's bus listens at the client port plus this offset. */
    private static final int BUS_PORT_OFFSET = 10_000;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern USED_MEMORY = Pattern.compile("(?m)^used_memory:(\\d+)");

    private static final Pattern REPLICA_LINK_UP = Pattern.compile("(?m)^master_link_status:up");

    private final LocalProcesses processes;
    private final int replicasPerMaster;
    private final List<Integer> ports = new ArrayList<>();
    /** {@code nodes.get(i)} listens at {@code ports.get(i)}. */
    private final List<Process> nodes = new ArrayList<>();

    private RedisClusterProcesses(Path logDirectory, int replicasPerMaster) throws IOException {
        this.processes = new LocalProcesses(logDirectory);
        this.replicasPerMaster = replicasPerMaster;
    }

    /** @param replicasPerMaster 0 or 1 */
    static RedisClusterProcesses start(Path workDirectory, int replicasPerMaster) throws IOException, InterruptedException {
        RedisClusterProcesses cluster = new RedisClusterProcesses(workDirectory, replicasPerMaster);
        try {
            cluster.startNodes();
            cluster.formCluster();
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startNodes() throws IOException {
        for (int i = 0; i < MASTERS * (1 + replicasPerMaster); i++) {
            int port = LocalProcesses.freePortWithCompanion(BUS_PORT_OFFSET);
            Path dir = Files.createDirectories(processes.logDirectory().resolve("redis-" + port));
            nodes.add(processes.start("redis-" + port, List.of("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "5000", "--save", "", "--appendonly", "no", "--dir", dir.toString())));
            ports.add(port);
        }
    }

    private void formCluster() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        for (int port : ports) {
            awaitOutput(port, List.of("ping"), "PONG", deadline);
        }
        List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        ports.forEach(port -> create.add("127.0.0.1:" + port));
        create.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
        LocalProcesses.runToCompletion(create);
        for (int port : ports) {
            awaitOutput(port, List.of("cluster", "info"), "cluster_state:ok", deadline);
        }
        if (replicasPerMaster > 0) {
            awaitReplicasLinked(deadline);
        }
    }

    /** Every replica has finished its first sync with its master, so the measured rows replicate every write. */
    private void awaitReplicasLinked(long deadline) throws IOException, InterruptedException {
        int linked = 0;
        String last = "";
        while (System.nanoTime() < deadline) {
            linked = 0;
            for (int port : ports) {
                last = cli(port, List.of("info", "replication"));
                if (REPLICA_LINK_UP.matcher(last).find()) {
                    linked++;
                }
            }
            if (linked == MASTERS * replicasPerMaster) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException(linked + " of " + MASTERS * replicasPerMaster + " redis replicas linked to their masters; last: "
                + last);
    }

    /** Polls a node until a command's output contains what is expected (a readiness condition, bounded). */
    private static void awaitOutput(int port, List<String> command, String expected, long deadline)
            throws IOException, InterruptedException {
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                last = cli(port, command);
                if (last.contains(expected)) {
                    return;
                }
            } catch (IOException notYet) {
                last = notYet.getMessage();
            }
            Thread.sleep(100);
        }
        throw new IOException("redis on port " + port + " never answered " + expected + " to " + command + ": " + last);
    }

    private static String cli(int port, List<String> command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        full.addAll(command);
        return LocalProcesses.runToCompletion(full);
    }

    List<RedisURI> seeds() {
        return ports.stream().map(port -> RedisURI.create("127.0.0.1", port)).toList();
    }

    /** Every node's port, masters and replicas, in the order they were started. */
    List<Integer> ports() {
        return List.copyOf(ports);
    }

    /** Kills the node listening at the port with SIGKILL, as {@code kill -9} does. */
    void kill(int port) throws InterruptedException {
        LocalProcesses.kill(nodes.get(ports.indexOf(port)));
    }

    List<String> hostPorts() {
        return ports.stream().map(port -> "127.0.0.1:" + port).toList();
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
        return replicasPerMaster == 0 ? "Redis Cluster" : "Redis Cluster + replicas";
    }

    @Override
    public int copiesPerEntry() {
        return 1 + replicasPerMaster;
    }

    /**
     * Every row, with replicas too: the cluster with replicas is the peer that keeps as many copies as Zaris
     * (replication factor 2), so every target is judged against it, reads and one request in flight included.
     */
    @Override
    public boolean measures(Workload workload) {
        return true;
    }

    boolean hasReplicas() {
        return replicasPerMaster > 0;
    }

    @Override
    public String configuration() {
        String topology = replicasPerMaster == 0 ? MASTERS + " masters, no replicas"
                : MASTERS + " masters with " + replicasPerMaster + " replica each (asynchronous replication, reads from "
                + "the masters; measured on the write and 90/10 rows at 16 and 128 in flight only)";
        return topology + ", persistence off (" + version() + "); Lettuce "
                + io.lettuce.core.LettuceVersion.getVersion() + " cluster client: periodic ("
                + LettuceClusterKvClient.TOPOLOGY_REFRESH_PERIOD.toSeconds() + " s) + adaptive topology refresh, "
                + LettuceClusterKvClient.COMMAND_TIMEOUT.toSeconds() + " s command timeout, one multiplexed connection";
    }

    private static String version() {
        try {
            return LocalProcesses.runToCompletion(List.of("redis-server", "--version")).trim().split(" ")[2];
        } catch (IOException | InterruptedException | RuntimeException e) {
            return "redis-server";
        }
    }

    @Override
    public KvClient connect() {
        return new LettuceClusterKvClient(seeds());
    }

    @Override
    public MemoryReading memory(KvClient client) throws IOException, InterruptedException {
        List<Long> used = new ArrayList<>();
        List<Long> resident = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            int port = ports.get(i);
            Matcher matcher = USED_MEMORY.matcher(cli(port, List.of("info", "memory")));
            if (!matcher.find()) {
                throw new IOException("no used_memory from redis on port " + port);
            }
            used.add(Long.parseLong(matcher.group(1)));
            resident.add(ResidentMemory.bytes(nodes.get(i).pid()));
        }
        return new MemoryReading(used, resident, -1);
    }

    /**
     * Redis' own documentation gives no share (redis.conf asks for a lower maxmemory when replicas are attached;
     * the memory optimization page, to provision for the peak); the figure is the managed Redis reserve of
     * Amazon ElastiCache, the most widely used documented one.
     */
    @Override
    public RecommendedOccupancy recommendedOccupancy() {
        return new RecommendedOccupancy(0.75, "the node's memory", "Amazon ElastiCache's Managing reserved memory "
                + "(https://docs.aws.amazon.com/AmazonElastiCache/latest/dg/redis-memory-management.html): "
                + "reserved-memory-percent 25 % by default (replica output buffers, fragmentation, fork copy-on-write), "
                + "which it advises against lowering; redis.io itself gives no figure");
    }

    @Override
    public void close() {
        processes.close();
    }
}
