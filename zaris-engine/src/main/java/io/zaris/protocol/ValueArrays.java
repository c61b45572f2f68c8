package io.zaris.protocol;

/**
 * Where a decoded value's bytes go: a fresh array by default, or one a server reuses for a value that does not
 * outlive the handling of its frame ({@code io.zaris.server.ReusedValueArrays}).
 */
@FunctionalInterface
public interface ValueArrays {

    /** Every value gets an array of its own. */
    ValueArrays FRESH = byte[]::new;

    /** An array of exactly {@code length} bytes, which the decoder overwrites whole. */
    byte[] take(int length);
}
