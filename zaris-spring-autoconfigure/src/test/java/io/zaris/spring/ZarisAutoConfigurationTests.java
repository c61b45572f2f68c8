package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ClientMetrics;
import io.zaris.client.RequestTimeout;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.AckMode;
import io.zaris.model.NodeAddress;
import io.zaris.model.VersionedValue;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.spring.serialization.JsonZarisSerializer;
import io.zaris.spring.serialization.ZarisSerializer;
import io.zaris.spring.template.ZarisTemplate;
import io.zaris.store.EvictionPolicy;
import io.zaris.store.MemoryOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Runs the auto-configuration against real nodes on loopback ports: embedded clusters it starts itself,
 * and one "remote" cluster started here that client mode connects to.
 */
class ZarisAutoConfigurationTests {

    /** Small embedded clusters keep the suite fast; the default size is covered by one test. */
    private static final String[] SMALL_EMBEDDED = {
            "zaris.embedded.nodes=1", "zaris.embedded.partitions=8", "zaris.embedded.segments=64"};

    private static EmbeddedCluster remoteCluster;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class));

    @BeforeAll
    static void startRemoteCluster() {
        remoteCluster = SharedTestCluster.cluster();
    }

    @Test
    void runByDefaultShouldStartEmbeddedClusterAndConnectClientToIt() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(ZarisEmbeddedClusterLifecycle.class).hasSingleBean(ZarisClient.class);
            ZarisEmbeddedClusterLifecycle lifecycle = context.getBean(ZarisEmbeddedClusterLifecycle.class);
            assertThat(lifecycle.isRunning()).isTrue();
            assertThat(lifecycle.seeds()).hasSize(3);
            assertThat(context.getBean(ZarisClient.class).clusterView().addresses()).hasSize(3);

            ZarisClient client = context.getBean(ZarisClient.class);
            long version = client.sync().put("greeting", utf8("hello"));
            Optional<VersionedValue> read = client.sync().get("greeting");
            assertThat(read).hasValueSatisfying(value -> {
                assertThat(text(value)).isEqualTo("hello");
                assertThat(value.version()).isEqualTo(version);
            });
        });
    }

    @Test
    void runWithEmbeddedPropertiesShouldSizeTheCluster() {
        runner.withPropertyValues("zaris.embedded.nodes=2", "zaris.embedded.replication-factor=1",
                "zaris.embedded.partitions=4", "zaris.embedded.segments=16").run(context -> {
            ZarisEmbeddedClusterLifecycle lifecycle = context.getBean(ZarisEmbeddedClusterLifecycle.class);
            assertThat(lifecycle.cluster().nodes()).hasSize(2);
            ZarisNode node = lifecycle.cluster().nodes().get(0);
            assertThat(node.currentView().layout().partitionCount()).isEqualTo(4);
            assertThat(node.currentView().layout().segmentCount()).isEqualTo(16);
            assertThat(node.currentView().partitionMap().replicationFactor()).isEqualTo(1);
        });
    }

    @Test
    void embeddedAckModePropertiesShouldReachTheReplicationSettings() {
        ZarisProperties.Embedded embedded = new ZarisProperties.Embedded();
        assertThat(ZarisAutoConfiguration.replication(embedded).ackMode()).isEqualTo(AckMode.SYNC);
        assertThat(ZarisAutoConfiguration.replication(embedded).minSyncReplicas()).isZero();

        embedded.setAckMode(AckMode.ASYNC);
        embedded.setMinSyncReplicas(1);

        assertThat(ZarisAutoConfiguration.replication(embedded))
                .isEqualTo(new ReplicationSettings(AckMode.ASYNC, 1, ReplicationSettings.DEFAULT_ACK_TIMEOUT,
                        ReplicationSettings.DEFAULT_HEAL_COOLDOWN, ReplicationSettings.DEFAULT_EVICTION_DELAY,
                        ReplicationSettings.DEFAULT_ASYNC_FLUSH_DELAY));
    }

    @Test
    void runWithAsyncAckModeShouldStartAClusterThatServesWrites() {
        runner.withPropertyValues("zaris.embedded.nodes=2", "zaris.embedded.partitions=4", "zaris.embedded.segments=16",
                "zaris.embedded.ack-mode=async").run(context -> {
                    assertThat(context).hasNotFailed();
                    ZarisClient client = context.getBean(ZarisClient.class);
                    client.sync().put("async-ack", new byte[] {7});
                    assertThat(client.sync().get("async-ack")).isPresent();
                });
    }

    @Test
    void runWithBadAckModeOrNegativeMinSyncReplicasShouldFailNamingTheProperty() {
        runner.withPropertyValues("zaris.embedded.ack-mode=sometimes").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.embedded.ack-mode");
        });
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.min-sync-replicas=-1").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.embedded.min-sync-replicas");
        });
    }

    @Test
    void embeddedRebalancePropertiesShouldBeCheckedAndPassedOn() {
        ZarisProperties.Embedded embedded = new ZarisProperties.Embedded();
        assertThat(ZarisAutoConfiguration.joinSettleDelay(embedded)).isEqualTo(Duration.ofSeconds(10));
        assertThat(ZarisAutoConfiguration.maxConcurrentMoves(embedded)).isEqualTo(8);

        embedded.setJoinSettleDelay(Duration.ZERO);
        embedded.setMaxConcurrentMoves(1);

        assertThat(ZarisAutoConfiguration.joinSettleDelay(embedded)).isZero();
        assertThat(ZarisAutoConfiguration.maxConcurrentMoves(embedded)).isEqualTo(1);
    }

    @Test
    void runWithNegativeJoinSettleDelayOrNoConcurrentMovesShouldFailNamingTheProperty() {
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.join-settle-delay=-1s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.embedded.join-settle-delay must be 0 or more");
        });
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.max-concurrent-moves=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .hasStackTraceContaining("zaris.embedded.max-concurrent-moves must be at least 1 but was 0");
        });
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.max-concurrent-moves=-3").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.embedded.max-concurrent-moves");
        });
    }

    @Test
    void runWithMaxMemoryAndEvictionPolicyShouldConfigureEveryEmbeddedNode() {
        runner.withPropertyValues("zaris.embedded.nodes=2", "zaris.embedded.partitions=8", "zaris.embedded.segments=64",
                "zaris.embedded.max-memory=8MB", "zaris.embedded.eviction-policy=volatile-ttl").run(context -> {
            assertThat(context).hasNotFailed();
            List<ZarisNode> nodes = context.getBean(ZarisEmbeddedClusterLifecycle.class).cluster().nodes();
            assertThat(nodes).hasSize(2).allSatisfy(node -> {
                assertThat(node.memoryStats().maxBytes()).isEqualTo(8L << 20);
                assertThat(node.memoryStats().policy()).isEqualTo(EvictionPolicy.VOLATILE_TTL);
            });
        });
    }

    @Test
    void memoryShouldDefaultToAShareOfTheHeapPerNodeAndTakeSizesOrPercentagesOfTheHeap() {
        long heap = 1000L << 20;
        ZarisProperties.Embedded embedded = new ZarisProperties.Embedded();
        embedded.setNodes(4);
        MemoryOptions defaults = ZarisAutoConfiguration.memory(embedded, heap);
        assertThat(defaults.maxBytes()).isEqualTo(MemoryOptions.defaultMaxBytes(4));
        assertThat(defaults.policy()).isEqualTo(EvictionPolicy.ALLKEYS_LRU);

        embedded.setMaxMemory("10%");
        assertThat(ZarisAutoConfiguration.memory(embedded, heap).maxBytes()).isEqualTo(heap / 10);
        embedded.setMaxMemory("512k");
        assertThat(ZarisAutoConfiguration.memory(embedded, heap).maxBytes()).isEqualTo(512 * 1024);
        embedded.setMaxMemory("2GB");
        embedded.setEvictionPolicy("NOEVICTION");
        MemoryOptions configured = ZarisAutoConfiguration.memory(embedded, heap);
        assertThat(configured.maxBytes()).isEqualTo(2L << 30);
        assertThat(configured.policy()).isEqualTo(EvictionPolicy.NOEVICTION);
    }

    @Test
    void runWithABadMaxMemoryOrEvictionPolicyShouldFailNamingThePropertyAndWhatItTakes() {
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.max-memory=lots").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining(
                    "zaris.embedded.max-memory: a memory size must be bytes, NNk, NNm, NNg or NN% but was 'lots'");
        });
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.max-memory=150%").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining(
                    "zaris.embedded.max-memory: a memory percentage must be in (0, 100] but was '150%'");
        });
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.max-memory=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining(
                    "zaris.embedded.max-memory: a memory size must be positive but was '0'");
        });
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.eviction-policy=lru").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.embedded.eviction-policy: eviction"
                    + " policy must be one of noeviction, allkeys-lru, volatile-lru, volatile-ttl but was 'lru'");
        });
    }

    @Test
    void closeShouldStopTheEmbeddedCluster() {
        ZarisEmbeddedClusterLifecycle[] captured = new ZarisEmbeddedClusterLifecycle[1];
        runner.withPropertyValues(SMALL_EMBEDDED)
                .run(context -> captured[0] = context.getBean(ZarisEmbeddedClusterLifecycle.class));

        assertThat(captured[0].isRunning()).isFalse();
        assertThat(captured[0].cluster().nodes()).noneMatch(ZarisNode::isRunning);
    }

    @Test
    void closeShouldDestroyBeansThatUseTheClientThenTheClientThenTheNodes() {
        ShutdownRecorder[] recorder = new ShutdownRecorder[1];
        runner.withPropertyValues(SMALL_EMBEDDED).withUserConfiguration(ShutdownOrderConfiguration.class)
                .run(context -> recorder[0] = context.getBean(ShutdownRecorder.class));

        assertThat(recorder[0].events).containsExactly(
                "farewell written: true",
                "client closes, nodes running: true",
                "nodes close");
        assertThat(recorder[0].cluster.cluster().nodes()).noneMatch(ZarisNode::isRunning);
    }

    @Test
    void closeShouldCloseAnApplicationDefinedClientBeforeTheNodesToo() {
        ShutdownRecorder[] recorder = new ShutdownRecorder[1];
        runner.withPropertyValues(SMALL_EMBEDDED)
                .withUserConfiguration(LazySeedsClientConfiguration.class, ShutdownOrderConfiguration.class)
                .run(context -> {
                    assertThat(context.getBean(ZarisClient.class)).isSameAs(context.getBean("lazySeedsClient"));
                    recorder[0] = context.getBean(ShutdownRecorder.class);
                });

        assertThat(recorder[0].events).containsExactly(
                "farewell written: true",
                "client closes, nodes running: true",
                "nodes close");
    }

    @Test
    void pauseAndRestartOfTheContextShouldKeepTheEmbeddedClusterAndClientWorking() {
        runner.withPropertyValues(SMALL_EMBEDDED).run(context -> {
            ZarisEmbeddedClusterLifecycle lifecycle = context.getBean(ZarisEmbeddedClusterLifecycle.class);

            context.getSourceApplicationContext().pause();
            assertThat(lifecycle.isRunning()).isTrue();
            context.getSourceApplicationContext().restart();

            assertThat(lifecycle.isRunning()).isTrue();
            assertThat(context.getBean(ZarisClient.class).sync().put("after-restart", utf8("ok"))).isPositive();
        });
    }

    @Test
    void runWhenClientCreationFailsShouldStillStopTheEmbeddedCluster() {
        ZarisEmbeddedClusterLifecycle lifecycle = new ZarisEmbeddedClusterLifecycle(
                EmbeddedCluster.builder().nodes(1).layout(PartitionLayout.of(64, 8)).build());
        runner.withBean(ZarisEmbeddedClusterLifecycle.class, () -> lifecycle)
                .withPropertyValues("zaris.request-timeout=0s")
                .run(context -> assertThat(context).hasFailed());

        assertThat(lifecycle.cluster().nodes()).hasSize(1).noneMatch(ZarisNode::isRunning);
    }

    @Test
    void runWithClientSeedsShouldConnectToThemWithoutStartingNodes() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster)).run(context -> {
            assertThat(context).doesNotHaveBean(ZarisEmbeddedClusterLifecycle.class).hasSingleBean(ZarisClient.class);
            assertThat(context.getBean(ZarisProperties.class).resolveMode()).isEqualTo(ZarisProperties.Mode.CLIENT);

            context.getBean(ZarisClient.class).sync().put("client-mode", utf8("remote"));
            try (ZarisClient direct = ZarisClient.connect(ZarisClientOptions.create(remoteCluster.seeds()))) {
                assertThat(direct.sync().get("client-mode")).map(ZarisAutoConfigurationTests::text)
                        .hasValue("remote");
            }
        });
    }

    @Test
    void runInClientModeWithoutSeedsShouldFailNamingTheSeedsProperty() {
        runner.withPropertyValues("zaris.mode=client").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidZarisPropertyException.class)
                    .hasMessageContaining("zaris.client.seeds");
        });
    }

    @Test
    void runInEmbeddedModeShouldIgnoreClientSeeds() {
        runner.withPropertyValues(SMALL_EMBEDDED)
                .withPropertyValues("zaris.mode=embedded", "zaris.client.seeds=" + seedsOf(remoteCluster))
                .run(context -> {
                    assertThat(context).hasSingleBean(ZarisEmbeddedClusterLifecycle.class);
                    assertThat(context.getBean(ZarisClient.class).clusterView().addresses().values())
                            .containsExactlyInAnyOrderElementsOf(
                                    context.getBean(ZarisEmbeddedClusterLifecycle.class).seeds());
                });
    }

    @Test
    void runWithUserDefinedClientShouldBackOff() {
        runner.withPropertyValues(SMALL_EMBEDDED).withUserConfiguration(CustomClientConfiguration.class)
                .run(context -> {
                    assertThat(context).hasSingleBean(ZarisClient.class);
                    assertThat(context.getBean(ZarisClient.class)).isSameAs(context.getBean("customZarisClient"));
                    assertThat(context.getBean(ZarisClient.class).sync().put("custom", utf8("yes"))).isPositive();
                });
    }

    @Test
    void runWithUserDefinedEmbeddedClusterShouldBackOff() {
        runner.withUserConfiguration(CustomEmbeddedClusterConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(ZarisEmbeddedClusterLifecycle.class);
            ZarisEmbeddedClusterLifecycle lifecycle = context.getBean(ZarisEmbeddedClusterLifecycle.class);
            assertThat(lifecycle).isSameAs(context.getBean("customEmbeddedCluster"));
            assertThat(lifecycle.cluster().nodes()).hasSize(1);
        });
    }

    @Test
    void runWithInvalidSeedShouldFailNamingIt() {
        runner.withPropertyValues("zaris.client.seeds=no-port-here").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("no-port-here");
        });
    }

    @Test
    void clientOptionsShouldCarryEveryClientProperty() {
        ZarisProperties properties = new ZarisProperties();
        properties.setRequestTimeout(RequestTimeout.valueOf("7s"));
        properties.getClient().setConnectTimeout(Duration.ofMillis(250));
        properties.getClient().setBootstrapTimeout(Duration.ofSeconds(3));
        properties.getClient().setMapRefreshInterval(Duration.ofSeconds(2));
        properties.getClient().setMapRefreshWait(Duration.ofMillis(700));
        properties.getClient().setMaxAttempts(5);
        properties.getClient().setRetryBackoff(Duration.ofMillis(20));
        properties.getClient().setDisableRetries(true);
        properties.getClient().setConnectionsPerNode(3);
        List<NodeAddress> seeds = List.of(new NodeAddress("10.0.0.1", 7101));

        ZarisClientOptions options = ZarisAutoConfiguration.clientOptions(properties, seeds, ClientMetrics.disabled());

        assertThat(options.seeds()).isEqualTo(seeds);
        assertThat(options.clientName()).isEqualTo(ZarisAutoConfiguration.CLIENT_NAME);
        assertThat(options.requestTimeout()).isEqualTo(RequestTimeout.of(Duration.ofSeconds(7)));
        assertThat(options.connectTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(options.bootstrapTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(options.mapRefreshInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(options.mapRefreshWait()).isEqualTo(Duration.ofMillis(700));
        assertThat(options.maxAttempts()).isEqualTo(5);
        assertThat(options.retryBackoff()).isEqualTo(Duration.ofMillis(20));
        assertThat(options.retriesDisabled()).isTrue();
        assertThat(options.connectionsPerNode()).isEqualTo(3);
        assertThat(options.metrics()).isSameAs(ClientMetrics.disabled());
    }

    @Test
    void runWithClientPropertiesShouldConnectAClientWithThoseOptions() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster), "zaris.request-timeout=7s",
                "zaris.client.connect-timeout=250ms", "zaris.client.bootstrap-timeout=3s",
                "zaris.client.map-refresh-interval=2s", "zaris.client.map-refresh-wait=700ms",
                "zaris.client.max-attempts=5", "zaris.client.retry-backoff=20ms", "zaris.client.disable-retries=true",
                "zaris.client.connections-per-node=3", "zaris.client.direct-read-connections-per-node=9").run(context -> {
                    ZarisClientOptions options = context.getBean(ZarisClient.class).options();
                    assertThat(options.seeds()).containsExactlyElementsOf(remoteCluster.seeds());
                    assertThat(options.clientName()).isEqualTo(ZarisAutoConfiguration.CLIENT_NAME);
                    assertThat(options.requestTimeout()).isEqualTo(RequestTimeout.of(Duration.ofSeconds(7)));
                    assertThat(options.connectTimeout()).isEqualTo(Duration.ofMillis(250));
                    assertThat(options.bootstrapTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(options.mapRefreshInterval()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(options.mapRefreshWait()).isEqualTo(Duration.ofMillis(700));
                    assertThat(options.maxAttempts()).isEqualTo(5);
                    assertThat(options.retryBackoff()).isEqualTo(Duration.ofMillis(20));
                    assertThat(options.retriesDisabled()).isTrue();
                    assertThat(options.connectionsPerNode()).isEqualTo(3);
                    assertThat(options.directReadConnectionsPerNode()).isEqualTo(9);
                    assertThat(context.getBean(ZarisClient.class).sync().put("options-run", utf8("ok"))).isPositive();
                });
    }

    @Test
    void runWithoutNearCachePropertiesShouldLeaveTheNearCacheOff() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster)).run(context ->
                assertThat(context.getBean(ZarisClient.class).options().nearCache().enabled()).isFalse());
    }

    @Test
    void runWithNearCachePropertiesShouldGiveTheClientANearCacheThatAnswersRepeatedReads() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster), "zaris.cache.near-cache.enabled=true",
                "zaris.cache.near-cache.max-entries=500", "zaris.cache.near-cache.max-bytes=2MB").run(context -> {
                    ZarisClient client = context.getBean(ZarisClient.class);
                    assertThat(client.options().nearCache().enabled()).isTrue();
                    assertThat(client.options().nearCache().maxEntries()).isEqualTo(500);
                    assertThat(client.options().nearCache().maxBytes()).isEqualTo(2L * 1024 * 1024);
                    client.sync().put("near-cache-property-run", utf8("ok"));
                    client.sync().get("near-cache-property-run");
                    client.sync().get("near-cache-property-run");
                    assertThat(client.nearCacheStats().hits()).isEqualTo(1);
                });
    }

    @Test
    void clientOptionsCustomizersShouldAdjustTheClientInOrderOverTheProperties() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster), "zaris.client.max-attempts=5")
                .withUserConfiguration(ClientCustomizers.class)
                .run(context -> {
                    ZarisClientOptions options = context.getBean(ZarisClient.class).options();
                    assertThat(options.attemptTimeout()).isEqualTo(Duration.ofMillis(1500));
                    assertThat(options.ackMode()).isEqualTo(AckMode.ASYNC);
                    assertThat(options.lostWriteListener()).isSameAs(ClientCustomizers.LOST_WRITE_LISTENER);
                    // The second customizer (order 2) wins over the first and both win over the property.
                    assertThat(options.maxAttempts()).isEqualTo(7);
                    assertThat(options.seeds()).containsExactlyElementsOf(remoteCluster.seeds());
                    assertThat(context.getBean(ZarisClient.class).sync().put("customized", utf8("ok"))).isPositive();
                });
    }

    @Test
    void embeddedClusterCustomizersShouldAdjustTheClusterOverTheProperties() {
        runner.withPropertyValues(SMALL_EMBEDDED)
                .withBean(EmbeddedClusterCustomizer.class, () -> builder -> builder.nodes(2).resp(true))
                .run(context -> {
                    EmbeddedCluster cluster = context.getBean(ZarisEmbeddedClusterLifecycle.class).cluster();
                    assertThat(cluster.nodes()).hasSize(2);
                    assertThat(cluster.respSeeds()).hasSize(2);
                    assertThat(context.getBean(ZarisClient.class).clusterView().addresses()).hasSize(2);
                });
    }

    @Test
    void runInClientModeShouldNotCallEmbeddedClusterCustomizers() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster))
                .withBean(EmbeddedClusterCustomizer.class, () -> builder -> {
                    throw new AssertionError("no embedded cluster in client mode");
                })
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ZarisEmbeddedClusterLifecycle.class));
    }

    @Test
    void clientOptionsCustomizerSettingABadValueShouldFailStartUpWithTheBuildersMessage() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster))
                .withBean(ZarisClientOptionsCustomizer.class, () -> builder -> builder.maxAttempts(0))
                .run(context -> assertThat(context.getStartupFailure()).hasStackTraceContaining("maxAttempts"));
    }

    @Configuration(proxyBeanMethods = false)
    static class ClientCustomizers {

        static final java.util.function.Consumer<io.zaris.client.LostWrite> LOST_WRITE_LISTENER = lost -> { };

        @Bean
        @org.springframework.core.annotation.Order(2)
        ZarisClientOptionsCustomizer lastCustomizer() {
            return builder -> builder.maxAttempts(7);
        }

        @Bean
        @org.springframework.core.annotation.Order(1)
        ZarisClientOptionsCustomizer firstCustomizer() {
            return builder -> builder.maxAttempts(3).attemptTimeout(Duration.ofMillis(1500)).ackMode(AckMode.ASYNC)
                    .lostWriteListener(LOST_WRITE_LISTENER);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            zaris.embedded.nodes=0                  | zaris.embedded.nodes: an embedded cluster has 1..64 nodes, not 0
            zaris.embedded.nodes=65                 | zaris.embedded.nodes: an embedded cluster has 1..64 nodes, not 65
            zaris.embedded.replication-factor=0     | zaris.embedded.replication-factor: replicationFactor must be >= 1
            zaris.embedded.segments=0               | zaris.embedded.segments: segmentCount must be between 1 and
            zaris.embedded.segments=20000           | zaris.embedded.segments: segmentCount must be between 1 and
            zaris.embedded.partitions=0             | zaris.embedded.partitions: partitionCount must be between 1 and
            zaris.embedded.partitions=65            | zaris.embedded.partitions: partitionCount must be between 1 and
            zaris.embedded.nodes=many               | zaris.embedded.nodes
            """)
    void runWithBadEmbeddedValueShouldFailNamingTheProperty(String property, String message) {
        runner.withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.segments=64", "zaris.embedded.partitions=8")
                .withPropertyValues(property).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining(message);
                });
    }

    /** Client mode with a seed nobody listens on: the options are refused before any connection is tried. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            zaris.client.connect-timeout=0s         | zaris.client.connect-timeout: connectTimeout must be positive
            zaris.client.connect-timeout=soon       | zaris.client.connect-timeout
            zaris.client.bootstrap-timeout=-1s      | zaris.client.bootstrap-timeout: bootstrapTimeout must be positive
            zaris.client.map-refresh-interval=0ms   | zaris.client.map-refresh-interval: mapRefreshInterval must be positive
            zaris.client.map-refresh-wait=0s        | zaris.client.map-refresh-wait: mapRefreshWait must be positive
            zaris.client.retry-backoff=-5ms         | zaris.client.retry-backoff: retryBackoff must be >= 0
            zaris.client.connections-per-node=0     | zaris.client.connections-per-node: connectionsPerNode must be between 1 and 64
            zaris.client.connections-per-node=65    | zaris.client.connections-per-node: connectionsPerNode must be between 1 and 64
            zaris.client.direct-read-connections-per-node=-1 | zaris.client.direct-read-connections-per-node: directReadConnectionsPerNode must be between 0 and 256
            zaris.cache.near-cache.enabled=true,zaris.cache.near-cache.max-entries=0 | zaris.cache.near-cache.max-entries: near cache maxEntries must be >= 1
            zaris.cache.near-cache.enabled=true,zaris.cache.near-cache.max-bytes=0B  | zaris.cache.near-cache.max-bytes: near cache maxBytes must be >= 1
            """)
    void runWithBadClientValueShouldFailNamingTheProperty(String property, String message) {
        runner.withPropertyValues("zaris.client.seeds=127.0.0.1:1").withPropertyValues(property.split(",")).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining(message);
        });
    }

    @Test
    void runWithUserDefinedTemplateShouldBackOff() {
        ZarisTemplate custom = new ZarisTemplate(SharedTestCluster.client(),
                new JdkZarisSerializer(ClassAllowList.of(List.of()), null));
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster))
                .withBean("customTemplate", ZarisTemplate.class, () -> custom)
                .run(context -> {
                    assertThat(context).hasSingleBean(ZarisTemplate.class);
                    assertThat(context.getBean(ZarisTemplate.class)).isSameAs(custom);
                });
    }

    @Test
    void runWithUserDefinedRoutingTableWatchShouldBackOffAndBeTheOneTheClientReportsTo() {
        java.time.Instant fixed = java.time.Instant.parse("2026-01-01T00:00:00Z");
        ZarisRoutingTableWatch custom = new ZarisRoutingTableWatch(java.time.Clock.fixed(fixed, java.time.ZoneOffset.UTC));
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster))
                .withBean("customWatch", ZarisRoutingTableWatch.class, () -> custom)
                .run(context -> {
                    assertThat(context).hasSingleBean(ZarisRoutingTableWatch.class);
                    assertThat(context.getBean(ZarisRoutingTableWatch.class)).isSameAs(custom);
                    assertThat(custom.lastPublication()).isNotNull();
                    assertThat(custom.lastPublication().at()).isEqualTo(fixed);
                });
    }

    @Test
    void runWithInfiniteRequestTimeoutShouldBindAndReachTheClient() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster), "zaris.request-timeout=infinite",
                "zaris.client.max-attempts=2").run(context -> {
                    assertThat(context).hasNotFailed();
                    ZarisProperties properties = context.getBean(ZarisProperties.class);
                    assertThat(properties.getRequestTimeout().isInfinite()).isTrue();
                    assertThat(ZarisAutoConfiguration.clientOptions(properties, remoteCluster.seeds(),
                            ClientMetrics.disabled()).requestTimeout()).isEqualTo(RequestTimeout.INFINITE);
                    assertThat(context.getBean(ZarisClient.class).sync().put("infinite", utf8("ok"))).isPositive();
                });
    }

    @Test
    void runWithUnparseableRequestTimeoutShouldFailNamingTheProperty() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster), "zaris.request-timeout=soon")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.request-timeout")
                            .hasStackTraceContaining("infinite");
                });
    }

    @Test
    void runWithOutOfRangeMaxAttemptsShouldFailNamingTheSetting() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster), "zaris.client.max-attempts=0")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.client.max-attempts: maxAttempts");
                });
    }

    @Test
    void runShouldProvideTemplateSerializerAndRoutingTableWatch() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster)).run(context -> {
            assertThat(context).hasSingleBean(ZarisTemplate.class).hasSingleBean(JdkZarisSerializer.class)
                    .hasSingleBean(ZarisRoutingTableWatch.class);
            assertThat(context.getBean(ZarisRoutingTableWatch.class).lastPublication()).isNotNull();
            assertThat(context.getBean(JdkZarisSerializer.class).allowList().patterns())
                    .containsAll(ClassAllowList.BUILT_IN);
        });
    }

    @Test
    void runWithJsonFormatShouldUseTheJsonSerializer() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster), "zaris.serialization.format=json",
                "zaris.serialization.allowed-classes=com.acme.**").run(context -> {
                    assertThat(context).hasSingleBean(ZarisSerializer.class);
                    assertThat(context.getBean(ZarisSerializer.class)).isInstanceOf(JsonZarisSerializer.class);
                });
    }

    @Test
    void runWithJsonFormatWithoutJacksonShouldFailSayingWhatToAdd() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster), "zaris.serialization.format=json")
                .withClassLoader(new FilteredClassLoader("tools.jackson"))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("zaris.serialization.format")
                            .hasMessageContaining("jackson-databind");
                });
    }

    @Test
    void runWithBadAllowedClassPatternShouldFailNamingIt() {
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster),
                "zaris.serialization.allowed-classes=!com.evil.*").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("!com.evil.*");
                });
    }

    @Test
    void runWithUserDefinedSerializerShouldBackOff() {
        ZarisSerializer custom = new JdkZarisSerializer(ClassAllowList.of(List.of()), null);
        runner.withPropertyValues("zaris.client.seeds=" + seedsOf(remoteCluster))
                .withBean("customSerializer", ZarisSerializer.class, () -> custom)
                .run(context -> assertThat(context.getBean(ZarisSerializer.class)).isSameAs(custom));
    }

    @Test
    void configuredSeedsShouldParseHostPortAndSkipBlanks() {
        ZarisProperties.Client client = new ZarisProperties.Client();
        client.setSeeds(List.of("10.0.0.1:7101", " ", "node-b:7102"));

        assertThat(ZarisAutoConfiguration.configuredSeeds(client))
                .containsExactly(new NodeAddress("10.0.0.1", 7101), new NodeAddress("node-b", 7102));
    }

    private static String seedsOf(EmbeddedCluster cluster) {
        return cluster.seeds().stream().map(NodeAddress::toString).collect(Collectors.joining(","));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(VersionedValue value) {
        return new String(value.value(), StandardCharsets.UTF_8);
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomClientConfiguration {

        /** The documented way to customize the client in embedded mode: take the seeds from the lifecycle. */
        @Bean(destroyMethod = "close")
        ZarisClient customZarisClient(ZarisEmbeddedClusterLifecycle embeddedCluster) {
            return ZarisClient.connect(ZarisClientOptions.builder()
                    .seeds(embeddedCluster.seeds())
                    .clientName("custom")
                    .build());
        }
    }

    /**
     * A client that reaches the embedded cluster through an {@code ObjectProvider}, declaring no dependency
     * on it: it still closes first, because it was created after the cluster.
     */
    @Configuration(proxyBeanMethods = false)
    static class LazySeedsClientConfiguration {

        @Bean(destroyMethod = "close")
        ZarisClient lazySeedsClient(org.springframework.beans.factory.ObjectProvider<ZarisEmbeddedClusterLifecycle> cluster) {
            return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.getObject().seeds()).build());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ShutdownOrderConfiguration {

        @Bean
        static ShutdownRecorder shutdownRecorder() {
            return new ShutdownRecorder();
        }

        @Bean
        FarewellWriter farewellWriter(ZarisTemplate template, ShutdownRecorder recorder) {
            return new FarewellWriter(template, recorder);
        }
    }

    /**
     * Records, in destruction order, what the beans of interest see as they are destroyed. The context is
     * closed by one thread, which is the only writer of {@code events}; the test reads it after the close.
     */
    static final class ShutdownRecorder implements org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor {

        final List<String> events = new java.util.ArrayList<>();
        ZarisEmbeddedClusterLifecycle cluster;

        @Override
        public Object postProcessAfterInitialization(Object bean, String beanName) {
            if (bean instanceof ZarisEmbeddedClusterLifecycle lifecycle) {
                cluster = lifecycle;
            }
            return bean;
        }

        @Override
        public void postProcessBeforeDestruction(Object bean, String beanName) {
            if (bean instanceof ZarisClient) {
                events.add("client closes, nodes running: " + cluster.cluster().nodes().stream().allMatch(ZarisNode::isRunning));
            } else if (bean instanceof ZarisEmbeddedClusterLifecycle) {
                events.add("nodes close");
            }
        }
    }

    /** An application bean that writes through the cluster while it is destroyed. */
    static final class FarewellWriter implements org.springframework.beans.factory.DisposableBean {

        private final ZarisTemplate template;
        private final ShutdownRecorder recorder;

        FarewellWriter(ZarisTemplate template, ShutdownRecorder recorder) {
            this.template = template;
            this.recorder = recorder;
        }

        @Override
        public void destroy() {
            recorder.events.add("farewell written: " + (template.put("farewell", "bye") > 0));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomEmbeddedClusterConfiguration {

        @Bean
        ZarisEmbeddedClusterLifecycle customEmbeddedCluster() {
            return new ZarisEmbeddedClusterLifecycle(EmbeddedCluster.builder().nodes(1).build());
        }
    }
}
