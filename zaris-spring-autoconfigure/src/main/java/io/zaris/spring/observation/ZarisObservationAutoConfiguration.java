package io.zaris.spring.observation;

import io.micrometer.observation.ObservationRegistry;
import io.zaris.spring.ZarisAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * With {@code zaris.observation.enabled=true} and an {@link ObservationRegistry} bean, a
 * {@link ZarisOperationObserver} that makes every client operation of the template and the caches an
 * observation ({@link DefaultZarisOperationObservationConvention}; a {@link ZarisOperationObservationConvention}
 * bean replaces it). Without it, the template and the caches run their operations unobserved.
 *
 * <p>Ordered before {@link ZarisAutoConfiguration}, which hands this observer to the client (to hear attempts),
 * the template and the cache manager; after Boot's observation auto-configuration, which defines the registry.
 */
@AutoConfiguration(before = ZarisAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnProperty(name = "zaris.observation.enabled", havingValue = "true")
public final class ZarisObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ObservationRegistry.class)
    ZarisOperationObserver zarisOperationObserver(ObservationRegistry registry,
            ObjectProvider<ZarisOperationObservationConvention> convention) {
        return new ObservedZarisOperations(registry, convention.getIfUnique());
    }
}
