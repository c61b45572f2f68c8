package io.zaris.test;

import io.zaris.embedded.EmbeddedCluster;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 side of {@link ZarisCluster}: starts (or finds) the class's cluster before its tests, and hands it
 * to test methods and constructors that declare a parameter of the type it was launched as: an
 * {@link EmbeddedCluster} or a {@link ZarisServerProcesses}. Starting it here, before Spring's extension builds
 * the application context, keeps the start-up out of the first test's time.
 */
public final class ZarisClusterExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        ZarisTestClusters.obtain(spec(context));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedCluster.class || type == ZarisServerProcesses.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ZarisClusterSpec spec = spec(context);
        Object cluster = ZarisTestClusters.obtain(spec).handle();
        Class<?> wanted = parameter.getParameter().getType();
        if (!wanted.isInstance(cluster)) {
            throw new ParameterResolutionException(parameter.getDeclaringExecutable() + " takes a "
                    + wanted.getSimpleName() + " but the @ZarisCluster is launched as " + spec.launch() + ", which"
                    + " gives a " + cluster.getClass().getSimpleName());
        }
        return cluster;
    }

    private static ZarisClusterSpec spec(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        Class<?> annotated = testClass;
        while (annotated != null) {
            var annotation = AnnotationSupport.findAnnotation(annotated, ZarisCluster.class);
            if (annotation.isPresent()) {
                return ZarisClusterSpec.of(annotation.get());
            }
            annotated = annotated.getEnclosingClass();
        }
        throw new ExtensionConfigurationException(testClass.getName() + " uses the Zaris cluster extension but"
                + " neither it nor an enclosing class is annotated with @ZarisCluster");
    }
}
