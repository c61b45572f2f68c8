package io.zaris.store;

import java.util.Arrays;

/** A key's bytes as a map key: content equality, hash computed once. The array is never modified. */
final class ByteKey {

    private final byte[] bytes;
    private final int hash;

    ByteKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ByteKey that && hash == that.hash && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
