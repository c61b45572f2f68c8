/**
 * The routing client: the API ({@code ZarisClient}), the retry brain ({@code RetryPolicy}: attempts counted per
 * routing, waiting on the map for a new owner), the immutable routing table, map refresh and pushes, connections
 * to nodes.
 *
 * <p>Dependencies: imports placement, protocol, cluster (views), replication ({@code AckMode}) and security
 * (credentials, TLS).
 */
package io.zaris.client;
