package io.zaris.bench.peers;

import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.cache.ZarisCacheAutoConfiguration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The cache managers the Spring rows compare, each an application with only the auto-configuration it needs: Zaris'
 * cache manager (client mode) with the near cache off and on, Boot's Redis cache manager (Lettuce, cluster mode) and
 * Boot's Caffeine cache manager (in-process: the lower bound). Every one keeps its default serialization.
 */
enum SpringCacheProvider {

    ZARIS("Zaris cache manager", ZarisApplication.class),
    ZARIS_NEAR("Zaris cache manager, near cache", ZarisApplication.class),
    REDIS("Boot Redis cache manager", RedisApplication.class),
    CAFFEINE("Caffeine (in-process)", CaffeineApplication.class);

    private final String label;
    private final Class<?> application;

    SpringCacheProvider(String label, Class<?> application) {
        this.label = label;
        this.application = application;
    }

    /** The product, for picking a row's best peer among the other products. */
    static String productOf(String label) {
        return label.split(" ")[0];
    }

    String label() {
        return label;
    }

    Class<?> application() {
        return application;
    }

    /** Properties that point the provider at its cluster (host:port seeds; ignored by Caffeine). */
    Map<String, Object> properties(List<String> seeds) {
        String joined = String.join(",", seeds);
        return switch (this) {
            case ZARIS -> Map.of("zaris.mode", "client", "zaris.client.seeds", joined);
            case ZARIS_NEAR -> Map.of("zaris.mode", "client", "zaris.client.seeds", joined,
                    "zaris.cache.near-cache.enabled", "true");
            case REDIS -> Map.of("spring.cache.type", "redis", "spring.data.redis.cluster.nodes", joined,
                    "spring.data.redis.timeout", LettuceClusterKvClient.COMMAND_TIMEOUT.toMillis() + "ms",
                    "spring.data.redis.lettuce.cluster.refresh.adaptive", "true",
                    "spring.data.redis.lettuce.cluster.refresh.period",
                    LettuceClusterKvClient.TOPOLOGY_REFRESH_PERIOD.toSeconds() + "s");
            case CAFFEINE -> Map.of("spring.cache.type", "caffeine", "spring.cache.caffeine.spec", "maximumSize=1000000");
        };
    }

    @EnableCaching
    @Configuration(proxyBeanMethods = false)
    static class CatalogConfiguration {

        @Bean
        CatalogService catalogService() {
            return new CatalogService();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ZarisAutoConfiguration.class, ZarisCacheAutoConfiguration.class, CacheAutoConfiguration.class})
    static class ZarisApplication extends CatalogConfiguration {
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataRedisAutoConfiguration.class, CacheAutoConfiguration.class})
    static class RedisApplication extends CatalogConfiguration {
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(CacheAutoConfiguration.class)
    static class CaffeineApplication extends CatalogConfiguration {
    }
}
