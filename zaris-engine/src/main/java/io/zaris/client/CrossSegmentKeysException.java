package io.zaris.client;

/**
 * An operation on several keys named keys of different segments. Such an operation is served by one node under one
 * segment's lock, so its keys must share a segment: give them a common {@code {hash tag}} (the part between the first
 * braces is what is hashed). Thrown before anything is sent.
 */
public final class CrossSegmentKeysException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public CrossSegmentKeysException(String first, String other) {
        super("keys '" + first + "' and '" + other
                + "' map to different segments; multi-key operations need a common {hash tag}");
    }
}
