package io.zaris.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zaris.client.ClientMetrics;
import io.zaris.client.ZarisClient;
import io.zaris.cluster.RebalanceStatus;
import io.zaris.model.PartitionHealth;
import io.zaris.protocol.OpCode;
import io.zaris.server.ZarisNode;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.template.ZarisTemplate;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Flux;

/** Health indicator and meters, on an embedded cluster and against a "remote" one in client mode. */
class ZarisActuatorAutoConfigurationTests {

    private static final String[] SMALL_EMBEDDED = {
            "zaris.embedded.nodes=2", "zaris.embedded.partitions=16", "zaris.embedded.segments=64"};

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class,
                    ZarisHealthContributorAutoConfiguration.class, ZarisMetricsAutoConfiguration.class));

    /** How long a test waits for one health check (the probes time out after 2 s each, in parallel). */
    private static final Duration HEALTH_DEADLINE = Duration.ofSeconds(30);

    /** The zaris component's health through the indicator the starter defines (reactive: Reactor is present). */
    private static Health health(org.springframework.context.ApplicationContext context) {
        return context.getBean("zarisHealthIndicator", ZarisReactiveHealthIndicator.class).health().block(HEALTH_DEADLINE);
    }

    @Test
    void healthInEmbeddedModeShouldReportPartitionsNodesLeaderAndRoutingTable() {
        runner.withPropertyValues(SMALL_EMBEDDED).run(context -> {
            Health health = health(context);

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("mode", "embedded")
                    .containsEntry("partitions", Map.of("HEALTHY", 16, "DEGRADED", 0, "RECOVERING", 0, "UNAVAILABLE", 0))
                    .containsKeys("partitionMapVersion", "epochSum", "routingTable");
            String leader = context.getBean(io.zaris.spring.ZarisEmbeddedClusterLifecycle.class).cluster().nodes()
                    .stream().filter(ZarisNode::isLeader).map(ZarisNode::nodeId).findFirst().orElseThrow();
            assertThat(health.getDetails()).containsEntry("leader", leader);
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> nodes = (Map<String, Map<String, Object>>) health.getDetails().get("nodes");
            assertThat(nodes).hasSize(2);
            assertThat(nodes.values()).allSatisfy(node -> assertThat(node)
                    .containsEntry("reachable", true).containsEntry("running", true).containsKey("keys"));
            // A settled cluster: nothing moves, the leader runs no rebalance.
            assertThat(rebalance(health)).containsEntry("moving", 0).containsEntry("running", false)
                    .containsEntry("remaining", 0).containsEntry("movesStarted", 0).containsEntry("etaSeconds", -1L);
            assertThat((Long) rebalance(health).get("snapshotBytesSent")).isGreaterThanOrEqualTo(0);
        });
    }

    /**
     * A third node joins a two-node cluster holding data and is given its share. The leader moves the 21
     * partitions in well under a second here, too briefly to catch in flight without a race (what an
     * in-flight status looks like is {@link #rebalanceDetailShouldCarryTheLeadersProgress}); the properties
     * show in the partition map instead: the 1 s settle delay lets the map change within 9 s of the join
     * (the default 10 s would not), and the move limit above the partition count moves everything in one
     * map step (the default 8 would take three); a second map drops the previous owners once the moved
     * partitions are healthy on their new primaries.
     */
    @Test
    void healthAndMetersShouldReportTheRebalanceAfterANodeJoins() {
        runner.withPropertyValues("zaris.embedded.nodes=2", "zaris.embedded.partitions=32", "zaris.embedded.segments=64",
                "zaris.embedded.join-settle-delay=1s", "zaris.embedded.max-concurrent-moves=64")
                .withBean(SimpleMeterRegistry.class).run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean(ZarisMeterBinder.class).bindTo(registry);
                    ZarisReactiveHealthIndicator indicator = context.getBean(ZarisReactiveHealthIndicator.class);
                    ZarisClient client = context.getBean(ZarisClient.class);
                    CompletableFuture.allOf(IntStream.range(0, 200)
                            .mapToObj(i -> client.put("rebalance-" + i, new byte[100]))
                            .toArray(CompletableFuture[]::new)).join();
                    Health before = indicator.health().block(HEALTH_DEADLINE);
                    assertThat(before.getStatus()).isEqualTo(Status.UP);
                    assertThat(rebalance(before)).containsEntry("moving", 0).containsEntry("running", false)
                            .containsEntry("remaining", 0);
                    long bytesBefore = (Long) rebalance(before).get("snapshotBytesSent");
                    long versionBefore = (Long) before.getDetails().get("partitionMapVersion");
                    assertThat(registry.get("zaris.rebalance.partitions.remaining").gauge().value()).isZero();
                    assertThat(registry.get("zaris.rebalance.eta").gauge().value()).isNaN();

                    long joinedAt = System.nanoTime();
                    context.getBean(io.zaris.spring.ZarisEmbeddedClusterLifecycle.class).cluster().addNode();

                    await().atMost(Duration.ofSeconds(9).minusNanos(System.nanoTime() - joinedAt))
                            .pollInterval(Duration.ofMillis(100))
                            .until(() -> (Long) indicator.health().block(HEALTH_DEADLINE).getDetails().get("partitionMapVersion") > versionBefore);
                    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                        Health after = indicator.health().block(HEALTH_DEADLINE);
                        assertThat(rebalance(after)).containsEntry("moving", 0).containsEntry("running", false)
                                .containsEntry("remaining", 0).containsEntry("movesStarted", 0)
                                .containsEntry("etaSeconds", -1L);
                        assertThat(after.getStatus()).isEqualTo(Status.UP);
                        assertThat(registry.get("zaris.rebalance.partitions.moving").gauge().value()).isZero();
                        assertThat(registry.get("zaris.rebalance.partitions.remaining").gauge().value()).isZero();
                    });
                    Health after = indicator.health().block(HEALTH_DEADLINE);
                    // At least two map versions (moves, then drops of the previous owners); on a loaded machine the
                    // leader may drop the previous owners in two rounds, as their handovers finish apart.
                    assertThat((Long) after.getDetails().get("partitionMapVersion")).isGreaterThanOrEqualTo(versionBefore + 2);
                    assertThat((Long) rebalance(after).get("snapshotBytesSent")).isGreaterThan(bytesBefore);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> joined = ((Map<String, Map<String, Object>>) after.getDetails().get("nodes"))
                            .get("node-3");
                    assertThat(joined).containsEntry("running", true);
                    assertThat((Long) joined.get("keys")).isPositive();
                    assertThat(registry.get("zaris.rebalance.eta").gauge().value()).isNaN();
                    // node-1 and node-2 sent node-3 its share; node-3 joined after binding and got meters too.
                    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                            registry.get("zaris.node.snapshot.bytes.sent").functionCounters()).hasSize(3));
                    assertThat(registry.get("zaris.node.snapshot.bytes.sent").functionCounters().stream()
                            .mapToDouble(c -> c.count()).sum()).isPositive();
                    assertThat(registry.get("zaris.node.writes.reduced.redundancy").functionCounters()).hasSize(3);
                });
    }

    @Test
    void rebalanceDetailShouldCarryTheLeadersProgress() {
        assertThat(ZarisHealthIndicator.rebalanceDetail(6, new RebalanceStatus(true, 13, 6, 21, 42), 4096L))
                .isEqualTo(Map.of("moving", 6, "running", true, "remaining", 13, "movesStarted", 21,
                        "etaSeconds", 42L, "snapshotBytesSent", 4096L));
        // Embedded, no running node leads right now.
        assertThat(ZarisHealthIndicator.rebalanceDetail(3, null, 0L))
                .isEqualTo(Map.of("moving", 3, "snapshotBytesSent", 0L));
        // Client mode.
        assertThat(ZarisHealthIndicator.rebalanceDetail(2, null, null)).isEqualTo(Map.of("moving", 2));
    }

    @Test
    void etaMeterShouldReadSecondsOnlyWhileARebalanceRunsWithAKnownPace() {
        assertThat(ZarisMeterBinder.etaSeconds(new RebalanceStatus(true, 13, 6, 21, 42))).isEqualTo(42.0);
        assertThat(ZarisMeterBinder.etaSeconds(new RebalanceStatus(true, 21, 8, 8, -1))).isNaN();
        assertThat(ZarisMeterBinder.etaSeconds(RebalanceStatus.IDLE)).isNaN();
    }

    @Test
    void healthInClientModeShouldReportTheRemoteClusterAndItsLeader() {
        String leader = SharedTestCluster.cluster().nodes().stream().filter(ZarisNode::isLeader)
                .map(ZarisNode::nodeId).findFirst().orElseThrow();
        runner.withPropertyValues(SharedTestCluster.seedsProperty()).run(context -> {
            Health health = health(context);

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("mode", "client").containsEntry("leader", leader);
            assertThat((Map<?, ?>) health.getDetails().get("nodes")).hasSize(2);
            // The client sees moves in its routing view; the leader's progress is not reachable from here.
            assertThat(rebalance(health)).isEqualTo(Map.of("moving", 0));
        });
    }

    @Test
    void healthShouldBeDownWhenTheClusterIsGone() {
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.partitions=8",
                "zaris.embedded.segments=64", "zaris.client.max-attempts=1").run(context -> {
                    context.getBean(io.zaris.spring.ZarisEmbeddedClusterLifecycle.class).cluster().stopNode("node-1");

                    Health health = health(context);

                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                });
    }

    @Test
    void statusShouldFollowThePartitionStatesAndReachability() {
        assertThat(ZarisHealthIndicator.statusOf(counts(16, 0, 0, 0), 2)).isEqualTo(Status.UP);
        assertThat(ZarisHealthIndicator.statusOf(counts(15, 1, 0, 0), 2)).isEqualTo(ZarisHealthIndicator.DEGRADED);
        assertThat(ZarisHealthIndicator.statusOf(counts(15, 0, 1, 0), 2)).isEqualTo(ZarisHealthIndicator.DEGRADED);
        assertThat(ZarisHealthIndicator.statusOf(counts(14, 1, 0, 1), 2)).isEqualTo(Status.DOWN);
        assertThat(ZarisHealthIndicator.statusOf(counts(16, 0, 0, 0), 0)).isEqualTo(Status.DOWN);
    }

    @Test
    void runWithHealthIndicatorDisabledShouldNotCreateIt() {
        runner.withPropertyValues(SharedTestCluster.seedsProperty(), "management.health.zaris.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("zarisHealthIndicator"));
    }

    @Test
    void runWithoutReactorShouldDefineTheBlockingIndicatorWithTheSameDetails() {
        runner.withPropertyValues(SMALL_EMBEDDED).withClassLoader(new FilteredClassLoader(Flux.class)).run(context -> {
            assertThat(context).doesNotHaveBean(ZarisReactiveHealthIndicator.class);
            Health health = context.getBean("zarisHealthIndicator", ZarisHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("mode", "embedded").containsKeys("nodes", "partitions");
        });
    }

    @Test
    void reactiveHealthShouldBeServedByBootsHealthEndpointToo() {
        runner.withPropertyValues(SMALL_EMBEDDED).withPropertyValues("management.endpoint.health.show-details=always")
                .withConfiguration(AutoConfigurations.of(HealthContributorRegistryAutoConfiguration.class,
                        HealthEndpointAutoConfiguration.class))
                .run(context -> {
                    HealthDescriptor zaris = context.getBean(HealthEndpoint.class).healthForPath("zaris");
                    assertThat(zaris).isInstanceOf(IndicatedHealthDescriptor.class);
                    assertThat(zaris.getStatus()).isEqualTo(Status.UP);
                    assertThat(((IndicatedHealthDescriptor) zaris).getDetails()).containsEntry("mode", "embedded");
                });
    }

    @Test
    void runWithUserDefinedHealthIndicatorShouldBackOff() {
        runner.withPropertyValues(SharedTestCluster.seedsProperty())
                .withBean("zarisHealthIndicator", org.springframework.boot.health.contributor.HealthIndicator.class,
                        () -> () -> Health.up().build())
                .run(context -> assertThat(context).doesNotHaveBean(ZarisReactiveHealthIndicator.class)
                        .doesNotHaveBean(ZarisHealthIndicator.class));
    }

    @Test
    void runWithNearCacheShouldMeterNearHitsApartFromMisses() {
        runner.withPropertyValues(SMALL_EMBEDDED).withPropertyValues("zaris.cache.near-cache.enabled=true")
                .withBean(SimpleMeterRegistry.class).run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean(ZarisMeterBinder.class).bindTo(registry);
                    ZarisClient client = context.getBean(ZarisClient.class);
                    client.sync().put("near-metered", new byte[] {1});
                    client.sync().get("near-metered"); // miss: asks the owner, keeps the answer
                    client.sync().get("near-metered"); // hit

                    assertThat(registry.get("zaris.client.near.cache.requests").tag("result", "hit").functionCounter()
                            .count()).isEqualTo(1);
                    assertThat(registry.get("zaris.client.near.cache.requests").tag("result", "miss").functionCounter()
                            .count()).isEqualTo(1);
                    assertThat(registry.get("zaris.client.near.cache.invalidations").functionCounter().count())
                            .as("the put dropped its key before and after it was sent").isGreaterThanOrEqualTo(2);
                    assertThat(registry.get("zaris.client.near.cache.entries").gauge().value()).isEqualTo(1);
                    assertThat(registry.get("zaris.client.near.cache.size").gauge().value()).isPositive();
                    assertThat(registry.get("zaris.client.near.cache.evictions").functionCounter().count()).isZero();
                    assertThat(registry.get("zaris.client.near.cache.streams").tag("result", "resumed").functionCounter()
                            .count()).as("no stream moved").isZero();
                    assertThat(registry.get("zaris.client.near.cache.streams").tag("result", "dropped").functionCounter()
                            .count()).isZero();
                });
    }

    @Test
    void runWithoutNearCacheShouldNotRegisterItsMeters() {
        runner.withPropertyValues(SMALL_EMBEDDED).withBean(SimpleMeterRegistry.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            context.getBean(ZarisMeterBinder.class).bindTo(registry);
            assertThat(registry.find("zaris.client.near.cache.requests").functionCounters()).isEmpty();
        });
    }

    @Test
    void runWithMeterRegistryShouldRecordClientAndNodeMeters() {
        runner.withPropertyValues(SMALL_EMBEDDED).withBean(SimpleMeterRegistry.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            context.getBean(ZarisMeterBinder.class).bindTo(registry);
            ZarisClient client = context.getBean(ZarisClient.class);
            client.sync().put("metered", new byte[] {1});

            // The client records a request right after completing its future, on the network thread.
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(registry.get("zaris.client.requests")
                    .tags("op", "put", "status", "ok").timer().count()).isEqualTo(1));
            assertThat(registry.get("zaris.client.routing.table.version").gauge().value()).isPositive();
            assertThat(registry.get("zaris.partitions").tags("state", "healthy").gauge().value()).isEqualTo(16);
            // The owner holds the key; with replication its replica may hold a copy too.
            assertThat(registry.get("zaris.node.keys").gauges().stream().mapToDouble(g -> g.value()).sum())
                    .isBetween(1.0, 2.0);
            assertThat(registry.get("zaris.node.requests.served").functionCounters().stream()
                    .mapToDouble(c -> c.count()).sum()).isGreaterThanOrEqualTo(1);
            // One key of one byte plus its overhead estimate, held by its owner and its replica.
            assertThat(registry.get("zaris.node.memory.used").gauges().stream().mapToDouble(g -> g.value()).sum())
                    .isBetween(io.zaris.store.EntrySize.of(7, 1) * 1.0, io.zaris.store.EntrySize.of(7, 1) * 2.0);
            assertThat(registry.get("zaris.node.memory.budget").gauges()).allSatisfy(g -> assertThat(g.value()).isPositive());
            assertThat(registry.get("zaris.node.evictions").functionCounters()).allSatisfy(c -> assertThat(c.count()).isZero());
            assertThat(registry.get("zaris.node.expirations").functionCounters()).isNotEmpty();
            assertThat(registry.get("zaris.rebalance.partitions.moving").gauge().value()).isZero();
            assertThat(registry.get("zaris.rebalance.partitions.remaining").gauge().value()).isZero();
            assertThat(registry.get("zaris.rebalance.eta").gauge().value()).isNaN();
            assertThat(registry.get("zaris.rebalance.eta").gauge().getId().getBaseUnit()).isEqualTo("seconds");
            assertThat(registry.get("zaris.node.snapshot.bytes.sent").functionCounters()).hasSize(2)
                    .allSatisfy(c -> assertThat(c.count()).isGreaterThanOrEqualTo(0));
        });
    }

    @Test
    void nodeMetersAndHealthShouldFollowNodesAddedAndRestartedAfterStartUp() {
        List<String> refused = new java.util.concurrent.CopyOnWriteArrayList<>();
        runner.withPropertyValues("zaris.embedded.nodes=2", "zaris.embedded.partitions=8", "zaris.embedded.segments=64")
                .withBean(SimpleMeterRegistry.class).run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    registry.config().onMeterRegistrationFailed((id, reason) -> refused.add(id + ": " + reason));
                    context.getBean(ZarisMeterBinder.class).bindTo(registry);
                    io.zaris.embedded.EmbeddedCluster cluster =
                            context.getBean(io.zaris.spring.ZarisEmbeddedClusterLifecycle.class).cluster();
                    assertThat(registry.find("zaris.node.memory.budget").gauges()).hasSize(2);

                    ZarisNode added = cluster.addNode();

                    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(registry
                            .find("zaris.node.memory.budget").tag("node", added.nodeId()).gauge())
                            .isNotNull().satisfies(gauge -> assertThat(gauge.value()).isPositive()));
                    assertThat(nodesDetail(health(context))).containsKey(added.nodeId());

                    // A restarted node is a new instance under the same id: its meters must read it, not the old one.
                    cluster.stopNode("node-1");
                    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(registry
                            .get("zaris.node.memory.budget").tag("node", "node-1").gauge().value()).isNaN());
                    cluster.restartNode("node-1");
                    assertThat(registry.get("zaris.node.memory.budget").tag("node", "node-1").gauge().value())
                            .isPositive();
                    assertThat(registry.find("zaris.node.memory.budget").gauges()).hasSize(3);
                    assertThat(refused).isEmpty();
                });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> nodesDetail(Health health) {
        return (Map<String, Object>) health.getDetails().get("nodes");
    }

    @Test
    void runWithUserDefinedClientMetricsShouldBackOffAndReceiveTheClientsEvents() {
        CountingClientMetrics custom = new CountingClientMetrics();
        runner.withPropertyValues(SharedTestCluster.seedsProperty()).withBean(SimpleMeterRegistry.class)
                .withBean("customClientMetrics", ClientMetrics.class, () -> custom)
                .run(context -> {
                    assertThat(context).hasSingleBean(ClientMetrics.class);
                    context.getBean(ZarisClient.class).sync().put("custom-metrics", new byte[] {1});

                    await().atMost(Duration.ofSeconds(5)).until(() -> custom.requests.get() >= 1);
                    assertThat(custom.publications.get()).isPositive();
                    assertThat(context.getBean(MeterRegistry.class).find("zaris.client.requests").timers()).isEmpty();
                });
    }

    @Test
    void runWithUserDefinedMeterBinderShouldBackOff() {
        runner.withPropertyValues(SharedTestCluster.seedsProperty()).withBean(SimpleMeterRegistry.class)
                .withBean("customMeterBinder", ZarisMeterBinder.class,
                        () -> new ZarisMeterBinder(SharedTestCluster.client(), null, new EntrySizeSample()))
                .run(context -> {
                    assertThat(context).hasSingleBean(ZarisMeterBinder.class);
                    assertThat(context.getBean(ZarisMeterBinder.class)).isSameAs(context.getBean("customMeterBinder"));
                });
    }

    @Test
    void runWithATinyEmbeddedBudgetShouldCountEvictionsAndKeepEveryNodeWithinIt() {
        long budget = 64 * 1024;
        runner.withPropertyValues("zaris.embedded.nodes=2", "zaris.embedded.partitions=16", "zaris.embedded.segments=64",
                "zaris.embedded.max-memory=64KB", "zaris.embedded.eviction-policy=allkeys-lru")
                .withBean(SimpleMeterRegistry.class).run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean(ZarisMeterBinder.class).bindTo(registry);
                    ZarisClient client = context.getBean(ZarisClient.class);
                    // About 500 KiB of values, eight times what each node may hold; every write is acknowledged.
                    for (int i = 0; i < 500; i++) {
                        client.sync().put("tiny-budget-" + i, new byte[1024]);
                    }

                    assertThat(registry.get("zaris.node.memory.budget").gauges()).hasSize(2)
                            .allSatisfy(g -> assertThat(g.value()).isEqualTo(budget));
                    assertThat(registry.get("zaris.node.evictions").functionCounters().stream()
                            .mapToDouble(c -> c.count()).sum()).isGreaterThan(0);
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                            assertThat(registry.get("zaris.node.memory.used").gauges())
                                    .allSatisfy(g -> assertThat(g.value()).isLessThanOrEqualTo(budget)));
                });
    }

    @Test
    void runInClientModeShouldMeterMovingPartitionsButNotTheLeadersProgress() {
        runner.withPropertyValues(SharedTestCluster.seedsProperty()).withBean(SimpleMeterRegistry.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            context.getBean(ZarisMeterBinder.class).bindTo(registry);

            assertThat(registry.get("zaris.rebalance.partitions.moving").gauge().value()).isZero();
            assertThat(registry.find("zaris.rebalance.partitions.remaining").gauge()).isNull();
            assertThat(registry.find("zaris.rebalance.eta").gauge()).isNull();
            assertThat(registry.find("zaris.node.snapshot.bytes.sent").functionCounter()).isNull();
        });
    }

    @Test
    void memoryMetersShouldCountEmbeddedEntriesAndEstimateTheirBytesFromWrittenSizes() {
        runner.withPropertyValues(SMALL_EMBEDDED).withBean(SimpleMeterRegistry.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            context.getBean(ZarisMeterBinder.class).bindTo(registry);
            ZarisTemplate template = context.getBean(ZarisTemplate.class);
            template.put("memory-probe", "x".repeat(2000));

            // Replica copies arrive asynchronously; the entry count includes them.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(registry.get("zaris.memory.entries").gauge().value()).isEqualTo(2.0));
            EntrySizeSample sample = context.getBean(EntrySizeSample.class);
            assertThat(sample.sampledEntries()).isEqualTo(1);
            assertThat(sample.meanEntryBytes()).isGreaterThan(2000);
            assertThat(registry.get("zaris.memory.estimated").gauge().value())
                    .isEqualTo(2 * (sample.meanEntryBytes() + ZarisMeterBinder.ENTRY_OVERHEAD_BYTES));
        });
    }

    @Test
    void entrySizeSampleShouldAverageKeyAndValueBytes() {
        EntrySizeSample sample = new EntrySizeSample();
        assertThat(sample.estimateBytes(10, 96)).isEqualTo(960.0);

        sample.record(10, 90);
        sample.record(20, 280);

        assertThat(sample.meanEntryBytes()).isEqualTo(200.0);
        assertThat(sample.estimateBytes(10, 96)).isEqualTo(2960.0);
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException().isThrownBy(() -> sample.record(-1, 0));
    }

    @Test
    void runWithoutMeterRegistryShouldCreateNoMeters() {
        runner.withPropertyValues(SharedTestCluster.seedsProperty())
                .run(context -> assertThat(context).doesNotHaveBean(ZarisMeterBinder.class)
                        .doesNotHaveBean(io.zaris.client.ClientMetrics.class));
    }

    @Test
    void runWithoutMicrometerOnTheClasspathShouldStillStartWithoutMeters() {
        runner.withPropertyValues(SharedTestCluster.seedsProperty())
                .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ZarisClient.class)
                        .doesNotHaveBean(ZarisMeterBinder.class));
    }

    @Test
    void runWithoutBootHealthOnTheClasspathShouldNotCreateTheIndicator() {
        runner.withPropertyValues(SharedTestCluster.seedsProperty())
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("zarisHealthIndicator"));
    }

    /** Counts what the client reports; its network and map threads call it, hence the atomics. */
    private static final class CountingClientMetrics implements ClientMetrics {

        final AtomicInteger requests = new AtomicInteger();
        final AtomicInteger publications = new AtomicInteger();

        @Override
        public void request(OpCode op, String outcome, long nanos) {
            requests.incrementAndGet();
        }

        @Override
        public void tablePublished(long mapVersion, long epochSum) {
            publications.incrementAndGet();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> rebalance(Health health) {
        assertThat(health.getDetails()).containsKey("rebalance");
        return (Map<String, Object>) health.getDetails().get("rebalance");
    }

    private static Map<PartitionHealth, Integer> counts(int healthy, int degraded, int recovering, int unavailable) {
        Map<PartitionHealth, Integer> counts = new EnumMap<>(PartitionHealth.class);
        counts.put(PartitionHealth.HEALTHY, healthy);
        counts.put(PartitionHealth.DEGRADED, degraded);
        counts.put(PartitionHealth.RECOVERING, recovering);
        counts.put(PartitionHealth.UNAVAILABLE, unavailable);
        return counts;
    }
}
