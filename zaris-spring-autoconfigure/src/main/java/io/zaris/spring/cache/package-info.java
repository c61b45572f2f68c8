/**
 * Spring's cache abstraction on Zaris: {@code ZarisCacheManager} and {@code ZarisCache}, per-cache settings,
 * cluster-wide loader leases, cache meters, and the error handling that lets a Zaris cache fall through to the
 * cached method while the cluster cannot answer.
 *
 * <p>Dependencies: Imports io.zaris.spring, serialization and the engine's client.
 */
package io.zaris.spring.cache;
