package io.zaris.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.server.ZarisNode;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Starts the whole application (web server, embedded three-node cluster, client) and talks to it over
 * real HTTP, so each request goes through the controller, the Zaris client and a node. The slow lookup is
 * shortened; everything else runs as configured in {@code application.yml}. One test stops an embedded
 * node and starts it again; it waits until every partition is healthy before it ends, so the tests that
 * run after it see a whole cluster.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.catalog.lookup-delay=100ms")
@Tag("in-process-cluster")
class SampleApplicationIntegrationTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Generous: detection, promotion and a loaded CI machine. */
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(90);
    /** Generous: restart, re-sync, heal cooldown and a loaded CI machine. */
    private static final Duration HEAL_BOUND = Duration.ofSeconds(120);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    @LocalServerPort
    private int port;

    @Autowired
    private ProductCatalog catalog;

    @Autowired
    private ZarisEmbeddedClusterLifecycle embeddedCluster;

    @Test
    void putThenGetShouldReturnTheValueWithTheVersionOfTheWrite() throws Exception {
        HttpResponse<String> put = send(request("/kv/greeting")
                .header("Content-Type", "text/plain")
                .PUT(HttpRequest.BodyPublishers.ofString("hello")));
        assertThat(put.statusCode()).isEqualTo(200);
        long version = Long.parseLong(jsonField(put.body(), "version"));
        assertThat(version).isPositive();

        HttpResponse<String> get = send(request("/kv/greeting").GET());

        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(jsonField(get.body(), "value")).isEqualTo("\"hello\"");
        assertThat(jsonField(get.body(), "version")).isEqualTo(Long.toString(version));
    }

    @Test
    void putWithFormBodyLikeCurlDashDShouldStoreTheRawText() throws Exception {
        HttpResponse<String> put = send(request("/kv/from-curl")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .PUT(HttpRequest.BodyPublishers.ofString("hi")));
        assertThat(put.statusCode()).isEqualTo(200);

        HttpResponse<String> get = send(request("/kv/from-curl").GET());

        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(jsonField(get.body(), "value")).isEqualTo("\"hi\"");
    }

    @Test
    void getOfMissingKeyShouldBeNotFound() throws Exception {
        assertThat(send(request("/kv/never-written").GET()).statusCode()).isEqualTo(404);
    }

    @Test
    void deleteShouldRemoveTheKeyAndReportWhetherItExisted() throws Exception {
        send(request("/kv/doomed").PUT(HttpRequest.BodyPublishers.ofString("bye")));

        assertThat(send(request("/kv/doomed").DELETE()).statusCode()).isEqualTo(204);
        assertThat(send(request("/kv/doomed").GET()).statusCode()).isEqualTo(404);
        assertThat(send(request("/kv/doomed").DELETE()).statusCode()).isEqualTo(404);
    }

    @Test
    void incrementShouldReturnTheNewValue() throws Exception {
        HttpResponse<String> first = send(request("/counters/visits/increment")
                .POST(HttpRequest.BodyPublishers.noBody()));
        HttpResponse<String> second = send(request("/counters/visits/increment?by=10")
                .POST(HttpRequest.BodyPublishers.noBody()));

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(jsonField(first.body(), "value")).isEqualTo("1");
        assertThat(jsonField(second.body(), "value")).isEqualTo("11");
    }

    @Test
    void cachedProductShouldHitTheSlowLookupOnceThenBeServedFromZaris() throws Exception {
        long lookupsBefore = catalog.lookups();

        HttpResponse<String> first = send(request("/products/p-1").GET());
        HttpResponse<String> second = send(request("/products/p-1").GET());
        HttpResponse<String> third = send(request("/products/p-1").GET());

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(jsonField(first.body(), "id")).isEqualTo("\"p-1\"");
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(third.body()).isEqualTo(first.body());
        assertThat(catalog.lookups() - lookupsBefore).as("slow lookups").isEqualTo(1);
        assertThat(jsonField(send(request("/products/lookups").GET()).body(), "lookups"))
                .isEqualTo(Long.toString(catalog.lookups()));

        assertThat(send(request("/products/p-1").DELETE()).statusCode()).isEqualTo(204);
        send(request("/products/p-1").GET());
        assertThat(catalog.lookups() - lookupsBefore).as("looked up again after eviction").isEqualTo(2);
    }

    @Test
    void conditionalPutShouldApplyOnTheReadVersionAndAnswer412OnAConflict() throws Exception {
        HttpResponse<String> created = send(request("/kv/doc").PUT(HttpRequest.BodyPublishers.ofString("v1")));
        String version = jsonField(created.body(), "version");

        HttpResponse<String> applied = send(request("/kv/doc").header("If-Match", version)
                .PUT(HttpRequest.BodyPublishers.ofString("v2")));
        HttpResponse<String> conflict = send(request("/kv/doc").header("If-Match", version)
                .PUT(HttpRequest.BodyPublishers.ofString("v3")));

        assertThat(applied.statusCode()).isEqualTo(200);
        assertThat(conflict.statusCode()).isEqualTo(412);
        assertThat(jsonField(conflict.body(), "currentVersion")).isEqualTo(jsonField(applied.body(), "version"));
        assertThat(jsonField(send(request("/kv/doc").GET()).body(), "value")).isEqualTo("\"v2\"");
    }

    @Test
    void healthShouldShowTheZarisComponentWithPartitionStates() throws Exception {
        HttpResponse<String> health = send(request("/actuator/health").GET());

        assertThat(health.statusCode()).isEqualTo(200);
        DocumentContext json = JsonPath.parse(health.body());
        assertThat(json.read("$.components.zaris.status", String.class)).isEqualTo("UP");
        assertThat(json.read("$.components.zaris.details.mode", String.class)).isEqualTo("embedded");
        assertThat(json.read("$.components.zaris.details.partitions", Map.class))
                .isEqualTo(Map.of("HEALTHY", 128, "DEGRADED", 0, "RECOVERING", 0, "UNAVAILABLE", 0));
        assertThat(json.read("$.components.zaris.details.nodes", Map.class)).hasSize(3);
        assertThat(json.read("$.components.zaris.details.leader", String.class)).startsWith("node-");
        assertThat(json.read("$.components.zaris.details.routingTable.partitionMapVersion", Long.class)).isPositive();
    }

    @Test
    void metricsShouldExposeCacheAndZarisMeters() throws Exception {
        send(request("/products/p-metrics").GET());
        send(request("/products/p-metrics").GET());

        HttpResponse<String> gets = send(request("/actuator/metrics/cache.gets?tag=cache:products&tag=result:hit").GET());
        HttpResponse<String> partitions = send(request("/actuator/metrics/zaris.partitions?tag=state:healthy").GET());
        HttpResponse<String> requests = send(request("/actuator/metrics/zaris.client.requests").GET());
        HttpResponse<String> keys = send(request("/actuator/metrics/zaris.node.keys").GET());
        HttpResponse<String> names = send(request("/actuator/metrics").GET());

        assertThat(gets.statusCode()).isEqualTo(200);
        assertThat(gets.body()).contains("\"name\":\"cache.gets\"");
        assertThat(partitions.statusCode()).isEqualTo(200);
        assertThat(partitions.body()).contains("\"value\":128.0");
        assertThat(requests.statusCode()).isEqualTo(200);
        assertThat(keys.statusCode()).isEqualTo(200);
        assertThat(names.body()).contains("zaris.client.routing.table.age", "cache.puts", "cache.evictions");
    }

    @Test
    void stoppingOneEmbeddedNodeShouldLeaveTheEndpointsAnsweringWithHealthDegradedThenHealthyAgain() throws Exception {
        HttpResponse<String> product = send(request("/products/p-survivor").GET());
        assertThat(product.statusCode()).isEqualTo(200);
        assertThat(send(request("/kv/survivor").PUT(HttpRequest.BodyPublishers.ofString("before"))).statusCode())
                .isEqualTo(200);
        EmbeddedCluster cluster = embeddedCluster.cluster();
        String stopped = cluster.nodes().stream().filter(node -> !node.isLeader()).map(ZarisNode::nodeId)
                .findFirst().orElseThrow();

        cluster.stopNode(stopped);

        // Failover: the stopped node's partitions are served by their replicas, with less redundancy.
        // DEGRADED maps to HTTP 200 (application.yml): the instance still answers.
        await().atMost(FAILOVER_BOUND).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            HttpResponse<String> health = send(request("/actuator/health").GET());
            assertThat(health.statusCode()).isEqualTo(200);
            DocumentContext json = JsonPath.parse(health.body());
            assertThat(json.read("$.components.zaris.status", String.class)).isEqualTo("DEGRADED");
            assertThat(json.read("$.status", String.class)).isEqualTo("DEGRADED");
            assertThat(json.read("$.components.zaris.details.partitions.UNAVAILABLE", Integer.class)).isZero();
            assertThat(json.read("$.components.zaris.details.nodes." + stopped + ".running", Boolean.class)).isFalse();
        });
        long lookupsBefore = catalog.lookups();
        HttpResponse<String> cachedWhileDegraded = send(request("/products/p-survivor").GET());
        assertThat(cachedWhileDegraded.statusCode()).isEqualTo(200);
        assertThat(cachedWhileDegraded.body()).isEqualTo(product.body());
        assertThat(catalog.lookups()).as("served from the cache, not looked up again").isEqualTo(lookupsBefore);
        assertThat(jsonField(send(request("/kv/survivor").GET()).body(), "value")).isEqualTo("\"before\"");
        assertThat(send(request("/kv/written-while-degraded").PUT(HttpRequest.BodyPublishers.ofString("during")))
                .statusCode()).isEqualTo(200);
        assertThat(send(request("/counters/degraded/increment").POST(HttpRequest.BodyPublishers.noBody()))
                .statusCode()).isEqualTo(200);

        cluster.restartNode(stopped);

        // Healing: once the node is back in sync and the cooldown has passed, every partition is HEALTHY.
        await().atMost(HEAL_BOUND).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            HttpResponse<String> health = send(request("/actuator/health").GET());
            assertThat(health.statusCode()).isEqualTo(200);
            DocumentContext json = JsonPath.parse(health.body());
            assertThat(json.read("$.components.zaris.status", String.class)).isEqualTo("UP");
            assertThat(json.read("$.components.zaris.details.partitions.HEALTHY", Integer.class)).isEqualTo(128);
        });
        assertThat(jsonField(send(request("/kv/written-while-degraded").GET()).body(), "value"))
                .isEqualTo("\"during\"");
        assertThat(send(request("/products/p-survivor").GET()).body()).isEqualTo(product.body());
    }

    @Test
    void cachesEndpointShouldListTheProductsCache() throws Exception {
        HttpResponse<String> caches = send(request("/actuator/caches").GET());

        assertThat(caches.statusCode()).isEqualTo(200);
        assertThat(caches.body()).contains("\"products\":{\"target\":\"io.zaris.client.ZarisClient\"}");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(TIMEOUT);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The raw JSON text of one top-level field of a flat object (strings keep their quotes). Enough for
     * these small answers without a JSON library in the test.
     */
    private static String jsonField(String json, String name) {
        String marker = "\"" + name + "\":";
        int start = json.indexOf(marker);
        assertThat(start).as("field %s in %s", name, json).isNotNegative();
        start += marker.length();
        int end = start;
        boolean inString = false;
        while (end < json.length()) {
            char c = json.charAt(end);
            if (c == '"' && json.charAt(end - 1) != '\\') {
                inString = !inString;
            } else if (!inString && (c == ',' || c == '}')) {
                break;
            }
            end++;
        }
        return json.substring(start, end).trim();
    }
}
