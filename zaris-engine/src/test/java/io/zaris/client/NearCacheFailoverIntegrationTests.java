package io.zaris.client;

import static io.zaris.client.ClusterScenario.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.model.AckMode;
import io.zaris.model.NodeAddress;
import io.zaris.server.ServerProcesses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A reader with a near cache while the owner of its keys is killed with SIGKILL and a writer overwrites every key on
 * the new owners: no key ever reads older again once it read newer, and every key reads its latest acknowledged
 * write within a bounded poll.
 */
@Tag("multi-process")
class NearCacheFailoverIntegrationTests {

    private static final int KEYS = 60;

    @Test
    void afterAKillNineOfTheOwnerNoCachedValueOutlivesANewerAcknowledgedWrite() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "near-cache-failover-logs"))) {
            List<NodeAddress> seeds = processes.start(3, 2);
            try (ZarisClient writer = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                         .bootstrapTimeout(Duration.ofSeconds(90)).environment(Map.of()).build());
                 ZarisClient reader = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                         .bootstrapTimeout(Duration.ofSeconds(90)).nearCache(NearCacheOptions.create())
                         .environment(Map.of()).build())) {
                ServerProcesses.awaitEveryPartitionWritable(writer);
                for (int i = 0; i < KEYS; i++) {
                    writer.sync().put(key(i), utf8("first"), null, AckMode.SYNC);
                    assertThat(read(reader, key(i))).isEqualTo("first");
                    assertThat(read(reader, key(i))).isEqualTo("first");
                }
                assertThat(reader.nearCacheStats().entries()).isEqualTo(KEYS);

                // Keeps reading every key while the owner dies and the keys are overwritten: one newer value seen,
                // never an older one after it.
                Map<String, String> newestSeen = new ConcurrentHashMap<>();
                List<String> regressions = new ArrayList<>();
                AtomicBoolean reading = new AtomicBoolean(true);
                Thread watcher = new Thread(() -> {
                    while (reading.get()) {
                        for (int i = 0; i < KEYS; i++) {
                            String value;
                            try {
                                value = read(reader, key(i));
                            } catch (RuntimeException failing) {
                                continue; // a read may fail while the partition has no owner; staleness is what counts
                            }
                            String before = newestSeen.get(key(i));
                            if ("second".equals(before) && !"second".equals(value)) {
                                synchronized (regressions) {
                                    regressions.add(key(i) + " read " + value + " after second");
                                }
                            }
                            if (value != null) {
                                newestSeen.put(key(i), value);
                            }
                        }
                    }
                }, "near-cache-watcher");
                watcher.start();

                String victim = reader.clusterView().runtimeMap().get(ClusterScenario.partitionOf(reader, key(0)))
                        .activeNode();
                processes.node(victim).kill();
                for (int i = 0; i < KEYS; i++) {
                    writer.sync().put(key(i), utf8("second"), null, AckMode.SYNC); // retried by the client until acknowledged
                }

                for (int i = 0; i < KEYS; i++) {
                    String key = key(i);
                    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                            .until(() -> "second".equals(read(reader, key)));
                }
                reading.set(false);
                watcher.join(30_000);
                for (int i = 0; i < KEYS; i++) {
                    assertThat(read(reader, key(i))).as("a read after the latest write was seen").isEqualTo("second");
                }
                assertThat(regressions).as("reads older than one already seen").isEmpty();
                assertThat(reader.nearCacheStats().hits()).isPositive();
                assertThat(reader.nearCacheStats().resumedStreams())
                        .as("the killed owner's segments resumed on their new owners").isPositive();
            }
        }
    }

    private static String key(int i) {
        return "near-failover-" + i;
    }

    private static String read(ZarisClient client, String key) {
        return client.sync().get(key).map(ClusterScenario::text).orElse(null);
    }
}
