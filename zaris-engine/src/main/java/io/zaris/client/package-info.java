/**
 * The routing client: the API facade ({@code ZarisClient}), the retry loop ({@code RequestExecutor}) and its rules
 * ({@code RetryPolicy}: attempts counted per routing, waiting on the map for a new owner), the topology keeper
 * ({@code TopologyKeeper}: the immutable routing table, bootstrap, poll, pushes, map refresh), the blocking direct
 * path and the lost-write reports.
 *
 * <p>May import: time, placement, model (views, statuses, {@code AckMode}), protocol, security (credentials, TLS) and
 * transport (the connections to nodes and the failures they report).
 */
package io.zaris.client;
