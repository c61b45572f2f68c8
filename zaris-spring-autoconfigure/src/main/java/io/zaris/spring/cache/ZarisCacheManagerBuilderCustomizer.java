package io.zaris.spring.cache;

/**
 * Adjusts the auto-configured {@link ZarisCacheManager} in code before it is built: per-cache settings
 * (a serializer, a TTL function, a time to idle, ...), defaults, the caches that exist from the start. Every
 * bean of this type is applied, in {@code @Order}, to a builder that already holds the {@code zaris.cache.*}
 * properties; what a customizer sets wins. Boot's {@code CacheManagerCustomizer}s run afterwards, on the built
 * manager.
 */
@FunctionalInterface
public interface ZarisCacheManagerBuilderCustomizer {

    void customize(ZarisCacheManager.Builder builder);
}
