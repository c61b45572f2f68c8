package io.zaris.server;

import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test fixture: nodes of one cluster inside the test's JVM (in-JVM membership, data ports on loopback), started
 * and waited for until every node holds the map and every active has synced links to its replicas, so a SYNC write
 * is accepted from the first. {@link #seededClient} connects a client to every node and writes
 * {@code key-<i> = value-<i>}. {@link #close} closes the clients it made, then every node, the restarted ones too.
 *
 * <p>Used by one test thread; {@link #nodes()} is a concurrent list, as tests read it from polling threads.
 */
final class InJvmCluster implements AutoCloseable {

    /** How long starting, readiness and replication may take on a loaded machine. */
    static final Duration READY_WITHIN = Duration.ofSeconds(30);
    /** Three nodes, 64 segments in 8 partitions: the shape the takeover and audit tests reason about. */
    static final PartitionLayout LAYOUT = PartitionLayout.of(64, 8);

    private final String cluster;
    private final ClusterSettings settings;
    private final ReplicationSettings replication;
    private final List<ZarisNode> nodes = new CopyOnWriteArrayList<>();
    private final List<ZarisClient> clients = new ArrayList<>();

    private InJvmCluster(String namePrefix, ClusterSettings settings, ReplicationSettings replication) {
        this.cluster = namePrefix + "-" + UUID.randomUUID();
        this.settings = settings;
        this.replication = replication;
    }

    /**
     * Starts nodes {@code n1}, {@code n2} and {@code n3} with {@code replicationFactor} copies of each partition and
     * waits until they are ready; a node that fails to start stops the ones already running.
     *
     * @param namePrefix names the cluster (made unique), so a log tells the tests apart
     */
    static InJvmCluster startThree(String namePrefix, int replicationFactor, ReplicationSettings replication)
            throws Exception {
        InJvmCluster fixture = new InJvmCluster(namePrefix, new ClusterSettings(3, LAYOUT, replicationFactor), replication);
        try {
            for (String id : List.of("n1", "n2", "n3")) {
                fixture.nodes.add(new ZarisNode(fixture.config(id)).start());
            }
            for (ZarisNode node : fixture.nodes) {
                node.awaitReady(READY_WITHIN);
            }
            await().atMost(READY_WITHIN).until(() -> fixture.nodes.stream().allMatch(ZarisNode::isReplicationReady));
        } catch (Exception | Error e) {
            fixture.close();
            throw e;
        }
        return fixture;
    }

    /** The configuration of node {@code id} in this cluster: loopback, any free port, this cluster's settings. */
    NodeConfig config(String id) {
        return NodeConfig.builder(id).host("127.0.0.1").port(0).clusterSettings(settings)
                .membership(new MembershipConfig.InJvm(cluster)).replication(replication).build();
    }

    /** Starts another process of node {@code id} in this cluster (a restart, or a newcomer); closed with the rest. */
    ZarisNode startNode(String id) throws Exception {
        ZarisNode node = new ZarisNode(config(id)).start();
        nodes.add(node);
        return node;
    }

    /** A client seeded with every node's data address, after {@code keys} SYNC writes of {@code key-<i> = value-<i>}. */
    ZarisClient seededClient(int keys) {
        List<NodeAddress> seeds = nodes.stream().map(ZarisNode::dataAddress).toList();
        ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds).environment(Map.of()).build());
        clients.add(client);
        for (int i = 0; i < keys; i++) {
            client.sync().put("key-" + i, utf8("value-" + i));
        }
        return client;
    }

    /** Every node started here, in start order; stopped ones included. */
    List<ZarisNode> nodes() {
        return nodes;
    }

    /** The node that leads now. */
    ZarisNode leader() {
        return nodes.stream().filter(ZarisNode::isLeader).findFirst().orElseThrow();
    }

    /** The first node started as {@code id} (a restarted one is found by its own reference). */
    ZarisNode node(String id) {
        return node(nodes, id);
    }

    static ZarisNode node(List<ZarisNode> nodes, String id) {
        return nodes.stream().filter(n -> n.nodeId().equals(id)).findFirst().orElseThrow();
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        clients.forEach(ZarisClient::close);
        for (ZarisNode node : nodes) {
            node.close();
        }
    }
}
