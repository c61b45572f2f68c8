package io.zaris.spring.actuate;

import io.micrometer.core.instrument.MeterRegistry;
import io.zaris.client.ClientMetrics;
import io.zaris.client.MicrometerClientMetrics;
import io.zaris.client.ZarisClient;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Zaris meters in the application's {@link MeterRegistry}: the client's {@code zaris.client.*} meters
 * (a {@link ClientMetrics} bean that {@link ZarisAutoConfiguration} hands to the client) and the cluster
 * and node meters of {@link ZarisMeterBinder}, which Boot binds to every registry.
 *
 * <p>Ordered after the registry's auto-configuration, so {@code @ConditionalOnBean(MeterRegistry)} sees it.
 */
@AutoConfiguration(after = ZarisAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({MeterRegistry.class, ZarisClient.class})
@ConditionalOnBean(MeterRegistry.class)
public final class ZarisMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ClientMetrics zarisClientMetrics(MeterRegistry registry) {
        return MicrometerClientMetrics.create(registry);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ZarisClient.class)
    ZarisMeterBinder zarisMeterBinder(ZarisClient client, ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster,
            ObjectProvider<EntrySizeSample> entrySizes) {
        return new ZarisMeterBinder(client, embeddedCluster.getIfUnique(), entrySizes.getIfAvailable(EntrySizeSample::new));
    }
}
