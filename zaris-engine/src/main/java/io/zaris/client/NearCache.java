package io.zaris.client;

import io.zaris.model.VersionedValue;
import io.zaris.protocol.SegmentInvalidations;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Values this client read, kept in its memory and served without a round trip while the stream of changes
 * that would invalidate them is intact (see {@link NearCacheVerdict}).
 *
 * <p><b>Staleness.</b> A read served here can miss a write another client made only for the time between
 * the owner's acknowledgement of that write and the arrival of its invalidation here (or of the routing change,
 * for a write on a new owner). This client's own writes drop the key before they are sent and again when
 * answered, so it reads its own writes at once.
 *
 * <p><b>Fills never resurrect.</b> A read's answer races with invalidations of the same key arriving on other
 * threads. Every invalidation first bumps the stamp of the key's stripe, then removes the key; a fill first
 * stores, then checks that the stripe's stamp is still the one taken before the read was sent, and withdraws
 * its entry if not. Whatever the interleaving, an invalidation later than the read's start leaves no entry
 * from that read behind (at worst a fill is withdrawn needlessly).
 *
 * <p>Concurrency: thread-safe. {@code store} has its own lock; {@code stamps} are atomics; callers may come
 * from application threads (reads, writes) and from connections' event loops (answers, pushes).
 */
final class NearCache {

    /** Bytes counted per entry beyond its key and value: the entry object, map node and key wrapper. */
    static final int ENTRY_OVERHEAD_BYTES = 96;
    /** Stripes of invalidation stamps; keys of one segment share a stripe. */
    static final int STAMP_STRIPES = 1024;

    private final BoundedLruStore<NearKey, Entry> store;
    private final AtomicLongArray stamps = new AtomicLongArray(STAMP_STRIPES);
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder invalidations = new LongAdder();

    NearCache(NearCacheOptions options) {
        if (!options.enabled()) {
            throw new IllegalArgumentException("near cache options are disabled");
        }
        this.store = new BoundedLruStore<>(options.maxEntries(), options.maxBytes(), Entry::weight);
    }

    /**
     * The cached value if its stream is intact, else {@code null} (and a dead entry is dropped).
     *
     * @param routed      the connection the client routes the segment to now ({@code null} when none)
     * @param routedOpen  whether it is open
     * @param routedEpoch the epoch the client routes the segment by now
     */
    VersionedValue lookup(byte[] key, Object routed, boolean routedOpen, long routedEpoch, long nowNanos) {
        NearKey k = new NearKey(key);
        Entry entry = store.get(k);
        if (entry == null) {
            misses.increment();
            return null;
        }
        NearCacheVerdict verdict = NearCacheVerdict.of(entry.epoch, routedEpoch, entry.source == routed, routedOpen,
                entry.expiresAtNanos, nowNanos);
        if (!verdict.servable()) {
            store.remove(k, entry);
            misses.increment();
            return null;
        }
        hits.increment();
        long ttlLeft = entry.expiresAtNanos == Long.MAX_VALUE ? 0
                : Math.max(1, TimeUnit.NANOSECONDS.toMillis(entry.expiresAtNanos - nowNanos));
        return new VersionedValue(entry.value, entry.version, ttlLeft);
    }

    /** The stamp to hand to {@link #fill} for a read of a key of {@code segment} about to be sent. */
    long stampOf(int segment) {
        return stamps.get(stripe(segment));
    }

    /**
     * Keeps what a read answered, unless an invalidation of the segment's stripe arrived since {@code stamp}
     * was taken. An absent key is not cached.
     *
     * @param source      the tracked connection that answered
     * @param epoch       the epoch the read was routed by
     * @param sentAtNanos time-source time the read was sent: the value's time to live counts from then
     */
    void fill(byte[] key, int segment, long stamp, VersionedValue value, Object source, long epoch, long sentAtNanos) {
        if (value == null) {
            return;
        }
        long expiresAt = value.ttlRemainingMillis() <= 0 ? Long.MAX_VALUE
                : sentAtNanos + TimeUnit.MILLISECONDS.toNanos(value.ttlRemainingMillis());
        NearKey k = new NearKey(key);
        Entry entry = new Entry(value.value(), value.version(), expiresAt, source, epoch,
                (long) ENTRY_OVERHEAD_BYTES + key.length + value.value().length);
        int stripe = stripe(segment);
        if (stamps.get(stripe) != stamp) {
            return;
        }
        if (store.put(k, entry) && stamps.get(stripe) != stamp) {
            store.remove(k, entry);
        }
    }

    /** Drops {@code key} (a write by this client, or a pushed change). */
    void invalidate(byte[] key, int segment) {
        stamps.incrementAndGet(stripe(segment));
        store.remove(new NearKey(key));
        invalidations.increment();
    }

    /** Drops the keys of a batch of changes that their owner pushed. */
    void invalidated(SegmentInvalidations changes) {
        List<byte[]> keys = changes.keys();
        for (byte[] key : keys) {
            invalidate(key, changes.segment());
        }
    }

    /**
     * Drops every entry read on {@code source}, a connection that closed. They could no longer be served
     * anyway (their stream is down); this gives their memory back at once. Also bumps every stamp, so a read
     * answered on the closing connection cannot fill after the sweep.
     */
    void forget(Object source) {
        for (int i = 0; i < STAMP_STRIPES; i++) {
            stamps.incrementAndGet(i);
        }
        store.removeIf(entry -> entry.source == source);
    }

    NearCacheStats stats() {
        return new NearCacheStats(hits.sum(), misses.sum(), invalidations.sum(), store.evictions(), store.size(),
                store.weight());
    }

    private static int stripe(int segment) {
        return Math.floorMod(segment, STAMP_STRIPES);
    }

    /**
     * One cached value and its provenance: the connection it was read on and the epoch it was routed by.
     *
     * @param expiresAtNanos time-source time the value expires, {@link Long#MAX_VALUE} for never
     */
    private record Entry(byte[] value, long version, long expiresAtNanos, Object source, long epoch, long weight) {
    }
}
