package io.zaris.store;

/**
 * The segments a node may change on its own — those of partitions it is the active owner of — each with the
 * partition epoch its changes are made under. Expiry and eviction touch only these: a replica's copy
 * changes only by what its active owner ships. Immutable (the arrays are copied in).
 */
public final class ActiveSegments {

    /** No segment: a node that owns nothing (or cannot see a majority) reclaims nothing. */
    public static final ActiveSegments NONE = new ActiveSegments(new int[0], new long[0]);

    private final int[] segments;
    private final long[] epochs;

    public ActiveSegments(int[] segments, long[] epochs) {
        if (segments.length != epochs.length) {
            throw new IllegalArgumentException("one epoch per segment: " + segments.length + " segments, " + epochs.length
                    + " epochs");
        }
        this.segments = segments.clone();
        this.epochs = epochs.clone();
    }

    public int count() {
        return segments.length;
    }

    public int segment(int i) {
        return segments[i];
    }

    public long epoch(int i) {
        return epochs[i];
    }
}
