/**
 * The wire: frames, request and response codecs, op codes and {@code KvStatus}, the values and change records
 * that travel between clients and nodes and between nodes.
 *
 * <p>Dependencies: imports placement, and today also cluster (the view codec, map fingerprints, ownership
 * events) and replication ({@code AckMode}): upward edges to be moved into a shared model package.
 */
package io.zaris.protocol;
