package io.zaris.model;

/**
 * What one node holds of one segment, reduced to a few numbers: two copies of a segment hold the same entries
 * (key, value, version and expiry) exactly when their {@code keys} and {@code digest} agree, up to a 64-bit
 * hash collision. The digest does not depend on the order the entries were stored or iterated in.
 *
 * @param keys     entries held, expired ones not yet removed included (a replica removes nothing on its own)
 * @param revision the segment's last revision on this node
 * @param digest   the order-independent digest of every entry held
 */
public record SegmentDigest(int segment, long keys, long revision, long digest) {

    /** Whether the two copies hold the same entries (the revision is compared apart: see the caller). */
    public boolean sameContentAs(SegmentDigest other) {
        return keys == other.keys && digest == other.digest;
    }
}
