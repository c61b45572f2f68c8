package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zaris.embedded.EmbeddedCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The client's Micrometer meters as a real client on a real two-node cluster records them. */
@Tag("in-process-cluster")
class ClientMetersIntegrationTests {

    private static EmbeddedCluster cluster;
    private SimpleMeterRegistry registry;
    private ZarisClient client;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCluster.builder().nodes(2).build().start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Pushes ignored and no periodic poll: the table changes only when a request finds out. */
    @BeforeEach
    void connect() {
        registry = new SimpleMeterRegistry();
        client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).environment(Map.of())
                .ownershipPushEnabled(false).mapRefreshInterval(Duration.ofHours(1))
                .metrics(MicrometerClientMetrics.create(registry)).build());
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    @Test
    void requestsAreTaggedWithTheStatusOfTheirAnswer() {
        long version = client.sync().put("metered", utf8("v"));
        assertThat(client.sync().get("metered")).isPresent();
        assertThat(client.sync().get("never-written")).isEmpty();
        assertThat(client.sync().putIfVersion("metered", utf8("w"), version + 1_000, null).applied()).isFalse();

        // A request is recorded right after its future completed, on the network thread.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(requests("put", "ok")).isEqualTo(1);
            assertThat(requests("put", "conflict")).isEqualTo(1);
            assertThat(requests("get", "ok")).isEqualTo(1);
            assertThat(requests("get", "not_found")).isEqualTo(1);
        });
    }

    @Test
    void anOwnershipMoveChangesTheTableGaugesAndIsRetriedByStatusWhileARefreshOfTheSameMapDoesNot() throws Exception {
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge("zaris.client.routing.table.age") >= 0.3);
        long fetches = client.mapFetchCount();
        client.refreshMap().get(10, TimeUnit.SECONDS);
        assertThat(client.mapFetchCount()).as("a full fetch happened").isEqualTo(fetches + 1);
        assertThat(gauge("zaris.client.routing.table.age")).as("the same map does not reset the age").isGreaterThanOrEqualTo(0.3);
        double epochs = gauge("zaris.client.routing.table.epochs");
        assertThat(epochs).isPositive();
        assertThat(gauge("zaris.client.routing.table.version")).isPositive();

        String key = "moving-key";
        ClusterScenario.handOver(cluster, ClusterScenario.partitionOf(client, key));
        await().atMost(Duration.ofSeconds(10)).until(() -> ClusterScenario.allNodesAgree(cluster));
        assertThat(client.sync().get(key)).isEmpty(); // the old owner answers MOVED with the new entry

        assertThat(gauge("zaris.client.routing.table.epochs")).isGreaterThan(epochs);
        assertThat(gauge("zaris.client.routing.table.age")).isLessThan(0.3);
        assertThat(counter("zaris.client.retries", "status", "moved")).isEqualTo(1);
        assertThat(counter("zaris.client.map.refreshes", "trigger", "hint")).isEqualTo(1);
        assertThat(counter("zaris.client.map.refreshes", "trigger", "react")).isEqualTo(1);
    }

    private double requests(String op, String status) {
        Timer timer = registry.find("zaris.client.requests").tag("op", op).tag("status", status).timer();
        return timer == null ? 0 : timer.count();
    }

    private double counter(String name, String tag, String value) {
        Counter counter = registry.find(name).tag(tag, value).counter();
        return counter == null ? 0 : counter.count();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }




    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
