package io.zaris.spring.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.zaris.client.ZarisClient;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.cache.ZarisCacheAutoConfiguration;
import io.zaris.spring.template.ZarisTemplate;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The observation of client operations in a real application context, against the shared real cluster, with a
 * real (recording) ObservationRegistry.
 */
class ZarisObservationAutoConfigurationTests {

    private final String p = "obs-" + UUID.randomUUID() + ":";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class,
                    ZarisObservationAutoConfiguration.class, ZarisCacheAutoConfiguration.class))
            .withUserConfiguration(CachingOn.class)
            .withPropertyValues(SharedTestCluster.seedsProperty());

    @Test
    void runWithoutThePropertyShouldObserveNothing() {
        runner.withUserConfiguration(RecordingRegistry.class).run(context -> {
            assertThat(context).doesNotHaveBean(ZarisOperationObserver.class);
            context.getBean(ZarisTemplate.class).put(p + "k", "v");

            TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
                    .doesNotHaveAnyObservation();
        });
    }

    @Test
    void runWithThePropertyButNoRegistryShouldNotCreateTheObserver() {
        runner.withPropertyValues("zaris.observation.enabled=true")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ZarisOperationObserver.class));
    }

    @Test
    void templateOperationsShouldBeObservedWithTheirPartitionAndOneAttempt() {
        runner.withUserConfiguration(RecordingRegistry.class).withPropertyValues("zaris.observation.enabled=true")
                .run(context -> {
                    ZarisTemplate template = context.getBean(ZarisTemplate.class);
                    String key = p + "user";
                    template.put(key, "ada");
                    assertThat(template.get(key, String.class)).hasValue("ada");

                    String partition = Integer.toString(partitionOf(context.getBean(ZarisClient.class), key));
                    TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
                    TestObservationRegistryAssert.assertThat(registry)
                            .hasNumberOfObservationsWithNameEqualTo("zaris.client.operation", 2)
                            .hasHandledContextsThatSatisfy(contexts -> {
                                assertThat(contexts).extracting(context1 -> context1.getLowCardinalityKeyValues()
                                                .stream().map(KeyValue::getValue).toList())
                                        .containsExactly(List.of("1", "put", "success", partition),
                                                List.of("1", "get", "success", partition));
                                assertThat(contexts).extracting(Observation.Context::getContextualName)
                                        .containsExactly("zaris put", "zaris get");
                                contexts.forEach(observed -> {
                                    assertThat(observed.getHighCardinalityKeyValues()).isEmpty();
                                    assertThat(observed.getLowCardinalityKeyValues().stream().map(KeyValue::getKey))
                                            .containsExactlyInAnyOrder("operation", "outcome", "attempts",
                                                    "partition");
                                });
                            });
                });
    }

    @Test
    void cacheOperationsShouldBeObservedAsChildrenOfTheCallersObservation() {
        runner.withUserConfiguration(RecordingRegistry.class).withPropertyValues("zaris.observation.enabled=true")
                .run(context -> {
                    Cache books = context.getBean(CacheManager.class).getCache(p + "books");
                    TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
                    Observation request = Observation.start("app.request", registry);
                    try (Observation.Scope scope = request.openScope()) {
                        books.put("isbn-1", "Dune");
                        assertThat(books.get("isbn-1", String.class)).isEqualTo("Dune");
                    } finally {
                        request.stop();
                    }

                    TestObservationRegistryAssert.assertThat(registry)
                            .hasNumberOfObservationsWithNameEqualTo("zaris.client.operation", 2)
                            .forAllObservationsWithNameEqualTo("zaris.client.operation", observation -> observation
                                    .hasParentObservationEqualTo(request)
                                    .hasLowCardinalityKeyValue("outcome", "success")
                                    .hasLowCardinalityKeyValue("attempts", "1")
                                    .doesNotHaveError());
                });
    }

    @Test
    void anOperationRefusedBeforeAnyAttemptShouldBeObservedAsAnErrorWithoutPartition() {
        runner.withUserConfiguration(RecordingRegistry.class).withPropertyValues("zaris.observation.enabled=true")
                .run(context -> {
                    ZarisTemplate template = context.getBean(ZarisTemplate.class);
                    // Keys of different segments cannot be read in one multi-key request: refused on this side.
                    assertThatIllegalArgumentException().isThrownBy(
                            () -> template.getAll(List.of(p + "a", p + "b", p + "c", p + "d"), String.class));

                    TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
                            .hasSingleObservationThat()
                            .hasNameEqualTo("zaris.client.operation")
                            .hasLowCardinalityKeyValue("operation", "get_all")
                            .hasLowCardinalityKeyValue("outcome", "error")
                            .hasLowCardinalityKeyValue("attempts", "0")
                            .hasLowCardinalityKeyValue("partition", "none")
                            .hasError();
                });
    }

    @Test
    void aConventionBeanShouldReplaceTheDefaultOne() {
        runner.withUserConfiguration(RecordingRegistry.class, RenamingConvention.class)
                .withPropertyValues("zaris.observation.enabled=true")
                .run(context -> {
                    context.getBean(ZarisTemplate.class).delete(p + "gone");

                    TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
                            .hasSingleObservationThat().hasNameEqualTo("orders.cache.call");
                });
    }

    @Test
    void withAMeterHandlerEachOperationShouldBeTimedUnderTheObservationsName() {
        runner.withUserConfiguration(TimingRegistry.class).withPropertyValues("zaris.observation.enabled=true")
                .run(context -> {
                    context.getBean(ZarisTemplate.class).put(p + "timed", "v");
                    context.getBean(ZarisTemplate.class).put(p + "timed", "w");

                    Timer puts = context.getBean(SimpleMeterRegistry.class).get("zaris.client.operation")
                            .tags("operation", "put", "outcome", "success", "attempts", "1").timer();
                    assertThat(puts.count()).isEqualTo(2);
                });
    }

    private static int partitionOf(ZarisClient client, String key) {
        PartitionLayout layout = client.clusterView().layout();
        return layout.partitionOf(new SegmentMapper(layout.segmentCount()).segmentOf(key));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class CachingOn {
    }

    @Configuration(proxyBeanMethods = false)
    static class RecordingRegistry {

        @Bean
        TestObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TimingRegistry {

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        ObservationRegistry observationRegistry(SimpleMeterRegistry meters) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
            return registry;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class RenamingConvention {

        @Bean
        ZarisOperationObservationConvention renamingConvention() {
            return new DefaultZarisOperationObservationConvention() {
                @Override
                public String getName() {
                    return "orders.cache.call";
                }
            };
        }
    }
}
