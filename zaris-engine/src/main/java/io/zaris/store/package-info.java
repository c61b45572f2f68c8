/**
 * A node's data: segments with their op logs, entries with versions and TTLs, value slabs, snapshots and catch-
 * up, the memory budget and eviction.
 *
 * <p>May import: model only (changes, statuses, versioned values): the store sits below the wire.
 */
package io.zaris.store;
