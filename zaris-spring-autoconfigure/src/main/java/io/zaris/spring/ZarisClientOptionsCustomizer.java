package io.zaris.spring;

import io.zaris.client.ZarisClientOptions;

/**
 * Adjusts the options of the auto-configured {@code ZarisClient} in code, for what properties do not cover
 * (an attempt timeout, the acknowledgement mode, a lost-write listener, ...) without replacing the client
 * bean. Every bean of this type is applied, in {@code @Order}, to a builder that already holds the
 * {@code zaris.*} properties and the seeds; what a customizer sets wins over the properties. The builder
 * validates each value as it is set.
 */
@FunctionalInterface
public interface ZarisClientOptionsCustomizer {

    void customize(ZarisClientOptions.Builder builder);
}
