package io.zaris.client;

import static io.zaris.client.ClusterScenario.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.model.ClusterView;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The near cache resuming its segments' invalidation streams on the new owner, against real in-process clusters
 * over loopback TCP: after a planned move and after a stopped owner, the entries of keys nobody changed are served
 * locally again without being read again, the changed ones are not; a new owner whose op log no longer reaches back
 * drops that segment's entries only.
 */
@Tag("in-process-cluster")
class NearCacheResumeIntegrationTests {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final int KEYS = 10;

    private static EmbeddedCluster cluster() {
        // No healing or eviction during a test: the only moves are the ones a test makes.
        ReplicationSettings still = ReplicationSettings.defaults().withEvictionDelay(Duration.ofMinutes(5))
                .withHealCooldown(Duration.ofMinutes(5));
        return EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8))
                .replication(still).build().start();
    }

    private static ZarisClient reader(EmbeddedCluster cluster) {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).nearCache(NearCacheOptions.create())
                .environment(Map.of()).build());
    }

    private static ZarisClient writer(EmbeddedCluster cluster) {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).environment(Map.of()).build());
    }

    private static String read(ZarisClient client, String key) {
        return client.sync().get(key).map(ClusterScenario::text).orElse(null);
    }

    private static int segmentOf(ZarisClient client, String key) {
        ClusterView view = client.clusterView();
        return new SegmentMapper(view.layout().segmentCount()).segmentOf(key);
    }

    /** Keys {tag}.0 .. {tag}.(KEYS-1), one segment, written SYNC and cached by the reader (all served locally). */
    private static void writeAndCache(ZarisClient writer, ZarisClient reader, String tag) {
        for (int i = 0; i < KEYS; i++) {
            writer.sync().put(key(tag, i), utf8("v" + i), null, AckMode.SYNC);
        }
        // Until every key is answered locally: the segment's stream is live, with a position to resume from.
        await().atMost(BOUND).pollInterval(Duration.ofMillis(10)).until(() -> {
            long hitsBefore = reader.nearCacheStats().hits();
            for (int i = 0; i < KEYS; i++) {
                assertThat(read(reader, key(tag, i))).isEqualTo("v" + i);
            }
            return reader.nearCacheStats().hits() - hitsBefore == KEYS;
        });
    }

    private static String key(String tag, int i) {
        return "{" + tag + "}." + i;
    }

    private static String activeOf(ZarisClient client, String key) {
        return client.clusterView().runtimeMap().get(ClusterScenario.partitionOf(client, key)).activeNode();
    }

    /**
     * The reader keeps reading one key until its segment's stream resumed on the new owner (the first read after
     * the move goes to the owner, as every read while the stream is down does); then every unchanged key is a hit.
     */
    private static void assertResumedKeepingUnchangedKeys(ZarisClient reader, String tag, int changed) {
        await().atMost(BOUND).pollInterval(Duration.ofMillis(10)).until(() -> {
            read(reader, key(tag, 0));
            return reader.nearCacheStats().resumedStreams() + reader.nearCacheStats().droppedStreams() >= 1;
        });
        assertThat(reader.nearCacheStats().droppedStreams()).as("streams that could not resume").isZero();
        long missesBefore = reader.nearCacheStats().misses();
        for (int i = 0; i < KEYS; i++) {
            if (i != changed) {
                assertThat(read(reader, key(tag, i))).isEqualTo("v" + i);
            }
        }
        assertThat(reader.nearCacheStats().misses()).as("every unchanged key answered locally after the resume")
                .isEqualTo(missesBefore);
        assertThat(read(reader, key(tag, changed))).as("the key written on the new owner is not served from before")
                .isEqualTo("changed");
    }

    @Test
    void aPlannedMoveKeepsTheEntriesOfKeysNotChangedSince() throws Exception {
        try (EmbeddedCluster cluster = cluster(); ZarisClient reader = reader(cluster); ZarisClient writer = writer(cluster)) {
            writeAndCache(writer, reader, "move");
            int partition = ClusterScenario.partitionOf(reader, key("move", 0));
            String before = activeOf(reader, key("move", 0));

            ClusterScenario.handOver(cluster, partition);
            await().atMost(BOUND).until(() -> !before.equals(writer.refreshMap().join().runtimeMap()
                    .get(partition).activeNode()));
            writer.sync().put(key("move", 3), utf8("changed"), null, AckMode.SYNC);
            await().atMost(BOUND).until(() -> !before.equals(reader.refreshMap().join().runtimeMap()
                    .get(partition).activeNode()));

            assertResumedKeepingUnchangedKeys(reader, "move", 3);
        }
    }

    /**
     * Moved away and back: the stream returns to the very connection it started on, which stayed subscribed all
     * along, under a newer epoch; it resumes there, and a key changed while the segment was away is not served stale.
     */
    @Test
    void aSegmentMovedAwayAndBackResumesOnItsFirstConnection() throws Exception {
        try (EmbeddedCluster cluster = cluster(); ZarisClient reader = reader(cluster); ZarisClient writer = writer(cluster)) {
            writeAndCache(writer, reader, "back");
            int partition = ClusterScenario.partitionOf(reader, key("back", 0));
            String first = activeOf(reader, key("back", 0));

            ClusterScenario.handOver(cluster, partition);
            await().atMost(BOUND).until(() -> !first.equals(writer.refreshMap().join().runtimeMap()
                    .get(partition).activeNode()));
            writer.sync().put(key("back", 3), utf8("changed"), null, AckMode.SYNC);
            await().atMost(BOUND).until(() -> !first.equals(reader.refreshMap().join().runtimeMap()
                    .get(partition).activeNode()));
            assertResumedKeepingUnchangedKeys(reader, "back", 3);
            long resumedAway = reader.nearCacheStats().resumedStreams();

            writer.sync().put(key("back", 7), utf8("changed while away"), null, AckMode.SYNC);
            ClusterScenario.handOver(cluster, partition);
            await().atMost(BOUND).until(() -> first.equals(reader.refreshMap().join().runtimeMap()
                    .get(partition).activeNode()));

            await().atMost(BOUND).pollInterval(Duration.ofMillis(10)).until(() -> {
                read(reader, key("back", 0));
                return reader.nearCacheStats().resumedStreams() > resumedAway;
            });
            long missesBefore = reader.nearCacheStats().misses();
            for (int i = 0; i < KEYS; i++) {
                if (i != 3 && i != 7) {
                    assertThat(read(reader, key("back", i))).isEqualTo("v" + i);
                }
            }
            assertThat(reader.nearCacheStats().misses()).isEqualTo(missesBefore);
            assertThat(read(reader, key("back", 7))).isEqualTo("changed while away");
            assertThat(reader.nearCacheStats().droppedStreams()).isZero();
        }
    }

    @Test
    void afterTheOwnerStopsTheEntriesOfKeysNotChangedSinceAreServedAgain() {
        try (EmbeddedCluster cluster = cluster(); ZarisClient reader = reader(cluster); ZarisClient writer = writer(cluster)) {
            writeAndCache(writer, reader, "stop");
            String victim = activeOf(reader, key("stop", 0));

            cluster.stopNode(victim);
            writer.sync().put(key("stop", 5), utf8("changed"), null, AckMode.SYNC); // retried until the new owner acks
            await().atMost(BOUND).until(() -> !victim.equals(activeOf(reader, key("stop", 0)))
                    || !victim.equals(reader.refreshMap().join().runtimeMap()
                    .get(ClusterScenario.partitionOf(reader, key("stop", 0))).activeNode()));

            assertResumedKeepingUnchangedKeys(reader, "stop", 5);
        }
    }

    @Test
    void aNewOwnerWhoseOpLogNoLongerReachesBackDropsThatSegmentOnly() {
        try (EmbeddedCluster cluster = cluster(); ZarisClient reader = reader(cluster); ZarisClient writer = writer(cluster)) {
            writeAndCache(writer, reader, "trunc");
            int partition = ClusterScenario.partitionOf(reader, key("trunc", 0));
            int segment = segmentOf(reader, key("trunc", 0));
            String sibling = siblingTag(reader, partition, segment);
            writeAndCache(writer, reader, sibling);
            String victim = activeOf(reader, key("trunc", 0));

            cluster.stopNode(victim);
            // More changes of the segment than its op log keeps (128), none of them to the cached keys.
            for (int i = 0; i < 300; i++) {
                writer.sync().put("{trunc}.other", utf8("w" + i), null, AckMode.SYNC);
            }
            await().atMost(BOUND).until(() -> !victim.equals(reader.refreshMap().join().runtimeMap()
                    .get(partition).activeNode()));

            await().atMost(BOUND).pollInterval(Duration.ofMillis(10)).until(() -> {
                assertThat(read(reader, key("trunc", 0))).isEqualTo("v0");
                return reader.nearCacheStats().droppedStreams() >= 1;
            });
            assertThat(reader.nearCacheStats().droppedStreams()).isEqualTo(1);
            for (int i = 0; i < KEYS; i++) {
                assertThat(read(reader, key("trunc", i))).isEqualTo("v" + i);
            }
            // The other segment of the same partition resumes and keeps its entries.
            await().atMost(BOUND).pollInterval(Duration.ofMillis(10)).until(() -> {
                read(reader, key(sibling, 0));
                return reader.nearCacheStats().resumedStreams() >= 1;
            });
            long missesBefore = reader.nearCacheStats().misses();
            for (int i = 0; i < KEYS; i++) {
                assertThat(read(reader, key(sibling, i))).isEqualTo("v" + i);
            }
            assertThat(reader.nearCacheStats().misses()).isEqualTo(missesBefore);
        }
    }

    /** A hash tag whose keys fall in {@code partition} but not in {@code segment}. */
    private static String siblingTag(ZarisClient client, int partition, int segment) {
        for (int i = 0; ; i++) {
            String tag = "sibling" + i;
            if (ClusterScenario.partitionOf(client, key(tag, 0)) == partition && segmentOf(client, key(tag, 0)) != segment) {
                return tag;
            }
        }
    }
}
