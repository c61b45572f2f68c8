/**
 * A whole cluster inside one JVM ({@code EmbeddedCluster}) for development and tests: real nodes on loopback
 * ports with an in-JVM membership stack.
 *
 * <p>Dependencies: imports server and what it needs to configure nodes (cluster, placement, protocol,
 * replication, resp, security, store).
 */
package io.zaris.embedded;
