package io.zaris.spring.actuate;

import io.zaris.client.ZarisClient;
import io.zaris.spring.ZarisAutoConfiguration;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import io.zaris.spring.ZarisRoutingTableWatch;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code zaris} health component ({@link ZarisHealthIndicator}), when Boot's health support is on the
 * classpath, a client exists and {@code management.health.zaris.enabled} is not {@code false}.
 *
 * <p>The enabled-check sits on a nested class: Spring loads every condition class of a configuration
 * before evaluating any, so on the outer class it would fail to load when {@code spring-boot-health} is
 * absent instead of letting {@code @ConditionalOnClass} skip the configuration.
 */
@AutoConfiguration(after = ZarisAutoConfiguration.class)
@ConditionalOnClass({AbstractHealthIndicator.class, ConditionalOnEnabledHealthIndicator.class, ZarisClient.class})
@ConditionalOnBean(ZarisClient.class)
public final class ZarisHealthContributorAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("zaris")
    static class EnabledHealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "zarisHealthIndicator")
        ZarisHealthIndicator zarisHealthIndicator(ZarisClient client,
                ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster,
                ObjectProvider<ZarisRoutingTableWatch> routingTableWatch) {
            return new ZarisHealthIndicator(client, embeddedCluster.getIfUnique(), routingTableWatch.getIfUnique());
        }
    }
}
