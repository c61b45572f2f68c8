/**
 * Actuator support, optional: the {@code zaris} health indicator (partition states, reachability) and the
 * Micrometer meters of the client, the cluster and embedded nodes.
 *
 * <p>Dependencies: Imports io.zaris.spring and the engine; actuator and Micrometer are optional dependencies, so
 * every class here is behind a class condition.
 */
package io.zaris.spring.actuate;
