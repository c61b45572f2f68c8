/**
 * A whole cluster inside one JVM ({@code EmbeddedCluster}) for development and tests: real nodes on loopback
 * ports with an in-JVM membership stack.
 *
 * <p>May import: server and what it needs to configure nodes (time, placement, model, protocol, store, security,
 * replication, cluster, resp). It is the top layer.
 */
package io.zaris.embedded;
