package io.zaris.store;

import io.zaris.protocol.VersionedValue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One stored value. Value, version and expiry are final: a write replaces the entry, so a lock-free
 * reader sees either the old or the new entry, never a mix. {@code expiresAtMillis} is wall-clock,
 * {@code 0} for no TTL.
 *
 * <p>Two kinds of mutable bookkeeping ride along, neither visible to readers of the value:
 * <ul>
 *   <li>{@code accessedAtMillis}, the approximate-LRU clock: written by any reader with opaque access
 *   (atomic, unordered), so a racing eviction may see a slightly stale time, which an approximation
 *   built on sampling tolerates;</li>
 *   <li>{@code keySlot}/{@code ttlSlot}, the entry's positions in its segment's sampling arrays: read and
 *   written only under the segment's write lock.</li>
 * </ul>
 */
final class StoredEntry {

    private static final VarHandle ACCESSED_AT;

    static {
        try {
            ACCESSED_AT = MethodHandles.lookup().findVarHandle(StoredEntry.class, "accessedAtMillis", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final byte[] value;
    private final long version;
    private final long expiresAtMillis;
    @SuppressWarnings("unused") // accessed through ACCESSED_AT
    private long accessedAtMillis;
    /** Position in the segment's array of all keys; under the segment's write lock. */
    int keySlot = -1;
    /** Position in the segment's array of keys with a TTL, -1 without a TTL; under the segment's write lock. */
    int ttlSlot = -1;

    StoredEntry(byte[] value, long version, long expiresAtMillis, long nowMillis) {
        this.value = value;
        this.version = version;
        this.expiresAtMillis = expiresAtMillis;
        ACCESSED_AT.setOpaque(this, nowMillis);
    }

    byte[] value() {
        return value;
    }

    long version() {
        return version;
    }

    long expiresAtMillis() {
        return expiresAtMillis;
    }

    boolean hasTtl() {
        return expiresAtMillis != 0;
    }

    boolean isExpired(long nowMillis) {
        return expiresAtMillis != 0 && nowMillis >= expiresAtMillis;
    }

    /** When the entry was last written or read (approximate under concurrency). */
    long accessedAtMillis() {
        return (long) ACCESSED_AT.getOpaque(this);
    }

    void recordAccess(long nowMillis) {
        ACCESSED_AT.setOpaque(this, nowMillis);
    }

    /** Bytes this entry is charged for under {@code key}. */
    long sizeBytes(ByteKey key) {
        return EntrySize.of(key.bytes().length, value.length);
    }

    VersionedValue toVersionedValue(long nowMillis) {
        long ttlRemaining = expiresAtMillis == 0 ? 0 : Math.max(1, expiresAtMillis - nowMillis);
        return new VersionedValue(value, version, ttlRemaining);
    }
}
