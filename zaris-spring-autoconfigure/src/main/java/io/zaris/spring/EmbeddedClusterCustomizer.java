package io.zaris.spring;

import io.zaris.embedded.EmbeddedCluster;

/**
 * Adjusts the in-process cluster of embedded mode in code before it is built and started (for instance
 * protocol limits, RESP limits or a start timeout, which have no property). Every bean of this type is
 * applied, in {@code @Order}, to a builder that already holds the {@code zaris.embedded.*} properties; what a
 * customizer sets wins over them. Not called in client mode, where no node runs in the application.
 */
@FunctionalInterface
public interface EmbeddedClusterCustomizer {

    void customize(EmbeddedCluster.Builder builder);
}
