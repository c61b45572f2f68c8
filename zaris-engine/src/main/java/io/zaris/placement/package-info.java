/**
 * Where keys live: the Redis-compatible slot and segment mapping ({@code SegmentMapper}), the partition layout,
 * the versioned partition map and the planner that computes it with minimal movement.
 *
 * <p>May import: nothing else of Zaris: it is the bottom layer, shared by everything above.
 */
package io.zaris.placement;
