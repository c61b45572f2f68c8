/**
 * The routing client: the API ({@code ZarisClient}), the retry brain ({@code RetryPolicy}: attempts counted per
 * routing, waiting on the map for a new owner), the immutable routing table, map refresh and pushes.
 *
 * <p>May import: placement, model (views, statuses, {@code AckMode}), protocol, security (credentials, TLS) and
 * transport (the connections to nodes and the failures they report).
 */
package io.zaris.client;
