package io.zaris.bench.peers;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Three Hazelcast members, each its own JVM (the same heap as a Zaris node, {@link ZarisServerCluster.Heap#TUNED}
 * unless the caller says otherwise; the parallel collector, as the Zaris nodes) running {@link HazelcastMemberMain}.
 */
final class HazelcastCluster implements PeerCluster {

    private static final int MEMBERS = 3;
    private static final Duration FORM_TIMEOUT = Duration.ofSeconds(90);

    private final LocalProcesses processes;
    private final String clusterName = "hz-bench-" + UUID.randomUUID();
    private final List<Process> members = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();
    private final ZarisServerCluster.Heap heap;

    private HazelcastCluster(Path logDirectory, ZarisServerCluster.Heap heap) throws IOException {
        this.processes = new LocalProcesses(logDirectory);
        this.heap = heap;
    }

    static HazelcastCluster start(Path logDirectory) throws IOException {
        return start(logDirectory, ZarisServerCluster.Heap.TUNED);
    }

    static HazelcastCluster start(Path logDirectory, ZarisServerCluster.Heap heap) throws IOException {
        HazelcastCluster cluster = new HazelcastCluster(logDirectory, heap);
        try {
            cluster.startMembers();
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startMembers() throws IOException {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            ports.add(LocalProcesses.freePort());
        }
        String portList = ports.stream().map(String::valueOf).collect(Collectors.joining(","));
        for (int port : ports) {
            List<String> command = new ArrayList<>(List.of(LocalProcesses.javaBinary()));
            command.addAll(heap.options());
            // The collector the Zaris nodes get: both are JVM caches holding long-lived values, and one choice for
            // both keeps the collector out of the comparison.
            command.addAll(List.of(ZarisServerCluster.COLLECTOR, "-Djava.net.preferIPv4Stack=true",
                    "-Dhazelcast.local.localAddress=127.0.0.1", "-cp", System.getProperty("java.class.path"),
                    HazelcastMemberMain.class.getName(), clusterName, Integer.toString(port), portList));
            members.add(processes.start("hazelcast-" + port, command));
            addresses.add("127.0.0.1:" + port);
        }
    }

    /** Every member's address ({@code 127.0.0.1:port}), in the order they were started. */
    List<String> addresses() {
        return List.copyOf(addresses);
    }

    /** Kills the member started {@code index}-th (from 0) with SIGKILL, as {@code kill -9} does. */
    void kill(int index) throws InterruptedException {
        LocalProcesses.kill(members.get(index));
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
        return "Hazelcast";
    }

    @Override
    public int copiesPerEntry() {
        return 2;
    }

    @Override
    public String configuration() {
        return MEMBERS + " members (" + heap.description()
                + ", " + ZarisServerCluster.COLLECTOR.substring("-XX:+Use".length())
                + ", as the Zaris nodes), Hazelcast "
                + com.hazelcast.instance.GeneratedBuildProperties.VERSION
                + " defaults (1 sync backup, BINARY format); Java client with smart routing, IMap getAsync/setAsync "
                + "with callbacks on the completing thread";
    }

    /** Connects once all three members are in the cluster the client sees (bounded wait). */
    @Override
    public KvClient connect() {
        HazelcastKvClient client = new HazelcastKvClient(clusterName, addresses);
        long deadline = System.nanoTime() + FORM_TIMEOUT.toNanos();
        while (client.instance().getCluster().getMembers().size() < MEMBERS) {
            if (System.nanoTime() > deadline) {
                client.close();
                throw new IllegalStateException("Hazelcast members never formed a cluster of " + MEMBERS);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                client.close();
                throw new IllegalStateException(e);
            }
        }
        return client;
    }

    @Override
    public MemoryReading memory(KvClient client) throws IOException, InterruptedException {
        HazelcastInstance instance = ((HazelcastKvClient) client).instance();
        long reported = 0;
        Map<Member, Future<Long>> costs = instance.getExecutorService("bench-stats")
                .submitToAllMembers(new MapEntryCost(HazelcastKvClient.MAP));
        for (Future<Long> cost : costs.values()) {
            try {
                reported += cost.get(60, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IOException("could not read Hazelcast's map statistics", e);
            }
        }
        List<Long> heaps = new ArrayList<>();
        List<Long> resident = new ArrayList<>();
        for (Process member : members) {
            heaps.add(HeapAfterGc.bytes(member.pid()));
            resident.add(ResidentMemory.bytes(member.pid()));
        }
        return new MemoryReading(heaps, resident, reported);
    }

    @Override
    public RecommendedOccupancy recommendedOccupancy() {
        return new RecommendedOccupancy(0.60, "the heap", "Hazelcast's Sizing Practices "
                + "(https://docs.hazelcast.com/imdg/latest/storage/sizing-practices): plan to use only 60 % of the "
                + "memory, with 40 % headroom for a member's failure or shutdown");
    }

    @Override
    public void close() {
        processes.close();
    }
}
