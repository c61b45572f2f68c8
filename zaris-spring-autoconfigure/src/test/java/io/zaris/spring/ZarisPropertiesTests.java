package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterSettings;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import io.zaris.spring.ZarisProperties.Mode;
import io.zaris.spring.cache.ZarisCacheConfiguration;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

class ZarisPropertiesTests {

    @Test
    void defaultsShouldMatchTheEngineDefaults() {
        ZarisProperties properties = new ZarisProperties();

        assertThat(properties.getMode()).isNull();
        assertThat(properties.getRequestTimeout()).isEqualTo(ZarisClientOptions.DEFAULT_REQUEST_TIMEOUT);
        assertThat(properties.getClient().getMapRefreshWait()).isEqualTo(ZarisClientOptions.DEFAULT_MAP_REFRESH_WAIT);
        assertThat(properties.getClient().getMaxAttempts()).isEqualTo(ZarisClientOptions.DEFAULT_MAX_ATTEMPTS);
        assertThat(properties.getClient().getRetryBackoff()).isEqualTo(ZarisClientOptions.DEFAULT_RETRY_BACKOFF);
        assertThat(properties.getClient().isDisableRetries()).isFalse();
        ZarisCacheConfiguration cacheDefaults = ZarisCacheConfiguration.defaults();
        ZarisProperties.CacheSpec defaults = properties.getCache().getDefaults();
        assertThat(defaults.getTimeToLive()).isEqualTo(cacheDefaults.timeToLive());
        assertThat(defaults.getTtlJitter()).isEqualTo(cacheDefaults.ttlJitter());
        assertThat(defaults.getCacheNullValues()).isEqualTo(cacheDefaults.cacheNullValues());
        assertThat(defaults.getClusterWideSync()).isEqualTo(cacheDefaults.clusterWideSync());
        assertThat(defaults.getLoaderLeaseTime()).isEqualTo(cacheDefaults.loaderLeaseTime());
        assertThat(defaults.getTimeToIdle()).isEqualTo(cacheDefaults.timeToIdle());
        assertThat(properties.getEmbedded().getAckMode()).isEqualTo(ReplicationSettings.DEFAULT_ACK_MODE);
        assertThat(properties.getEmbedded().getMinSyncReplicas()).isEqualTo(ReplicationSettings.DEFAULT_MIN_SYNC_REPLICAS);
        assertThat(properties.getEmbedded().getNodes()).isEqualTo(EmbeddedCluster.DEFAULT_NODES);
        assertThat(properties.getEmbedded().getReplicationFactor())
                .isEqualTo(ClusterSettings.DEFAULT_REPLICATION_FACTOR);
        assertThat(properties.getEmbedded().getPartitions()).isEqualTo(PartitionLayout.DEFAULT_PARTITION_COUNT);
        assertThat(properties.getEmbedded().getSegments()).isEqualTo(PartitionLayout.DEFAULT_SEGMENT_COUNT);
        assertThat(properties.getEmbedded().getJoinSettleDelay()).isEqualTo(ClusterSettings.DEFAULT_JOIN_SETTLE_DELAY);
        assertThat(properties.getEmbedded().getMaxConcurrentMoves())
                .isEqualTo(ClusterSettings.DEFAULT_MAX_CONCURRENT_MOVES);
        assertThat(properties.getEmbedded().getResp().isEnabled()).as("embedded RESP is off unless configured").isFalse();
        assertThat(properties.getEmbedded().getResp().getPort()).as("ephemeral RESP ports").isZero();
        assertThat(properties.getClient().getSeeds()).isEmpty();
        assertThat(properties.getClient().getConnectTimeout()).isEqualTo(ZarisClientOptions.DEFAULT_CONNECT_TIMEOUT);
        assertThat(properties.getClient().getBootstrapTimeout())
                .isEqualTo(ZarisClientOptions.DEFAULT_BOOTSTRAP_TIMEOUT);
        assertThat(properties.getClient().getMapRefreshInterval())
                .isEqualTo(ZarisClientOptions.DEFAULT_MAP_REFRESH_INTERVAL);
    }

