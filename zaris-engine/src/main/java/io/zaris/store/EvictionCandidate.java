package io.zaris.store;

/**
 * A sampled key that might be evicted, with what the policies compare. {@code version} guards the
 * eviction: the key is removed only if it was not written since it was sampled.
 */
record EvictionCandidate(int segment, ByteKey key, long version, long accessedAtMillis, long expiresAtMillis) {

    boolean isExpired(long nowMillis) {
        return expiresAtMillis != 0 && nowMillis >= expiresAtMillis;
    }
}
