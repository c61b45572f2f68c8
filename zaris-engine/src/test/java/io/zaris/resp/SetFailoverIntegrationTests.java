package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Sets survive the loss of their active owner: three nodes keeping three copies (SYNC acknowledgement), sets written
 * through Lettuce (one of 5,000 members, added 500 per SADD, so replicas receive it member by member), then a node
 * that actively owns some of them is stopped. Every member reads back from the new owners, a set's TTL is kept, and
 * writes to the sets go on from where they were.
 */
@Tag("in-process-cluster")
class SetFailoverIntegrationTests {

    private static final ReplicationSettings FAST = ReplicationSettings.defaults()
            .withEvictionDelay(Duration.ofSeconds(2))
            .withHealCooldown(Duration.ofSeconds(1));
    private static final int SETS = 100;
    private static final int MEMBERS = 40;
    private static final int BIG_MEMBERS = 5_000;

    @Test
    void everyMemberOfEverySetReadsBackFromTheNewOwner() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(3)
                .layout(PartitionLayout.of(64, 8)).replication(FAST).resp(true).build().start()) {
            RedisClusterClient client = RedisClusterClient.create(seeds(cluster));
            client.setOptions(ClusterClientOptions.builder()
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enableAllAdaptiveRefreshTriggers()
                            .adaptiveRefreshTriggersTimeout(Duration.ofMillis(500))
                            .refreshTriggersReconnectAttempts(2)
                            .build())
                    .build());
            try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
                RedisAdvancedClusterCommands<String, String> redis = connection.sync();
                Map<String, Set<String>> expected = new LinkedHashMap<>();
                for (int s = 0; s < SETS; s++) {
                    Set<String> members = new HashSet<>();
                    for (int m = 0; m < MEMBERS; m++) {
                        members.add("member-" + s + "-" + m);
                    }
                    assertThat(redis.sadd("set-" + s, members.toArray(new String[0]))).isEqualTo(MEMBERS);
                    expected.put("set-" + s, members);
                }
                Set<String> big = new HashSet<>();
                for (int from = 0; from < BIG_MEMBERS; from += 500) {
                    List<String> batch = new ArrayList<>();
                    for (int m = from; m < from + 500; m++) {
                        batch.add("m" + m);
                    }
                    assertThat(redis.sadd("big", batch.toArray(new String[0]))).isEqualTo(500);
                    big.addAll(batch);
                }
                expected.put("big", big);
                assertThat(redis.srem("set-0", "member-0-0")).isEqualTo(1);
                expected.get("set-0").remove("member-0-0");
                assertThat(redis.expire("set-1", 3_600)).isTrue();

                String victim = cluster.nodes().stream().filter(n -> !n.isLeader()).findFirst().orElseThrow().nodeId();
                ClusterView before = cluster.leader().currentView();
                SegmentMapper mapper = new SegmentMapper(before.layout().segmentCount());
                long victimSets = expected.keySet().stream().filter(key -> victim.equals(
                        before.runtimeOfSegment(mapper.segmentOf(key.getBytes(StandardCharsets.UTF_8))).activeNode())).count();
                assertThat(victimSets).as("the stopped node actively owns some of the sets").isPositive();

                cluster.stopNode(victim);

                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                        .untilAsserted(() -> {
                            for (Map.Entry<String, Set<String>> set : expected.entrySet()) {
                                assertThat(redis.smembers(set.getKey())).as(set.getKey()).isEqualTo(set.getValue());
                            }
                        });
                assertThat(redis.scard("big")).isEqualTo(BIG_MEMBERS);
                assertThat(redis.ttl("set-1")).as("the set kept its TTL").isBetween(3_000L, 3_600L);
                assertThat(redis.type("set-2")).isEqualTo("set");
                assertThat(redis.sismember("set-0", "member-0-0")).as("the removed member stays removed").isFalse();
                assertThat(redis.sadd("set-0", "member-0-0", "member-0-1")).as("adds go on from the set").isEqualTo(1);
                assertThat(redis.srem("big", "m0", "m1")).isEqualTo(2);
                assertThat(redis.scard("big")).isEqualTo(BIG_MEMBERS - 2);
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
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
