package io.zaris.spring.actuate;

import io.zaris.client.ZarisClient;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code zaris} actuator endpoint ({@link ZarisClusterEndpoint}) and the {@link ZarisClusterMonitor} behind
 * it, only when the endpoint is available, i.e. enabled and exposed
 * ({@code management.endpoints.web.exposure.include=zaris}); otherwise no monitor thread runs. The availability
 * check sits on a nested class so that the outer one loads without the actuator on the classpath.
 */
@AutoConfiguration(after = ZarisAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class, ZarisClient.class})
@ConditionalOnBean(ZarisClient.class)
public final class ZarisClusterEndpointAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(ZarisClusterEndpoint.class)
    static class AvailableEndpointConfiguration {

        @Bean(initMethod = "start", destroyMethod = "close")
        @ConditionalOnMissingBean
        ZarisClusterMonitor zarisClusterMonitor(ZarisClient client,
                ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster) {
            return new ZarisClusterMonitor(client, embeddedCluster.getIfUnique(), Clock.systemUTC());
        }

        @Bean
        @ConditionalOnMissingBean
        ZarisClusterEndpoint zarisClusterEndpoint(ZarisClusterMonitor monitor,
                ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster) {
            return new ZarisClusterEndpoint(monitor, embeddedCluster.getIfUnique());
        }
    }
}
