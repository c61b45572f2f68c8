package io.zaris.test;

import java.util.List;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Gives the application context of a Spring test annotated with {@link ZarisCluster} a
 * {@code ZarisConnectionDetails} bean for that cluster. Registered in {@code META-INF/spring.factories}, so any
 * Spring test on the class path of this module is looked at; those without the annotation are left alone.
 */
final class ZarisClusterContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        ZarisCluster annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass, ZarisCluster.class);
        return annotation == null ? null : new ZarisClusterContextCustomizer(ZarisClusterSpec.of(annotation));
    }
}
