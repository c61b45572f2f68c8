/**
 * The values every layer shares: cluster views ({@code ClusterView}: partition map, runtime map, addresses,
 * leader, voters), runtime entries ({@code PartitionRuntime}, {@code PartitionHealth}), node addresses, the
 * change record a write produces ({@code Change}), the status of every answer ({@code KvStatus}), versioned
 * values, {@code AckMode} and the digest of a segment copy ({@code SegmentDigest}). Immutable values and enums
 * with no I/O, no threads and no clock.
 *
 * <p>May import: placement only (the partition map and layout a view is made of), so that every other package
 * can sit above it.
 */
package io.zaris.model;
