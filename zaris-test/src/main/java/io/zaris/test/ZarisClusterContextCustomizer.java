package io.zaris.test;

import io.zaris.spring.ZarisConnectionDetails;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Registers the {@link ZarisTestConnectionDetails} bean. Equal for equal specs, as Spring's context cache
 * requires: two test classes asking for the same cluster share one application context too.
 */
record ZarisClusterContextCustomizer(ZarisClusterSpec spec) implements ContextCustomizer {

    /** The bean's name. */
    static final String BEAN_NAME = "zarisTestConnectionDetails";

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
        if (!(context.getBeanFactory() instanceof BeanDefinitionRegistry registry)) {
            throw new IllegalStateException("@ZarisCluster needs an application context whose bean factory accepts"
                    + " bean definitions, but " + context.getClass().getName() + "'s does not");
        }
        RootBeanDefinition definition = new RootBeanDefinition(ZarisConnectionDetails.class,
                () -> new ZarisTestConnectionDetails(spec));
        registry.registerBeanDefinition(BEAN_NAME, definition);
    }
}
