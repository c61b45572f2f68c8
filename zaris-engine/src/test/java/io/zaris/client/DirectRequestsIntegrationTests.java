package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.model.VersionedValue;
import io.zaris.placement.PartitionLayout;
import io.zaris.security.AuthFailureLimiter;
import io.zaris.security.Credentials;
import io.zaris.security.SecurityOptions;
import io.zaris.security.UserDirectory;
import io.zaris.server.NodeConfig;
import io.zaris.server.ZarisNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Blocking GETs, unconditional PUTs and DELETEs sent and answered by the calling thread over direct sockets,
 * against a real three-node cluster.
 */
@Tag("in-process-cluster")
class DirectRequestsIntegrationTests {

    private static EmbeddedCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCluster.builder().nodes(3).build().start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aBlockingGetIsAnsweredOverADirectSocketAndMeteredLikeAnyGet() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ZarisClient client = connect(ZarisClientOptions.builder().directReadConnectionsPerNode(4)
                .metrics(MicrometerClientMetrics.create(registry)))) {
            for (int i = 0; i < 50; i++) {
                client.put("direct-" + i, utf8("value-" + i)).join();
            }
            for (int i = 0; i < 50; i++) {
                assertThat(text(client.sync().get("direct-" + i))).isEqualTo("value-" + i);
            }
            assertThat(client.sync().get("direct-never-written")).isEmpty();

            // One caller at a time needs one socket per node it read from.
            assertThat(client.directReadConnections()).isBetween(1, 3);
            assertThat(requests(registry, "ok")).isEqualTo(50);
            assertThat(requests(registry, "not_found")).isEqualTo(1);
        }
    }

    @Test
    void blockingPutsAndDeletesAreAnsweredOverDirectSocketsAndMeteredLikeAnyWrite() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ZarisClient client = connect(ZarisClientOptions.builder().directReadConnectionsPerNode(4)
                .metrics(MicrometerClientMetrics.create(registry)))) {
            long first = client.sync().put("written-directly", utf8("one"));
            long second = client.sync().put("written-directly", utf8("two"), Duration.ofMinutes(5));
            // Nothing but writes so far: the sockets were opened by them.
            assertThat(client.directReadConnections()).isEqualTo(1);
            assertThat(second).isGreaterThan(first);
            VersionedValue stored = client.get("written-directly").join().orElseThrow();
            assertThat(stored.value()).isEqualTo(utf8("two"));
            assertThat(stored.version()).isEqualTo(second);
            assertThat(stored.ttlRemainingMillis()).isPositive();

            assertThat(client.sync().delete("written-directly")).isTrue();
            assertThat(client.sync().delete("written-directly")).isFalse();
            assertThat(client.get("written-directly").join()).isEmpty();

            assertThat(requests(registry, "put", "ok")).isEqualTo(2);
            assertThat(requests(registry, "delete", "ok")).isEqualTo(1);
            assertThat(requests(registry, "delete", "not_found")).isEqualTo(1);
        }
    }

    @Test
    void aDirectAsyncWriteIsRememberedForLossReportsLikeAPipelinedOne() {
        try (ZarisClient client = connect(ZarisClientOptions.builder().directReadConnectionsPerNode(4))) {
            client.sync().put("remembered", utf8("v"), null, AckMode.ASYNC);
            client.sync().delete("remembered", AckMode.ASYNC);
            client.sync().put("not-remembered", utf8("v"), null, AckMode.SYNC);

            assertThat(client.directReadConnections()).isPositive();
            assertThat(client.rememberedAsyncAcknowledgements()).isEqualTo(2);
        }
    }

    @Test
    void aValueOverTheDirectLimitTakesThePipelinedConnection() {
        try (ZarisClient client = connect(ZarisClientOptions.builder().directReadConnectionsPerNode(4))) {
            byte[] large = new byte[DirectRequests.MAX_DIRECT_VALUE_BYTES + 1];
            client.sync().put("large-value", large);
            assertThat(client.directReadConnections()).isZero();
            assertThat(client.get("large-value").join().orElseThrow().value()).hasSize(large.length);
        }
    }

    @Test
    void concurrentCallersShareAtMostTheConfiguredSocketsPerNodeAndTheRestUseThePipelinedConnection() throws Exception {
        try (ZarisClient client = connect(ZarisClientOptions.builder().directReadConnectionsPerNode(2))) {
            for (int i = 0; i < 100; i++) {
                client.put("shared-" + i, utf8("value-" + i)).join();
            }
            ExecutorService callers = Executors.newFixedThreadPool(12);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < 12; t++) {
                    results.add(callers.submit(() -> {
                        int correct = 0;
                        for (int round = 0; round < 300; round++) {
                            int i = round % 100;
                            if (text(client.sync().get("shared-" + i)).equals("value-" + i)) {
                                correct++;
                            }
                        }
                        return correct;
                    }));
                }
                for (Future<Integer> result : results) {
                    assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(300);
                }
            } finally {
                callers.shutdownNow();
            }
            assertThat(client.directReadConnections()).isBetween(1, 2 * 3);
        }
    }

    @Test
    void withDirectSocketsOffEveryBlockingCallTakesThePipelinedConnection() {
        try (ZarisClient client = connect(ZarisClientOptions.builder().directReadConnectionsPerNode(0))) {
            client.sync().put("pipelined", utf8("v"));
            assertThat(text(client.sync().get("pipelined"))).isEqualTo("v");
            assertThat(client.sync().delete("pipelined")).isTrue();
            assertThat(client.directReadConnections()).isZero();
        }
    }

    /**
     * The client's map is stale (no pushes, no poll) when the key's partition moves: the direct read reaches the
     * old owner, which answers MOVED, and the ordinary path (hint, retry) returns the value.
     */
    @Test
    void aWrongOwnerAnswerFallsBackToTheOrdinaryPath() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ZarisClient client = connectWithoutMapUpdates(registry)) {
            String key = "moving-direct";
            client.put(key, utf8("before the move")).join();
            assertThat(text(client.sync().get(key))).isEqualTo("before the move");

            moveAwayThePartitionOf(client, key);

            assertThat(text(client.sync().get(key))).isEqualTo("before the move");
            // The ordinary path met MOVED too (the table was still stale), applied the hint and retried.
            Counter moved = registry.find("zaris.client.retries").tag("status", "moved").counter();
            assertThat(moved).isNotNull();
            assertThat(moved.count()).isEqualTo(1);
            assertThat(text(client.sync().get(key))).isEqualTo("before the move");
        }
    }

    /** As above for a write: the old owner refuses it and applies nothing; the ordinary path stores it once. */
    @Test
    void aWrongOwnerAnswerToADirectWriteFallsBackToTheOrdinaryPath() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ZarisClient client = connectWithoutMapUpdates(registry)) {
            String key = "moving-direct-write";
            long before = client.sync().put(key, utf8("before the move"));

            moveAwayThePartitionOf(client, key);

            long after = client.sync().put(key, utf8("after the move"));
            // The old owner (now a replica) refused the write; so did it on the ordinary path, which retried once.
            assertThat(registry.find("zaris.client.retries").counters()).extracting(Counter::getId)
                    .extracting(id -> id.getTag("status")).containsExactly("replica_write_rejected");
            assertThat(registry.find("zaris.client.retries").counters().stream().mapToDouble(Counter::count).sum())
                    .isEqualTo(1);
            VersionedValue stored = client.get(key).join().orElseThrow();
            assertThat(stored.value()).isEqualTo(utf8("after the move"));
            assertThat(stored.version()).isEqualTo(after).isGreaterThan(before);
        }
    }

    /** A direct DELETE refused by the old owner falls back too, and the ordinary path deletes the key once. */
    @Test
    void aWrongOwnerAnswerToADirectDeleteFallsBackToTheOrdinaryPath() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ZarisClient client = connectWithoutMapUpdates(registry)) {
            String key = "moving-direct-delete";
            client.sync().put(key, utf8("doomed"));

            moveAwayThePartitionOf(client, key);

            assertThat(client.sync().delete(key)).isTrue();
            assertThat(client.get(key).join()).isEmpty();
            assertThat(requests(registry, "delete", "ok")).isEqualTo(1);
        }
    }

    @Test
    void aNodeWithLoginsIsReadDirectlyAfterTheSocketLogsIn() throws Exception {
        String nodePassword = "node-secret";
        String appPassword = "app-secret";
        try (ZarisNode node = new ZarisNode(NodeConfig.builder("secured")
                .port(0)
                .clusterSettings(new ClusterSettings(1, PartitionLayout.of(64, 8), 1))
                .membership(new MembershipConfig.InJvm("direct-reads-" + UUID.randomUUID()))
                .security(new SecurityOptions(UserDirectory.of(nodePassword, List.of("app read-write " + appPassword)),
                        Credentials.password(nodePassword),
                        new AuthFailureLimiter(Integer.MAX_VALUE, Duration.ofMillis(1), 16, System::nanoTime)))
                .build()).start()) {
            node.awaitReady(Duration.ofSeconds(30));
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(node.dataAddress()))
                    .credentials(new Credentials("app", appPassword)).directReadConnectionsPerNode(4).environment(Map.of())
                    .build())) {
                client.put("secured-key", utf8("secret value")).join();
                assertThat(text(client.sync().get("secured-key"))).isEqualTo("secret value");
                assertThat(client.directReadConnections()).isEqualTo(1);
            }
        }
    }

    /** A client whose map stays as it is (no pushes, no poll), so a moved partition is still routed to its old owner. */
    private static ZarisClient connectWithoutMapUpdates(SimpleMeterRegistry registry) {
        return connect(ZarisClientOptions.builder().directReadConnectionsPerNode(4).ownershipPushEnabled(false)
                .mapRefreshInterval(Duration.ofHours(1)).metrics(MicrometerClientMetrics.create(registry)));
    }

    private static void moveAwayThePartitionOf(ZarisClient client, String key) throws Exception {
        ClusterScenario.handOver(cluster, ClusterScenario.partitionOf(client, key));
        await().atMost(Duration.ofSeconds(10)).until(() -> ClusterScenario.allNodesAgree(cluster));
    }

    private static ZarisClient connect(ZarisClientOptions.Builder options) {
        return ZarisClient.connect(options.seeds(cluster.seeds()).environment(Map.of()).build());
    }

    private static double requests(SimpleMeterRegistry registry, String status) {
        return requests(registry, "get", status);
    }

    private static double requests(SimpleMeterRegistry registry, String op, String status) {
        Timer timer = registry.find("zaris.client.requests").tag("op", op).tag("status", status).timer();
        return timer == null ? 0 : timer.count();
    }

    private static String text(Optional<VersionedValue> value) {
        return new String(value.orElseThrow().value(), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
