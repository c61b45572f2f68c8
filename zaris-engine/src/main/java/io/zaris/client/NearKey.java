package io.zaris.client;

import java.util.Arrays;

/** A key's bytes as a map key: equal by content, hash computed once. Immutable; never hands the array out. */
final class NearKey {

    private final byte[] bytes;
    private final int hash;

    NearKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    int length() {
        return bytes.length;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NearKey key && key.hash == hash && Arrays.equals(key.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
