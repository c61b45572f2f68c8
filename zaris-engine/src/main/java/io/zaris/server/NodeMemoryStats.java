package io.zaris.server;

import io.zaris.store.EvictionPolicy;

/**
 * A node's memory figures at one moment, for metrics and operators.
 *
 * @param usedBytes           bytes charged for every entry the node holds, replica copies included
 *                            (keys + values + a per-entry overhead estimate)
 * @param maxBytes            the node's budget
 * @param evictions           keys this node evicted as active owner since it started
 * @param expirations         keys this node removed because their TTL passed: by active expiry, by a read of the
 *                            active owner, or met by eviction
 * @param outOfMemoryRefusals writes refused with {@code OUT_OF_MEMORY}
 */
public record NodeMemoryStats(long usedBytes, long maxBytes, EvictionPolicy policy, long evictions, long expirations,
                              long outOfMemoryRefusals) {
}
