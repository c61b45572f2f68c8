/**
 * {@code ZarisTemplate} and its asynchronous twin: typed get/put/delete, TTL, compare-and-set, counters, scans
 * and multi-key operations over the client.
 *
 * <p>Dependencies: Imports serialization and the engine's client.
 */
package io.zaris.spring.template;
