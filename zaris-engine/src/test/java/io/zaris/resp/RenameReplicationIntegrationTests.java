package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.HashOp;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.NodeInternals;
import io.zaris.server.ZarisNode;
import io.zaris.store.NodeStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A RENAME of a large collection replicates as one change: on three nodes keeping three copies, a hash, a list, a set
 * and a sorted set of {@link #ELEMENTS} elements each are renamed through Lettuce. The owner's segment advances by one
 * revision per rename (a revision is a change: that is what it ships and logs), each replica applies the same four
 * changes and holds every element under the new names; after the owner is stopped the new owner answers every field,
 * element, member and score. Under SYNC and ASYNC acknowledgement, and for a replica that was down during the renames
 * and synced when it came back.
 */
@Tag("in-process-cluster")
class RenameReplicationIntegrationTests {

    private static final int ELEMENTS = 50_000;
    /** Elements per command while filling, well within the RESP port's argument limits. */
    private static final int BATCH = 1_000;
    private static final List<String> TYPES = List.of("h", "l", "s", "z");

    @Test
    void renamesOfLargeCollectionsShipOneChangeEachAndSurviveTheOwnersStopUnderSync() {
        renameThenStopTheOwner(AckMode.SYNC);
    }

    @Test
    void renamesOfLargeCollectionsShipOneChangeEachAndSurviveTheOwnersStopUnderAsync() {
        renameThenStopTheOwner(AckMode.ASYNC);
    }

    private static void renameThenStopTheOwner(AckMode ack) {
        try (RespFailoverCluster failover = RespFailoverCluster.start(RespFailoverCluster.FAST.withAckMode(ack))) {
            EmbeddedCluster cluster = failover.cluster();
            RedisAdvancedClusterCommands<String, String> redis = failover.redis();
            String tag = tagNotOwnedByTheLeader(cluster);
            int segment = segmentOf(cluster, tag);
            fill(redis, tag);
            ZarisNode owner = activeOwner(cluster, segment);
            awaitReplicasAt(cluster, segment, revision(owner, segment));
            long before = revision(owner, segment);

            for (String type : TYPES) {
                assertThat(redis.rename(tag + type, tag + type + "-renamed")).isEqualTo("OK");
            }

            assertThat(revision(owner, segment)).as("one change per rename, not one per element").isEqualTo(before + 4);
            awaitReplicasAt(cluster, segment, before + 4);
            for (ZarisNode node : cluster.nodes()) {
                assertThat(NodeInternals.store(node).changesSince(segment, before)).as(node.nodeId())
                        .extracting(Change::kind).containsOnly(Change.Kind.RENAME).hasSize(4);
                if (node != owner) {
                    assertStoreHoldsTheRenamedCopies(NodeInternals.store(node), segment, tag);
                }
            }

            cluster.stopNode(owner.nodeId());

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> assertRedisHoldsTheRenamedCopies(redis, tag));
            assertThat(redis.ttl(tag + "h-renamed")).as("the renamed hash kept its TTL").isBetween(3_000L, 3_600L);
        }
    }

    @Test
    void aReplicaDownDuringTheRenamesIsSyncedWithTheRenamedCopiesWhenItComesBack() {
        try (RespFailoverCluster failover = RespFailoverCluster.start()) {
            EmbeddedCluster cluster = failover.cluster();
            RedisAdvancedClusterCommands<String, String> redis = failover.redis();
            String tag = tagNotOwnedByTheLeader(cluster);
            int segment = segmentOf(cluster, tag);
            fill(redis, tag);
            ZarisNode owner = activeOwner(cluster, segment);
            String down = cluster.nodes().stream().filter(n -> n != owner && !n.isLeader()).findFirst().orElseThrow()
                    .nodeId();
            cluster.stopNode(down);

            for (String type : TYPES) {
                assertThat(redis.rename(tag + type, tag + type + "-renamed")).isEqualTo("OK");
            }
            ZarisNode back = cluster.restartNode(down);

            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> {
                        assertThat(revision(back, segment)).isEqualTo(revision(owner, segment));
                        assertStoreHoldsTheRenamedCopies(NodeInternals.store(back), segment, tag);
                    });
            cluster.stopNode(owner.nodeId());
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .untilAsserted(() -> assertRedisHoldsTheRenamedCopies(redis, tag));
        }
    }

    /** The four collections under {@code tag}; the hash expires in an hour. */
    private static void fill(RedisAdvancedClusterCommands<String, String> redis, String tag) {
        for (int from = 0; from < ELEMENTS; from += BATCH) {
            int[] batch = IntStream.range(from, Math.min(ELEMENTS, from + BATCH)).toArray();
            Map<String, String> fields = new LinkedHashMap<>();
            List<ScoredValue<String>> scored = new ArrayList<>();
            for (int i : batch) {
                fields.put("f" + i, "v" + i);
                scored.add(ScoredValue.just(i, "m" + i));
            }
            redis.hset(tag + "h", fields);
            redis.rpush(tag + "l", IntStream.of(batch).mapToObj(i -> "e" + i).toArray(String[]::new));
            redis.sadd(tag + "s", IntStream.of(batch).mapToObj(i -> "m" + i).toArray(String[]::new));
            @SuppressWarnings("unchecked")
            ScoredValue<String>[] members = scored.toArray(new ScoredValue[0]);
            redis.zadd(tag + "z", members);
        }
        redis.expire(tag + "h", 3_600);
    }

    private static void assertRedisHoldsTheRenamedCopies(RedisAdvancedClusterCommands<String, String> redis, String tag) {
        Map<String, String> hash = redis.hgetall(tag + "h-renamed");
        assertThat(hash).hasSize(ELEMENTS);
        List<String> list = redis.lrange(tag + "l-renamed", 0, -1);
        assertThat(list).hasSize(ELEMENTS);
        assertThat(redis.scard(tag + "s-renamed")).isEqualTo(ELEMENTS);
        List<ScoredValue<String>> sorted = redis.zrangeWithScores(tag + "z-renamed", 0, -1);
        assertThat(sorted).hasSize(ELEMENTS);
        for (int i = 0; i < ELEMENTS; i++) {
            assertThat(hash.get("f" + i)).isEqualTo("v" + i);
            assertThat(list.get(i)).isEqualTo("e" + i);
            assertThat(sorted.get(i).getValue()).isEqualTo("m" + i);
            assertThat(sorted.get(i).getScore()).isEqualTo(i);
        }
        assertThat(redis.smismember(tag + "s-renamed", "m0", "m" + (ELEMENTS - 1), "m" + ELEMENTS))
                .containsExactly(true, true, false);
        assertThat(redis.exists(tag + "h", tag + "l", tag + "s", tag + "z")).as("the old names").isZero();
    }

    /** The store's copy of segment {@code segment}, read field by field as the RESP port would. */
    private static void assertStoreHoldsTheRenamedCopies(NodeStore store, int segment, String tag) {
        List<String> hash = read(store, segment, HashOp.HGETALL, tag + "h-renamed");
        List<String> list = read(store, segment, HashOp.LRANGE, tag + "l-renamed", "0", "-1");
        List<String> members = read(store, segment, HashOp.SMEMBERS, tag + "s-renamed");
        List<String> sorted = read(store, segment, HashOp.ZRANGE, tag + "z-renamed", "RANK", "0", "0", "-1", "0", "-1");
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < hash.size(); i += 2) {
            fields.put(hash.get(i), hash.get(i + 1));
        }
        assertThat(fields).hasSize(ELEMENTS);
        assertThat(list).hasSize(ELEMENTS);
        assertThat(members).hasSize(ELEMENTS).doesNotHaveDuplicates();
        assertThat(sorted).hasSize(2 * ELEMENTS);
        for (int i = 0; i < ELEMENTS; i++) {
            assertThat(fields.get("f" + i)).isEqualTo("v" + i);
            assertThat(list.get(i)).isEqualTo("e" + i);
            assertThat(sorted.get(2 * i)).isEqualTo("m" + i);
            assertThat(Double.parseDouble(sorted.get(2 * i + 1))).isEqualTo(i);
        }
        assertThat(members).allMatch(m -> m.startsWith("m") && Integer.parseInt(m.substring(1)) < ELEMENTS);
        for (String type : TYPES) {
            assertThat(read(store, segment, HashOp.TYPE, tag + type)).as("the old name " + type).containsExactly("none");
        }
    }

    private static List<String> read(NodeStore store, int segment, HashOp op, String key, String... args) {
        List<byte[]> arguments = new ArrayList<>();
        for (String arg : args) {
            arguments.add(arg.getBytes(StandardCharsets.UTF_8));
        }
        return store.hash(segment, key.getBytes(StandardCharsets.UTF_8), op, arguments, 0).items().stream()
                .map(item -> new String(item, StandardCharsets.UTF_8)).toList();
    }

    /** A hash tag whose segment's active owner is not the leader, so stopping that owner leaves the leader running. */
    private static String tagNotOwnedByTheLeader(EmbeddedCluster cluster) {
        String leader = cluster.leader().nodeId();
        for (int t = 0; ; t++) {
            String tag = "{rename" + t + "}";
            if (!activeOwner(cluster, segmentOf(cluster, tag)).nodeId().equals(leader)) {
                return tag;
            }
        }
    }

    private static int segmentOf(EmbeddedCluster cluster, String tag) {
        ClusterView view = cluster.leader().currentView();
        return new SegmentMapper(view.layout().segmentCount()).segmentOf(tag.getBytes(StandardCharsets.UTF_8));
    }

    private static ZarisNode activeOwner(EmbeddedCluster cluster, int segment) {
        return cluster.node(cluster.leader().currentView().runtimeOfSegment(segment).activeNode());
    }

    private static long revision(ZarisNode node, int segment) {
        return NodeInternals.store(node).segmentRevision(segment);
    }

    private static void awaitReplicasAt(EmbeddedCluster cluster, int segment, long revision) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(cluster.nodes()).allSatisfy(
                        node -> assertThat(revision(node, segment)).as(node.nodeId()).isEqualTo(revision)));
    }
}
