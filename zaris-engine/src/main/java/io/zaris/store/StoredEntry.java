package io.zaris.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * One stored value: where its bytes live (a slot of a {@link SlabChunk}), its version and expiry. A write
 * replaces the entry, except an overwrite without a TTL of a value without one, in the same slot class:
 * that one rewrites this entry in place ({@link #rewrite}), so the write allocates nothing and stores no
 * reference into the (old, tenured) map node — which is what each young collection has to scan. A value
 * without a TTL is this class (48 bytes with compressed references); one with a TTL is an {@link Expiring}
 * entry, which adds its wall-clock expiry and its place among the segment's keys with a TTL. Most values of a
 * cache have no TTL, so they do not pay for the two fields; {@link #of} picks the class.
 *
 * <p><b>Reading the bytes.</b> The slot is freed, and may then be reused for another value, once the entry
 * has left the map (or been replaced, or moved by {@link ValueSlabs}). A reader under the segment's write lock
 * can copy it directly. A lock-free reader takes {@link #readStamp} first, copies version, length and bytes,
 * then checks {@link #stillHolds}: the entry is marked freed before its slot can be reused, and a rewrite in
 * place makes the stamp odd before it touches anything and even again after (a sequence lock whose writer is
 * the segment's write lock holder), so a copy that raced a reuse or a rewrite is detected and the read retried.
 *
 * <p>Two kinds of mutable bookkeeping ride along, neither visible to readers of the value:
 * <ul>
 *   <li>{@code accessedAtMillis}, the approximate-LRU clock: written by any reader with opaque access
 *   (atomic, unordered), so a racing eviction may see a slightly stale time, which an approximation
 *   built on sampling tolerates;</li>
 *   <li>{@code keySlot} and an expiring entry's TTL slot, the entry's positions in its segment's sampling
 *   arrays: read and written only under the segment's write lock.</li>
 * </ul>
 */
class StoredEntry {

    private static final VarHandle ACCESSED_AT;

    private static final VarHandle FREED;

    private static final VarHandle REWRITES;
    /** {@link #place} of a value too large for a class: slot 0 of a chunk holding exactly the value. */
    private static final int OWN_ARRAY = -1;

    static {
        try {
            ACCESSED_AT = MethodHandles.lookup().findVarHandle(StoredEntry.class, "accessedAtMillis", long.class);
            FREED = MethodHandles.lookup().findVarHandle(StoredEntry.class, "freed", boolean.class);
            REWRITES = MethodHandles.lookup().findVarHandle(StoredEntry.class, "rewrites", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SlabChunk chunk;
    /**
     * Slot and length in one int, so an entry is 48 bytes, not 56 (56 with a TTL, not 64): {@code slot | length << 8}
     * for a value in a class chunk (at most {@link ValueSlabs#MAX_SLOTS_PER_CHUNK} slots, values up to
     * {@link ValueSlabs#LARGEST_SLOT_BYTES}); {@link #OWN_ARRAY} for a larger value, alone in a chunk of exactly
     * its size.
     */
    private int place;
    private long version;
    /** Twice the rewrites in place so far, plus one while one is under way; see {@link #rewrite}. */
    @SuppressWarnings("unused") // accessed through REWRITES
    private int rewrites;
    @SuppressWarnings("unused") // accessed through ACCESSED_AT
    private long accessedAtMillis;
    @SuppressWarnings("unused") // accessed through FREED
    private boolean freed;
    /** Position in the segment's array of all keys; under the segment's write lock. */
    int keySlot = -1;

    private StoredEntry(SlabChunk chunk, int slot, int length, long version, long nowMillis) {
        this.chunk = chunk;
        this.place = length > ValueSlabs.LARGEST_SLOT_BYTES ? OWN_ARRAY : slot | length << 8;
        this.version = version;
        ACCESSED_AT.setOpaque(this, nowMillis);
    }

    /** A {@link CollectionEntry}: no slab slot, its content lives in the entry itself. */
    StoredEntry(long version, long nowMillis) {
        this.chunk = null;
        this.version = version;
        ACCESSED_AT.setOpaque(this, nowMillis);
    }

    /** Whether the entry holds a hash rather than a string. */
    boolean isHash() {
        return false;
    }

    /** Under the write lock: a hash changed in place takes the revision of the change as its version. */
    void changedAt(long newVersion, long nowMillis) {
        version = newVersion;
        ACCESSED_AT.setOpaque(this, nowMillis);
    }

    /**
     * Made by {@link ValueSlabs}, which copied the value into {@code chunk}'s {@code slot}.
     *
     * @param expiresAtMillis wall-clock expiry, {@code 0} for none (a plain entry)
     */
    static StoredEntry of(SlabChunk chunk, int slot, int length, long version, long expiresAtMillis, long nowMillis) {
        return expiresAtMillis == 0 ? new StoredEntry(chunk, slot, length, version, nowMillis)
                : new Expiring(chunk, slot, length, version, expiresAtMillis, nowMillis);
    }

    /** The same value, version, expiry, access time and sampling slots, read from another slot. */
    StoredEntry movedTo(SlabChunk newChunk, int newSlot) {
        StoredEntry moved = of(newChunk, newSlot, length(), version, expiresAtMillis(), accessedAtMillis());
        moved.keySlot = keySlot;
        if (hasTtl()) {
            moved.ttlSlot(ttlSlot());
        }
        return moved;
    }

    /**
     * A copy of the value. Exact under the segment's write lock; a lock-free caller must check
     * {@link #stillHolds} after it.
     */
    byte[] value() {
        int from = chunk.offset(slot());
        return Arrays.copyOfRange(chunk.data, from, from + length());
    }

    /** Whether {@code other} reads the same slot (an overwrite stored in place of it). */
    boolean sharesSlotWith(StoredEntry other) {
        return chunk == other.chunk && slot() == other.slot();
    }

    SlabChunk chunk() {
        return chunk;
    }

    int slot() {
        return place == OWN_ARRAY ? 0 : place & 0xFF;
    }

    int length() {
        return place == OWN_ARRAY ? chunk.data.length : place >>> 8;
    }

    /**
     * Before a lock-free copy of version, length and value: the stamp {@link #stillHolds} checks the copy against.
     * An odd stamp means a rewrite is under way: read again.
     */
    int readStamp() {
        return (int) REWRITES.getAcquire(this);
    }

    /**
     * After a lock-free copy of the value: {@code true} when this entry read the same value throughout since
     * {@code stamp} was taken; {@code false} when it was freed or rewritten meanwhile (the copy may be torn; read
     * the map again). The acquire fence keeps the copy's loads before these loads, as an optimistic read of a
     * {@code StampedLock} does.
     */
    boolean stillHolds(int stamp) {
        VarHandle.acquireFence();
        return (stamp & 1) == 0 && !(boolean) FREED.getOpaque(this) && (int) REWRITES.getOpaque(this) == stamp;
    }

    /** Whether {@link #rewrite} may take {@code length} bytes without a TTL: a class slot, and no TTL now either. */
    boolean canRewrite(int length) {
        return !hasTtl() && place != OWN_ARRAY && length <= ValueSlabs.LARGEST_SLOT_BYTES
                && ValueSlabs.classOf(length) == ValueSlabs.classOf(length());
    }

    /**
     * Under the write lock, when {@link #canRewrite}: this entry now reads {@code value} under {@code newVersion},
     * in the same slot. The odd stamp is ordered before the first store of the new value and the even one after
     * the last, so a lock-free reader's {@link #stillHolds} fails for any copy that overlapped.
     */
    void rewrite(byte[] value, long newVersion, long nowMillis) {
        int stamp = (int) REWRITES.getOpaque(this); // even: only the lock holder changes it
        REWRITES.setOpaque(this, stamp + 1);
        VarHandle.storeStoreFence();
        int slot = slot();
        System.arraycopy(value, 0, chunk.data, chunk.offset(slot), value.length);
        place = slot | value.length << 8;
        version = newVersion;
        REWRITES.setRelease(this, stamp + 2);
        ACCESSED_AT.setOpaque(this, nowMillis);
    }

    /**
     * Under the write lock, before the slot is released: the flag is ordered before every later store (the next
     * owner's bytes), so a reader that copied any of those bytes sees the flag.
     */
    void markFreed() {
        FREED.setVolatile(this, true);
        VarHandle.storeStoreFence();
    }

    long version() {
        return version;
    }

    /** Wall-clock expiry, {@code 0} for none. */
    long expiresAtMillis() {
        return 0;
    }

    boolean hasTtl() {
        return false;
    }

    boolean isExpired(long nowMillis) {
        return false;
    }

    /** Position in the segment's array of keys with a TTL; only an entry with a TTL has one. */
    int ttlSlot() {
        throw new IllegalStateException("an entry without a TTL has no TTL slot");
    }

    void ttlSlot(int slot) {
        throw new IllegalStateException("an entry without a TTL has no TTL slot");
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
        return EntrySize.of(key.bytes().length, length());
    }

    long ttlRemainingMillis(long nowMillis) {
        return 0;
    }

    /** An entry with a TTL: 56 bytes (with compressed references). */
    private static final class Expiring extends StoredEntry {
        private final long expiresAtMillis;
        /** Position in the segment's array of keys with a TTL; under the segment's write lock. */
        private int ttlSlot = -1;

        Expiring(SlabChunk chunk, int slot, int length, long version, long expiresAtMillis, long nowMillis) {
            super(chunk, slot, length, version, nowMillis);
            this.expiresAtMillis = expiresAtMillis;
        }

        @Override
        long expiresAtMillis() {
            return expiresAtMillis;
        }

        @Override
        boolean hasTtl() {
            return true;
        }

        @Override
        boolean isExpired(long nowMillis) {
            return nowMillis >= expiresAtMillis;
        }

        @Override
        int ttlSlot() {
            return ttlSlot;
        }

        @Override
        void ttlSlot(int slot) {
            ttlSlot = slot;
        }

        @Override
        long ttlRemainingMillis(long nowMillis) {
            return Math.max(1, expiresAtMillis - nowMillis);
        }
    }
}
