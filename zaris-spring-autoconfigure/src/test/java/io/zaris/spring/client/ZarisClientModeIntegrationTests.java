package io.zaris.spring.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import io.zaris.spring.actuate.ZarisHealthContributorAutoConfiguration;
import io.zaris.spring.actuate.ZarisHealthIndicator;
import io.zaris.spring.actuate.ZarisReactiveHealthIndicator;
import io.zaris.spring.cache.ZarisCacheAutoConfiguration;
import io.zaris.spring.cache.ZarisCacheManager;
import io.zaris.spring.template.CasOutcome;
import io.zaris.spring.template.ZarisTemplate;
import io.zaris.spring.template.ZarisValue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A Spring context in client mode ({@code zaris.client.seeds}) against three standalone server processes:
 * {@code @Cacheable}, {@code ZarisTemplate} and health over real TCP, then a {@code kill -9} of one node:
 * health turns DEGRADED and the application keeps being served.
 */
@Tag("multi-process")
class ZarisClientModeIntegrationTests {

    private static StandaloneServers servers;
    private static List<String> seeds;

    @BeforeAll
    static void startServers() throws Exception {
        servers = new StandaloneServers(Path.of("target", "client-mode-servers"));
        // Three copies of every partition: after one node dies each partition still has a replica, so SYNC
        // writes (the servers' default) keep being acknowledged.
        seeds = servers.start(3, 3, 16, 64);
        StandaloneServers.awaitEveryPartitionWritable(seeds, Duration.ofSeconds(120));
    }

    @AfterAll
    static void stopServers() {
        if (servers != null) {
            servers.close();
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class, ZarisCacheAutoConfiguration.class,
                    CacheAutoConfiguration.class, ZarisHealthContributorAutoConfiguration.class))
            .withUserConfiguration(PriceService.Config.class);

    @Test
    @SuppressWarnings("unchecked")
    void clientModeContextShouldCacheTemplateAndReportHealthThroughANodeLoss() {
        runner.withPropertyValues("zaris.client.seeds=" + String.join(",", seeds),
                "zaris.cache.caches.prices.time-to-live=10m").run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(ZarisEmbeddedClusterLifecycle.class);
                    PriceService prices = context.getBean(PriceService.class);
                    ZarisTemplate template = context.getBean(ZarisTemplate.class);
                    ZarisReactiveHealthIndicator health = context.getBean(ZarisReactiveHealthIndicator.class);

                    // @Cacheable: one load per key, then hits served by the remote cluster.
                    assertThat(prices.price("apple")).isEqualTo(5);
                    assertThat(prices.price("apple")).isEqualTo(5);
                    assertThat(prices.loads()).isEqualTo(1);
                    ZarisCacheManager caches = context.getBean(ZarisCacheManager.class);
                    assertThat(caches.getCache("prices").get("apple", Integer.class)).isEqualTo(5);
                    assertThat(caches.configurationOf("prices").timeToLive()).isEqualTo(Duration.ofMinutes(10));

                    // ZarisTemplate: typed values, counters and compare-and-set with a visible conflict.
                    template.put("greeting", "hello");
                    assertThat(template.get("greeting", String.class)).contains("hello");
                    assertThat(template.increment("visits", 2)).isEqualTo(2);
                    ZarisValue<String> versioned = template.getVersioned("greeting", String.class).orElseThrow();
                    assertThat(template.compareAndSet("greeting", "hi", versioned.version(), null).applied()).isTrue();
                    CasOutcome stale = template.compareAndSet("greeting", "hey", versioned.version(), null);
                    assertThat(stale.applied()).isFalse();
                    assertThat(template.get("greeting", String.class)).contains("hi");

                    // Health: the remote cluster with all three nodes reachable and its leader named.
                    Health healthy = health.health().block(Duration.ofSeconds(30));
                    assertThat(healthy.getStatus()).isEqualTo(Status.UP);
                    assertThat(healthy.getDetails()).containsEntry("mode", "client")
                            .containsEntry("partitions", Map.of("HEALTHY", 16, "DEGRADED", 0, "RECOVERING", 0,
                                    "UNAVAILABLE", 0));
                    String leader = (String) healthy.getDetails().get("leader");
                    assertThat(leader).isIn("n1", "n2", "n3");
                    assertThat(nodes(healthy)).containsOnlyKeys("n1", "n2", "n3");

                    // A node other than the leader dies without a clean leave; its partitions fail over to
                    // their replicas. (A new leader would show only after the client's next map fetch.)
                    int victim = leader.equals("n3") ? 1 : 2;
                    servers.kill(victim);

                    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                            assertThat(health.health().block(Duration.ofSeconds(30)).getStatus()).isEqualTo(ZarisHealthIndicator.DEGRADED));
                    Health degraded = health.health().block(Duration.ofSeconds(30));
                    assertThat((Map<String, Object>) degraded.getDetails().get("partitions")).containsEntry("UNAVAILABLE", 0);
                    assertThat(degraded.getDetails()).containsEntry("leader", leader);
                    assertThat(nodes(degraded).get("n" + (victim + 1))).containsEntry("reachable", "not probed (serves no partition)");

                    // The application keeps working: cached entries, new loads, template writes.
                    assertThat(prices.price("apple")).isEqualTo(5);
                    assertThat(prices.price("pear")).isEqualTo(4);
                    assertThat(prices.loads()).isEqualTo(2);
                    assertThat(template.increment("visits", 1)).isEqualTo(3);
                    assertThat(template.get("greeting", String.class)).contains("hi");
                });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> nodes(Health health) {
        return (Map<String, Map<String, Object>>) health.getDetails().get("nodes");
    }

    static class PriceService {

        private final AtomicInteger loads = new AtomicInteger();

        /** Through a method: the test holds the caching proxy, whose own fields are unset. */
        public int loads() {
            return loads.get();
        }

        @Cacheable("prices")
        public Integer price(String fruit) {
            loads.incrementAndGet();
            return fruit.length();
        }

        @Configuration(proxyBeanMethods = false)
        @EnableCaching
        static class Config {

            @Bean
            PriceService priceService() {
                return new PriceService();
            }
        }
    }
}
