package io.zaris.store;

/**
 * A key holding a collection (a hash, set, sorted set or list): what every such entry keeps beside its content, its
 * expiry, its place among the segment's keys with a TTL and the bytes its content is charged for. A collection has
 * no slab slot and no string value: it is changed in place, so it is never rewritten as a string is, and
 * {@link #isHash()} answers true for every one, which is what makes a lock-free string read meet it with WRONGTYPE
 * and the segment skip the slab when it is discarded.
 *
 * <p>Concurrency: the content, its byte count and the TTL sampling slot are read and written only under the
 * segment's write lock. The expiry is volatile because a lock-free string read meets the entry and asks whether it
 * has expired before it answers that the key holds the wrong type.
 */
abstract class CollectionEntry extends StoredEntry {

    /** Charged bytes of the content; guarded by the segment's write lock. */
    private long contentBytes;
    private volatile long expiresAtMillis;
    /** Position in the segment's array of keys with a TTL while the key has one; under the segment's write lock. */
    private int ttlSlot = -1;

    CollectionEntry(long version, long expiresAtMillis, long nowMillis) {
        super(version, nowMillis);
        this.expiresAtMillis = expiresAtMillis;
    }

    /** The type's name in messages: "hash", "list". */
    abstract String typeName();

    /** Under the write lock: the content now is charged {@code delta} more bytes. */
    final void charge(long delta) {
        contentBytes += delta;
    }

    /** Under the write lock; the segment keeps the TTL sampling slot in step. */
    final void expiresAt(long expiresAt) {
        this.expiresAtMillis = expiresAt;
    }

    @Override
    final boolean isHash() {
        return true;
    }

    @Override
    final byte[] value() {
        throw new IllegalStateException("a " + typeName() + " has no string value");
    }

    @Override
    final boolean canRewrite(int length) {
        return false;
    }

    @Override
    final long expiresAtMillis() {
        return expiresAtMillis;
    }

    @Override
    final boolean hasTtl() {
        return expiresAtMillis != 0;
    }

    @Override
    final boolean isExpired(long nowMillis) {
        long expiresAt = expiresAtMillis;
        return expiresAt != 0 && nowMillis >= expiresAt;
    }

    @Override
    final int ttlSlot() {
        return ttlSlot;
    }

    @Override
    final void ttlSlot(int slot) {
        ttlSlot = slot;
    }

    @Override
    final long ttlRemainingMillis(long nowMillis) {
        long expiresAt = expiresAtMillis;
        return expiresAt == 0 ? 0 : Math.max(1, expiresAt - nowMillis);
    }

    /** The key, the entry's own overhead and the content. */
    @Override
    long sizeBytes(ByteKey key) {
        return EntrySize.OVERHEAD_BYTES + key.bytes().length + contentBytes;
    }
}
