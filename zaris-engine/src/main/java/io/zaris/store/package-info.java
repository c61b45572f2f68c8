/**
 * A node's data: segments with their op logs, entries with versions and TTLs, value slabs, snapshots and catch-
 * up, the memory budget and eviction.
 *
 * <p>Dependencies: imports protocol (request constants, {@code Change}, {@code KvStatus}); an edge to be
 * replaced by store-owned types so the store sits below the wire.
 */
package io.zaris.store;
