package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A test fixture for failover seen through the RESP port: an embedded cluster of three nodes keeping three copies of
 * every partition (SYNC acknowledgement, the default; 64 segments in 8 partitions; eviction and healing sped up) and
 * one Lettuce cluster client that refreshes its topology on every adaptive trigger, so it finds promoted owners.
 * {@link #stopActiveOwnerOfSome} stops a node that is not the leader once it has checked that the node actively owns
 * some of the test's keys, so the failover covers them. {@link #close} closes the connection, the client, then the
 * cluster.
 *
 * <p>Started, stopped and closed by one test thread; {@link #redis()} may also be called from polling threads, as a
 * Lettuce connection is thread-safe.
 */
final class RespFailoverCluster implements AutoCloseable {

    /** Evicts a stopped node's copies and heals soon after it left, so a test sees the whole failover quickly. */
    static final ReplicationSettings FAST = ReplicationSettings.defaults()
            .withEvictionDelay(Duration.ofSeconds(2))
            .withHealCooldown(Duration.ofSeconds(1));

    private final EmbeddedCluster cluster;
    private final RedisClusterClient client;
    private final StatefulRedisClusterConnection<String, String> connection;

    private RespFailoverCluster(EmbeddedCluster cluster, RedisClusterClient client,
            StatefulRedisClusterConnection<String, String> connection) {
        this.cluster = cluster;
        this.client = client;
        this.connection = connection;
    }

    /** Starts the three nodes and connects the client; what is already started is closed if a later step fails. */
    static RespFailoverCluster start() {
        return start(FAST);
    }

    /** {@link #start()} with {@code replication} in place of {@link #FAST} (an ASYNC acknowledgement, say). */
    static RespFailoverCluster start(ReplicationSettings replication) {
        EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(3)
                .layout(PartitionLayout.of(64, 8)).replication(replication).resp(true).build().start();
        RedisClusterClient client = null;
        try {
            client = RedisClusterClient.create(seeds(cluster));
            client.setOptions(ClusterClientOptions.builder()
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enableAllAdaptiveRefreshTriggers()
                            .adaptiveRefreshTriggersTimeout(Duration.ofMillis(500))
                            .refreshTriggersReconnectAttempts(2)
                            .build())
                    .build());
            return new RespFailoverCluster(cluster, client, client.connect());
        } catch (RuntimeException | Error e) {
            if (client != null) {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
            cluster.close();
            throw e;
        }
    }

    /** The embedded cluster, for a test that looks at its nodes. */
    EmbeddedCluster cluster() {
        return cluster;
    }

    /** The client's synchronous commands, routed by slot. */
    RedisAdvancedClusterCommands<String, String> redis() {
        return connection.sync();
    }

    /**
     * Stops the first node that does not lead, after asserting that it is the active owner of at least one of
     * {@code keys} in the current view.
     *
     * @param what names the keys in the assertion's message ("hashes", "sets")
     */
    void stopActiveOwnerOfSome(Collection<String> keys, String what) {
        String victim = cluster.nodes().stream().filter(n -> !n.isLeader()).findFirst().orElseThrow().nodeId();
        ClusterView before = cluster.leader().currentView();
        SegmentMapper mapper = new SegmentMapper(before.layout().segmentCount());
        long owned = keys.stream().filter(key -> victim.equals(
                before.runtimeOfSegment(mapper.segmentOf(key.getBytes(StandardCharsets.UTF_8))).activeNode())).count();
        assertThat(owned).as("the stopped node actively owns some of the " + what).isPositive();

        cluster.stopNode(victim);
    }

    @Override
    public void close() {
        try {
            connection.close();
        } finally {
            try {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            } finally {
                cluster.close();
            }
        }
    }

    private static List<RedisURI> seeds(EmbeddedCluster cluster) {
        List<RedisURI> seeds = new ArrayList<>();
        for (NodeAddress address : cluster.respSeeds()) {
            seeds.add(RedisURI.builder().withHost(address.host()).withPort(address.port())
                    .withTimeout(Duration.ofSeconds(3)).build());
        }
        return seeds;
    }
}
