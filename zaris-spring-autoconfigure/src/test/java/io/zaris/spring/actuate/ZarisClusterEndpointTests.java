package io.zaris.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import io.zaris.spring.actuate.ZarisClusterMonitor.OwnershipChange;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code /actuator/zaris}: what it serves, and the ownership changes and rates its monitor records. */
class ZarisClusterEndpointTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class,
                    ZarisClusterEndpointAutoConfiguration.class))
            .withPropertyValues("zaris.embedded.nodes=3", "zaris.embedded.partitions=16", "zaris.embedded.segments=64",
                    "zaris.embedded.join-settle-delay=1s");

    @Test
    void endpointShouldExistOnlyWhenExposed() {
        runner.run(context -> assertThat(context).doesNotHaveBean(ZarisClusterEndpoint.class)
                .doesNotHaveBean(ZarisClusterMonitor.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=zaris")
                .run(context -> assertThat(context).hasSingleBean(ZarisClusterEndpoint.class)
                        .hasSingleBean(ZarisClusterMonitor.class));
    }

    @Test
    @SuppressWarnings("unchecked")
    void endpointShouldServeNodesPartitionsAndRoles() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=zaris").run(context -> {
            Map<String, Object> state = context.getBean(ZarisClusterEndpoint.class).cluster();

            assertThat(state).containsEntry("mode", "embedded").containsKeys("partitionMapVersion", "epochSum",
                    "leader", "recentChanges");
            Map<String, Map<String, Object>> nodes = (Map<String, Map<String, Object>>) state.get("nodes");
            assertThat(nodes).containsOnlyKeys("node-1", "node-2", "node-3");
            assertThat(nodes.values()).allSatisfy(node -> assertThat(node).containsEntry("running", true)
                    .containsKeys("address", "primary", "replica", "opsPerSecond"));
            List<Map<String, Object>> partitions = (List<Map<String, Object>>) state.get("partitions");
            assertThat(partitions).hasSize(16).allSatisfy(partition -> {
                assertThat(partition.get("health")).isEqualTo("HEALTHY");
                assertThat((List<String>) partition.get("owners")).hasSize(2).contains((String) partition.get("active"));
            });
            // Every partition is primary on exactly one node and a replica on another.
            assertThat(nodes.values().stream().mapToInt(node -> ((List<Integer>) node.get("primary")).size()).sum())
                    .isEqualTo(16);
            assertThat(nodes.values().stream().mapToInt(node -> ((List<Integer>) node.get("replica")).size()).sum())
                    .isEqualTo(16);
        });
    }

    @Test
    void monitorShouldRecordFailoversAndMovesAndRatesFromSamples() {
        runner.run(context -> {
            ZarisEmbeddedClusterLifecycle lifecycle = context.getBean(ZarisEmbeddedClusterLifecycle.class);
            ZarisClient client = context.getBean(ZarisClient.class);
            SteppingClock clock = new SteppingClock();
            // Sampled by hand (no thread), one second apart on the clock, so the rates are exact.
            ZarisClusterMonitor monitor = new ZarisClusterMonitor(client, lifecycle, clock);
            monitor.sample();
            CompletableFuture.allOf(IntStream.range(0, 300).mapToObj(i -> client.put("endpoint-" + i, new byte[] {1}))
                    .toArray(CompletableFuture[]::new)).join();
            monitor.sample();
            assertThat(monitor.opsPerSecond().values().stream().mapToDouble(Double::doubleValue).sum())
                    .isGreaterThanOrEqualTo(300);

            EmbeddedCluster cluster = lifecycle.cluster();
            cluster.stopNode("node-2");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                monitor.sample();
                assertThat(monitor.recentChanges()).anySatisfy(change ->
                        assertThat(change).extracting(OwnershipChange::from, OwnershipChange::kind)
                                .containsExactly("node-2", "failover"));
            });
            cluster.restartNode("node-2");
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                monitor.sample();
                assertThat(monitor.recentChanges()).anySatisfy(change ->
                        assertThat(change).extracting(OwnershipChange::to, OwnershipChange::kind)
                                .containsExactly("node-2", "move"));
            });
        });
    }

    /** A clock one second further on at every read. */
    private static final class SteppingClock extends Clock {

        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public synchronized Instant instant() {
            now = now.plusSeconds(1);
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
