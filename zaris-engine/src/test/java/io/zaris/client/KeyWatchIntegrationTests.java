package io.zaris.client;

import static io.zaris.client.ClusterScenario.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Key watches against real in-process clusters over loopback TCP: a key's changes in order with their versions and
 * deletions, a prefix, and a watch that resumes on the new owner after its owner stopped, without a gap or a repeat.
 */
@Tag("in-process-cluster")
class KeyWatchIntegrationTests {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static EmbeddedCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8))
                .replication(still()).build().start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** No healing or eviction during a test: the only moves are the ones a test makes. */
    private static ReplicationSettings still() {
        return ReplicationSettings.defaults().withEvictionDelay(Duration.ofMinutes(5))
                .withHealCooldown(Duration.ofMinutes(5));
    }

    private static ZarisClient client(EmbeddedCluster on) {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(on.seeds()).environment(Map.of()).build());
    }

    /** Collects what a watch hears. */
    private static final class Recorder implements KeyWatchListener {
        final List<KeyChange> changes = new CopyOnWriteArrayList<>();
        final List<WatchGap> gaps = new CopyOnWriteArrayList<>();

        @Override
        public void onChange(KeyChange change) {
            changes.add(change);
        }

        @Override
        public void onFellBehind(WatchGap gap) {
            gaps.add(gap);
        }
    }

    @Test
    void aWatchHearsEveryChangeOfItsKeyInOrderWithVersionsAndDeletions() {
        try (ZarisClient watcher = client(cluster); ZarisClient writer = client(cluster)) {
            Recorder heard = new Recorder();
            try (KeyWatch watch = watcher.watch("watched", heard)) {
                await().atMost(BOUND).until(watch::isLive);
                long v1 = writer.sync().put("watched", utf8("1"));
                writer.sync().put("not-watched", utf8("x"));
                long v2 = writer.sync().put("watched", utf8("2"));
                writer.sync().delete("watched");

                await().atMost(BOUND).until(() -> heard.changes.size() == 3);
                assertThat(heard.changes).extracting(KeyChange::key).containsOnly("watched");
                assertThat(heard.changes.get(0).version()).isEqualTo(v1);
                assertThat(heard.changes.get(1).version()).isEqualTo(v2);
                assertThat(heard.changes.get(2).version()).isGreaterThan(v2);
                assertThat(heard.changes).extracting(KeyChange::deleted).containsExactly(false, false, true);
                assertThat(heard.gaps).isEmpty();
            }
        }
    }

    @Test
    void aPrefixWatchHearsTheKeysUnderItOnly() {
        try (ZarisClient watcher = client(cluster); ZarisClient writer = client(cluster)) {
            Recorder heard = new Recorder();
            try (KeyWatch watch = watcher.watchPrefix("orders/", heard)) {
                await().atMost(BOUND).until(watch::isLive);
                for (int i = 0; i < 20; i++) {
                    writer.sync().put("orders/" + i, utf8("o"));
                    writer.sync().put("users/" + i, utf8("u"));
                }

                await().atMost(BOUND).until(() -> heard.changes.size() == 20);
                assertThat(heard.changes).extracting(KeyChange::key).allMatch(key -> key.startsWith("orders/"));
                assertThat(heard.gaps).isEmpty();
            }
            writer.sync().put("orders/after-close", utf8("o"));
            writer.sync().put("orders/after-close", utf8("p"));
            assertThat(heard.changes).as("a closed watch hears nothing more").hasSize(20);
        }
    }

    @Test
    void afterTheOwnerStopsTheWatchResumesOnTheNewOwnerWithoutAGapOrARepeat() {
        try (EmbeddedCluster own = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).replication(still()).build().start();
             ZarisClient watcher = client(own); ZarisClient writer = client(own)) {
            Recorder heard = new Recorder();
            KeyWatch watch = watcher.watch("failover-watched", heard);
            await().atMost(BOUND).until(watch::isLive);
            writer.sync().put("failover-watched", utf8("0"), null, AckMode.SYNC);
            await().atMost(BOUND).until(() -> heard.changes.size() == 1);
            String victim = watcher.ownerOf("failover-watched");

            own.stopNode(victim);
            for (int i = 1; i <= 5; i++) {
                writer.sync().put("failover-watched", utf8(String.valueOf(i)), null, AckMode.SYNC); // retried until acked
            }

            await().atMost(BOUND).until(() -> heard.changes.size() >= 6);
            assertThat(heard.changes).hasSize(6);
            assertThat(heard.changes).extracting(KeyChange::version).isSorted().doesNotHaveDuplicates();
            assertThat(heard.gaps).isEmpty();
            watch.close();
        }
    }

    /**
     * Writers on several connections change one segment at once; the node serves them on different event loops, one
     * of which may be the watcher's. Every change reaches the watch in revision order and none is reported missing: a
     * push shipped on the tracking connection's own event loop must not overtake one another thread queued earlier.
     */
    @Test
    void concurrentWritersOfOneSegmentReachAWatchInRevisionOrderWithoutAGap() throws Exception {
        int writers = 6;
        int writesEach = 300;
        List<ZarisClient> clients = new java.util.ArrayList<>();
        try (ZarisClient watcher = client(cluster)) {
            Recorder heard = new Recorder();
            try (KeyWatch watch = watcher.watchPrefix("{hot}", heard)) {
                await().atMost(BOUND).until(watch::isLive);
                List<Thread> threads = new java.util.ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    ZarisClient writer = client(cluster);
                    clients.add(writer);
                    int id = w;
                    // one hash tag: every key in one slot, so one segment
                    Thread thread = new Thread(() -> {
                        for (int n = 0; n < writesEach; n++) {
                            writer.sync().put("{hot}w" + id + "-" + n, utf8("v"));
                        }
                    }, "watch-writer-" + id);
                    thread.start();
                    threads.add(thread);
                }
                for (Thread thread : threads) {
                    thread.join(BOUND.toMillis());
                }

                await().atMost(BOUND).until(() -> heard.changes.size() == writers * writesEach || !heard.gaps.isEmpty());
                assertThat(heard.gaps).isEmpty();
                assertThat(heard.changes).hasSize(writers * writesEach);
                assertThat(heard.changes).extracting(KeyChange::version).isSorted().doesNotHaveDuplicates();
            }
        } finally {
            clients.forEach(ZarisClient::close);
        }
    }

    @Test
    void aWatchNeedsAListener() {
        try (ZarisClient watcher = client(cluster)) {
            assertThatThrownBy(() -> watcher.watch("k", null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("listener");
            assertThatThrownBy(() -> watcher.watchPrefix(null, new Recorder()))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