    /** Every property the README documents has IDE metadata with a description. */
    @Test
    void generatedMetadataShouldDescribeEveryProperty() throws Exception {
        String metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated configuration metadata").isNotNull();
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        JsonNode properties = new ObjectMapper().readTree(metadata).get("properties");
        Map<String, JsonNode> byName = new HashMap<>();
        properties.forEach(property -> byName.put(property.get("name").asString(), property));
        List<String> documented = List.of("zaris.mode", "zaris.request-timeout",
                "zaris.embedded.nodes", "zaris.embedded.replication-factor", "zaris.embedded.partitions",
                "zaris.embedded.segments", "zaris.embedded.ack-mode", "zaris.embedded.min-sync-replicas",
                "zaris.embedded.join-settle-delay", "zaris.embedded.max-concurrent-moves",
                "zaris.embedded.resp.enabled", "zaris.embedded.resp.port",
                "zaris.embedded.max-memory", "zaris.embedded.eviction-policy",
                "zaris.client.seeds", "zaris.client.connect-timeout", "zaris.client.bootstrap-timeout",
                "zaris.client.map-refresh-interval", "zaris.client.map-refresh-wait", "zaris.client.max-attempts",
                "zaris.client.retry-backoff", "zaris.client.disable-retries", "zaris.client.connections-per-node",
                "zaris.cache.enabled", "zaris.cache.cache-names", "zaris.cache.key-prefix", "zaris.cache.caches",
                "zaris.cache.defaults.time-to-live", "zaris.cache.defaults.ttl", "zaris.cache.defaults.time-to-idle",
                "zaris.cache.defaults.ttl-jitter", "zaris.cache.defaults.cache-null-values",
                "zaris.cache.defaults.cluster-wide-sync", "zaris.cache.defaults.loader-lease-time",
                "zaris.serialization.format", "zaris.serialization.allowed-classes", "management.health.zaris.enabled",
                "zaris.cache.defaults.ttl-function", "zaris.cache.defaults.serializer", "zaris.client.ssl.bundle",
                "zaris.embedded.ssl.bundle", "zaris.cache.near-cache.enabled", "zaris.cache.near-cache.max-entries",
                "zaris.cache.near-cache.max-bytes");
        for (String name : documented) {
            assertThat(byName).as("metadata for %s", name).containsKey(name);
            assertThat(byName.get(name).path("description").asString()).as("description of %s", name).isNotBlank();
        }
        // Not only the documented ones: every property the binder knows has a description for IDEs.
        properties.forEach(property -> assertThat(property.path("description").asString())
                .as("description of %s", property.get("name").asString()).isNotBlank());
        JsonNode hints = new ObjectMapper().readTree(metadata).get("hints");
        List<String> hinted = new java.util.ArrayList<>();
        hints.forEach(hint -> hinted.add(hint.get("name").asString()));
        assertThat(hinted).contains("zaris.cache.defaults.serializer", "zaris.cache.defaults.ttl-function");
        assertThat(byName.get("zaris.cache.caches").path("description").asString()).contains("ttl-function", "serializer");
        // Per-cache settings have no property names of their own: IDEs complete them from the map's value type.
        assertThat(byName.get("zaris.cache.caches").path("type").asString()).contains(ZarisProperties.CacheSpec.class.getSimpleName());
        assertThat(byName.get("zaris.cache.caches").path("description").asString()).contains("ttl (or time-to-live)");
        for (String name : List.of("zaris.cache.defaults.time-to-idle", "zaris.embedded.ack-mode",
                "zaris.embedded.min-sync-replicas", "zaris.cache.defaults.time-to-live",
                "zaris.embedded.join-settle-delay", "zaris.embedded.max-concurrent-moves",
                "zaris.embedded.resp.enabled", "zaris.embedded.resp.port",
                "zaris.embedded.eviction-policy")) {
            assertThat(byName.get(name).has("defaultValue")).as("default of %s", name).isTrue();
        }
        assertThat(byName.get("zaris.embedded.eviction-policy").get("defaultValue").asString()).isEqualTo("allkeys-lru");
        assertThat(byName.get("zaris.embedded.max-memory").path("description").asString()).contains("Unset: 40% of the max heap");
    }

    @Test
    void resolveModeWithoutModeOrSeedsShouldBeEmbedded() {
        assertThat(new ZarisProperties().resolveMode()).isEqualTo(Mode.EMBEDDED);
    }

    @Test
    void resolveModeWithSeedsAndNoModeShouldBeClient() {
        ZarisProperties properties = new ZarisProperties();
        properties.getClient().setSeeds(List.of("10.0.0.1:7101"));

        assertThat(properties.resolveMode()).isEqualTo(Mode.CLIENT);
    }

    @Test
    void resolveModeWithOnlyBlankSeedsShouldBeEmbedded() {
        ZarisProperties properties = new ZarisProperties();
        properties.getClient().setSeeds(List.of(" ", ""));

        assertThat(properties.resolveMode()).isEqualTo(Mode.EMBEDDED);
    }

    @Test
    void resolveModeWithExplicitModeShouldIgnoreSeeds() {
        ZarisProperties embedded = new ZarisProperties();
        embedded.setMode(Mode.EMBEDDED);
        embedded.getClient().setSeeds(List.of("10.0.0.1:7101"));
        ZarisProperties client = new ZarisProperties();
        client.setMode(Mode.CLIENT);

        assertThat(embedded.resolveMode()).isEqualTo(Mode.EMBEDDED);
        assertThat(client.resolveMode()).isEqualTo(Mode.CLIENT);
    }
}
