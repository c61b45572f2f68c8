package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterSettings;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import io.zaris.spring.ZarisProperties.Mode;
import io.zaris.spring.cache.ZarisCacheConfiguration;
import java.util.List;
import org.junit.jupiter.api.Test;

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
        assertThat(properties.getEmbedded().getNodes()).isEqualTo(EmbeddedCluster.DEFAULT_NODES);
        assertThat(properties.getEmbedded().getReplicationFactor())
                .isEqualTo(ClusterSettings.DEFAULT_REPLICATION_FACTOR);
        assertThat(properties.getEmbedded().getPartitions()).isEqualTo(PartitionLayout.DEFAULT_PARTITION_COUNT);
        assertThat(properties.getEmbedded().getSegments()).isEqualTo(PartitionLayout.DEFAULT_SEGMENT_COUNT);
        assertThat(properties.getClient().getSeeds()).isEmpty();
        assertThat(properties.getClient().getConnectTimeout()).isEqualTo(ZarisClientOptions.DEFAULT_CONNECT_TIMEOUT);
        assertThat(properties.getClient().getBootstrapTimeout())
                .isEqualTo(ZarisClientOptions.DEFAULT_BOOTSTRAP_TIMEOUT);
        assertThat(properties.getClient().getMapRefreshInterval())
                .isEqualTo(ZarisClientOptions.DEFAULT_MAP_REFRESH_INTERVAL);
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
