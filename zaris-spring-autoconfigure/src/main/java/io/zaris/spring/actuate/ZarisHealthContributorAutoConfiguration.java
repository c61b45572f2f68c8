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
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code zaris} health component, when Boot's health support is on the classpath, a client exists and
 * {@code management.health.zaris.enabled} is not {@code false}: a {@link ZarisReactiveHealthIndicator} when
 * Reactor is present (the engine brings it, so in practice always), else a {@link ZarisHealthIndicator}. Both
 * are named {@code zarisHealthIndicator}; a bean of that name defined by the application replaces them.
 *
 * <p>The enabled-check sits on a nested class: Spring loads every condition class of a configuration
 * before evaluating any, so on the outer class it would fail to load when {@code spring-boot-health} is
 * absent instead of letting {@code @ConditionalOnClass} skip the configuration.
 */
@AutoConfiguration(after = ZarisAutoConfiguration.class)
@ConditionalOnClass({AbstractHealthIndicator.class, ConditionalOnEnabledHealthIndicator.class, ZarisClient.class})
@ConditionalOnBean(ZarisClient.class)
public final class ZarisHealthContributorAutoConfiguration {

    /** Boot's own test for Reactor, as its Redis and Cassandra health contributors use it. */
    static final String REACTOR = "reactor.core.publisher.Flux";

    /** With Reactor: the reactive component, which Boot's blocking health endpoint serves as well. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("zaris")
    @ConditionalOnClass(name = REACTOR)
    static class ReactiveHealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "zarisHealthIndicator")
        ZarisReactiveHealthIndicator zarisHealthIndicator(ZarisClient client,
                ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster,
                ObjectProvider<ZarisRoutingTableWatch> routingTableWatch) {
            return new ZarisReactiveHealthIndicator(
                    new ZarisHealthIndicator(client, embeddedCluster.getIfUnique(), routingTableWatch.getIfUnique()));
        }
    }

    /** Without Reactor: the blocking component. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("zaris")
    @ConditionalOnMissingClass(REACTOR)
    static class BlockingHealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "zarisHealthIndicator")
        ZarisHealthIndicator zarisHealthIndicator(ZarisClient client,
                ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster,
                ObjectProvider<ZarisRoutingTableWatch> routingTableWatch) {
            return new ZarisHealthIndicator(client, embeddedCluster.getIfUnique(), routingTableWatch.getIfUnique());
        }
    }
}
