package io.zaris.client;

import static io.zaris.client.ClusterScenario.text;
import static io.zaris.client.ClusterScenario.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The near cache against a real in-process cluster over loopback TCP: a reader that caches, a writer without a
 * near cache, and the changes between them (writes, deletes, a planned move of the owner, a stopped owner).
 */
@Tag("in-process-cluster")
class NearCacheIntegrationTests {

    private static final Duration PUSH_BOUND = Duration.ofSeconds(10);
    private static EmbeddedCluster cluster;

    @BeforeAll
    static void startCluster() {
        // No healing or eviction during a test: the only moves are the ones a test makes.
        ReplicationSettings still = ReplicationSettings.defaults().withEvictionDelay(Duration.ofMinutes(5))
                .withHealCooldown(Duration.ofMinutes(5));
        cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8))
                .replication(still).build().start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static ZarisClient nearClient(NearCacheOptions near) {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).nearCache(near)
                .environment(Map.of()).build());
    }

    private static ZarisClient plainClient() {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).environment(Map.of()).build());
    }

    private static String read(ZarisClient client, String key) {
        return client.sync().get(key).map(ClusterScenario::text).orElse(null);
    }

    @Test
    void aSecondReadIsAnsweredLocally() {
        try (ZarisClient reader = nearClient(NearCacheOptions.create()); ZarisClient writer = plainClient()) {
            writer.sync().put("local-read", utf8("v1"));
            assertThat(read(reader, "local-read")).isEqualTo("v1");
            long hitsBefore = reader.nearCacheStats().hits();

            assertThat(read(reader, "local-read")).isEqualTo("v1");
            assertThat(reader.nearCacheStats().hits()).isEqualTo(hitsBefore + 1);
            assertThat(reader.nearCacheStats().entries()).isEqualTo(1);
        }
    }

    @Test
    void aReadSaysWhetherTheNearCacheAnsweredAndABypassingReadNeitherServesNorFills() {
        try (ZarisClient reader = nearClient(NearCacheOptions.create()); ZarisClient writer = plainClient()) {
            writer.sync().put("read-source", utf8("v1"));
            writer.sync().put("read-bypass", utf8("b1"));

            assertThat(reader.sync().read("read-source", NearCacheRead.DEFAULT).local()).isFalse();
            ReadResult second = reader.sync().read("read-source", NearCacheRead.DEFAULT);
            assertThat(second.local()).isTrue();
            assertThat(second.value().map(ClusterScenario::text)).contains("v1");
            assertThat(reader.sync().read("read-source", NearCacheRead.BYPASS).local())
                    .as("a bypassing read goes to the owner even for a cached key").isFalse();

            NearCacheStats before = reader.nearCacheStats();
            for (int i = 0; i < 3; i++) {
                ReadResult bypass = reader.sync().read("read-bypass", NearCacheRead.BYPASS);
                assertThat(bypass.local()).isFalse();
                assertThat(bypass.value().map(ClusterScenario::text)).contains("b1");
            }
            NearCacheStats after = reader.nearCacheStats();
            assertThat(after.entries()).as("nothing filled").isEqualTo(before.entries());
            assertThat(after.hits() + after.misses()).as("no counts moved").isEqualTo(before.hits() + before.misses());
            assertThat(reader.read("read-bypass", NearCacheRead.DEFAULT).join().local()).isFalse();
        }
    }

    @Test
    void aReadWithAMaxAgeGoesToTheOwnerOnceTheEntryIsThatOld() {
        try (ZarisClient reader = nearClient(NearCacheOptions.create()); ZarisClient writer = plainClient()) {
            writer.sync().put("read-aged", utf8("v1"));
            NearCacheRead young = NearCacheRead.maxAge(Duration.ofMinutes(10));
            reader.sync().read("read-aged", young);
            assertThat(reader.sync().read("read-aged", young).local()).isTrue();

            NearCacheRead tiny = NearCacheRead.maxAge(Duration.ofNanos(1));
            assertThat(reader.sync().read("read-aged", tiny).local()).as("every entry is at least 1 ns old").isFalse();
            assertThat(reader.sync().read("read-aged", NearCacheRead.DEFAULT).local()).isTrue();
        }
    }

    @Test
    void anotherClientsWriteReachesTheCachingClientWithinABoundedPoll() {
        try (ZarisClient reader = nearClient(NearCacheOptions.create()); ZarisClient writer = plainClient()) {
            writer.sync().put("shared", utf8("old"));
            assertThat(read(reader, "shared")).isEqualTo("old");
            assertThat(read(reader, "shared")).isEqualTo("old");

            writer.sync().put("shared", utf8("new"));
            await().atMost(PUSH_BOUND).pollInterval(Duration.ofMillis(5)).until(() -> "new".equals(read(reader, "shared")));
            assertThat(reader.nearCacheStats().invalidations()).isPositive();

            writer.sync().delete("shared");
            await().atMost(PUSH_BOUND).pollInterval(Duration.ofMillis(5)).until(() -> read(reader, "shared") == null);
        }
    }

    @Test
    void aClientReadsItsOwnWritesAtOnce() {
        try (ZarisClient client = nearClient(NearCacheOptions.create())) {
            BlockingZarisClient zaris = client.sync();
            for (int i = 0; i < 50; i++) {
                zaris.put("own", utf8("v" + i));
                assertThat(read(client, "own")).isEqualTo("v" + i);
                assertThat(read(client, "own")).as("cached, still the write").isEqualTo("v" + i);
            }
            zaris.increment("own-counter", 1);
            assertThat(read(client, "own-counter")).isEqualTo("1");
            zaris.increment("own-counter", 1);
            assertThat(read(client, "own-counter")).isEqualTo("2");
            long version = zaris.get("own").orElseThrow().version();
            assertThat(zaris.putIfVersion("own", utf8("cas"), version, null).applied()).isTrue();
            assertThat(read(client, "own")).isEqualTo("cas");
            zaris.delete("own");
            assertThat(read(client, "own")).isNull();
            Map<String, byte[]> tagged = new LinkedHashMap<>();
            tagged.put("{own}.a", utf8("1"));
            tagged.put("{own}.b", utf8("2"));
            zaris.putAll(tagged, null);
            assertThat(read(client, "{own}.b")).isEqualTo("2");
            tagged.put("{own}.b", utf8("3"));
            zaris.putAll(tagged, null);
            assertThat(read(client, "{own}.b")).isEqualTo("3");
            zaris.deleteAll(tagged.keySet());
            assertThat(read(client, "{own}.a")).isNull();
        }
    }

    @Test
    void theWholeClusterScenarioPassesWithTheNearCacheOn() {
        try (ZarisClient client = nearClient(NearCacheOptions.create())) {
            ClusterScenario.exercise(client, "near-scenario-");
            assertThat(client.nearCacheStats().hits()).isPositive();
        }
    }

    @Test
    void anExpiredValueIsNotServedLocally() {
        try (ZarisClient reader = nearClient(NearCacheOptions.create()); ZarisClient writer = plainClient()) {
            writer.sync().put("short", utf8("soon gone"), Duration.ofMillis(400));
            assertThat(read(reader, "short")).isEqualTo("soon gone");
            await().atMost(PUSH_BOUND).pollInterval(Duration.ofMillis(20)).until(() -> read(reader, "short") == null);
        }
    }

    @Test
    void theBoundsByEntriesAndBytesHold() {
        try (ZarisClient byEntries = nearClient(NearCacheOptions.builder().maxEntries(20).build());
             ZarisClient byBytes = nearClient(NearCacheOptions.builder().maxBytes(10 * (NearCache.ENTRY_OVERHEAD_BYTES + 1024 + 16)).build());
             ZarisClient writer = plainClient()) {
            byte[] kilobyte = new byte[1024];
            for (int i = 0; i < 100; i++) {
                writer.sync().put("bounded-" + i, kilobyte);
            }
            for (int i = 0; i < 100; i++) {
                byEntries.sync().get("bounded-" + i);
                byBytes.sync().get("bounded-" + i);
                assertThat(byEntries.nearCacheStats().entries()).isLessThanOrEqualTo(20);
                assertThat(byBytes.nearCacheStats().bytes()).isLessThanOrEqualTo(10L * (NearCache.ENTRY_OVERHEAD_BYTES + 1024 + 16));
            }
            assertThat(byEntries.nearCacheStats().entries()).isEqualTo(20);
            assertThat(byBytes.nearCacheStats().entries()).isEqualTo(10);
            assertThat(byEntries.nearCacheStats().evictions()).isEqualTo(80);
        }
    }

    /**
     * A planned move keeps every connection open: only the epoch tells the reader its entries were read from an
     * owner that no longer takes the writes.
     */
    @Test
    void afterAPlannedMoveTheWriteOnTheNewOwnerIsSeen() throws Exception {
        try (ZarisClient reader = nearClient(NearCacheOptions.create()); ZarisClient writer = plainClient()) {
            String key = "moved-key";
            writer.sync().put(key, utf8("before the move"), null, AckMode.SYNC);
            assertThat(read(reader, key)).isEqualTo("before the move");
            assertThat(read(reader, key)).isEqualTo("before the move");
            int partition = ClusterScenario.partitionOf(reader, key);
            String before = reader.clusterView().runtimeMap().get(partition).activeNode();

            ClusterScenario.handOver(cluster, partition);
            await().atMost(Duration.ofSeconds(30)).until(() -> !before.equals(writer.refreshMap().join().runtimeMap()
                    .get(partition).activeNode()));
            writer.sync().put(key, utf8("after the move"), null, AckMode.SYNC);

            await().atMost(PUSH_BOUND).pollInterval(Duration.ofMillis(5))
                    .until(() -> "after the move".equals(read(reader, key)));
            assertThat(read(reader, key)).isEqualTo("after the move");
        }
    }

    /** A stopped owner closes the reader's connection: nothing read on it is served, and the writes that follow are seen. */
    @Test
    void afterTheOwnerStopsEveryKeyReadsItsLatestAcknowledgedWrite() {
        try (EmbeddedCluster own = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8))
                .replication(ReplicationSettings.defaults().withEvictionDelay(Duration.ofMinutes(5))
                        .withHealCooldown(Duration.ofMinutes(5))).build().start();
             ZarisClient reader = ZarisClient.connect(ZarisClientOptions.builder().seeds(own.seeds())
                     .nearCache(NearCacheOptions.create()).environment(Map.of()).build());
             ZarisClient writer = ZarisClient.connect(ZarisClientOptions.builder().seeds(own.seeds())
                     .environment(Map.of()).build())) {
            int keys = 64;
            Map<String, String> latest = new LinkedHashMap<>();
            for (int i = 0; i < keys; i++) {
                String key = "failover-" + i;
                writer.sync().put(key, utf8("first-" + i), null, AckMode.SYNC);
                latest.put(key, "first-" + i);
                assertThat(read(reader, key)).isEqualTo("first-" + i);
            }
            String victim = reader.clusterView().runtimeMap().get(ClusterScenario.partitionOf(reader, "failover-0"))
                    .activeNode();

            own.stopNode(victim);
            for (int i = 0; i < keys; i++) {
                String key = "failover-" + i;
                writer.sync().put(key, utf8("second-" + i), null, AckMode.SYNC); // retried by the client until acknowledged
                latest.put(key, "second-" + i);
            }

            for (Map.Entry<String, String> key : latest.entrySet()) {
                await().atMost(PUSH_BOUND).pollInterval(Duration.ofMillis(5))
                        .until(() -> key.getValue().equals(read(reader, key.getKey())));
                Optional<String> again = reader.sync().get(key.getKey()).map(ClusterScenario::text);
                assertThat(again).as("read again after the latest write was seen").contains(key.getValue());
            }
        }
    }
}
