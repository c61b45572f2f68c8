package io.zaris.client;

import io.zaris.model.VersionedValue;
import io.zaris.protocol.SegmentChange;
import io.zaris.protocol.SegmentInvalidations;
import io.zaris.protocol.SegmentTrackAnswer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Values this client read, kept in its memory and served without a round trip while the stream of changes
 * that would invalidate them is live (see {@link NearCacheVerdict} and {@link SegmentStreams}). After a failover,
 * a planned move or a lost connection the entries stay but are not served until the segment's stream resumed on
 * the new owner from the position it reached ({@link #tracked}); only a segment whose history the new owner no
 * longer holds loses its entries.
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
 * from that read behind (at worst a fill is withdrawn needlessly). A fill also needs the segment's stream to be
 * live, on the connection that answered, in the generation the read was sent under: a read answered across a
 * stream transition never fills.
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
    private final SegmentStreams streams = new SegmentStreams();
    private final AtomicLongArray stamps = new AtomicLongArray(STAMP_STRIPES);
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder invalidations = new LongAdder();
    private final LongAdder resumed = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    NearCache(NearCacheOptions options) {
        if (!options.enabled()) {
            throw new IllegalArgumentException("near cache options are disabled");
        }
        this.store = new BoundedLruStore<>(options.maxEntries(), options.maxBytes(), Entry::weight);
    }

    /**
     * The cached value if its segment's stream is live on the routed connection, else {@code null}. An entry whose
     * stream is down stays (it may be proven current again when the stream resumes); an expired one is dropped.
     *
     * @param routed      the connection the client routes the segment to now ({@code null} when none)
     * @param routedOpen  whether it is open
     * @param routedEpoch the epoch the client routes the segment by now
     */
    VersionedValue lookup(byte[] key, int segment, Object routed, boolean routedOpen, long routedEpoch, long nowNanos) {
        NearKey k = new NearKey(key);
        Entry entry = store.get(k);
        if (entry == null) {
            misses.increment();
            return null;
        }
        SegmentStreams.Stream stream = streams.of(segment);
        NearCacheVerdict verdict = NearCacheVerdict.of(stream.state() == SegmentStreams.State.LIVE,
                stream.connection() == routed && stream.epoch() == routedEpoch, routedOpen, entry.expiresAtNanos,
                nowNanos);
        if (!verdict.servable()) {
            if (verdict == NearCacheVerdict.EXPIRED) {
                store.remove(k, entry);
            }
            misses.increment();
            return null;
        }
        hits.increment();
        long ttlLeft = entry.expiresAtNanos == Long.MAX_VALUE ? 0
                : Math.max(1, TimeUnit.NANOSECONDS.toMillis(entry.expiresAtNanos - nowNanos));
        return new VersionedValue(entry.value, entry.version, ttlLeft);
    }

    /**
     * A read of {@code segment} is about to go to {@code routed}: returns the {@code TRACK_SEGMENT} to send ahead
     * of it when the segment's stream does not run there yet (see {@link SegmentStreams#begin}), else {@code null}.
     */
    SegmentStreams.Track beginTrack(int segment, Object routed, long routedEpoch) {
        return streams.begin(segment, routed, routedEpoch);
    }

    /** The generation a read sent now to {@code routed} fills under (see {@link #fill}). */
    long generationFor(int segment, Object routed, long routedEpoch) {
        return streams.generationFor(segment, routed, routedEpoch);
    }

    /**
     * Event loop of the connection that answered the track: drops the keys changed since the position (or, when the
     * node could not resume, every entry of the segment), then lets the stream go live. Dropping first means no
     * lookup can serve an entry the answer names: the stream is not live until after.
     */
    void tracked(int segment, SegmentStreams.Track track, SegmentTrackAnswer answer) {
        if (!streams.tracking(segment, track.generation())) {
            return;
        }
        for (SegmentChange change : answer.changes()) {
            invalidate(change.key(), segment);
        }
        if (!answer.resumed() && track.sinceRevision() >= 0) {
            dropSegment(segment);
        }
        if (streams.tracked(segment, track.generation(), answer.revision(), answer.epoch())
                && track.sinceRevision() >= 0) {
            (answer.resumed() ? resumed : dropped).increment();
        }
    }

    /** The track of {@code generation} failed; the next read of the segment tries again. */
    void trackFailed(int segment, long generation) {
        streams.trackFailed(segment, generation);
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
    void fill(byte[] key, int segment, long stamp, long generation, VersionedValue value, Object source,
              long sentAtNanos) {
        if (value == null || !streams.fills(segment, source, generation)) {
            return;
        }
        long expiresAt = value.ttlRemainingMillis() <= 0 ? Long.MAX_VALUE
                : sentAtNanos + TimeUnit.MILLISECONDS.toNanos(value.ttlRemainingMillis());
        NearKey k = new NearKey(key);
        Entry entry = new Entry(value.value(), value.version(), expiresAt, segment,
                (long) ENTRY_OVERHEAD_BYTES + key.length + value.value().length);
        int stripe = stripe(segment);
        if (stamps.get(stripe) != stamp) {
            return;
        }
        if (store.put(k, entry) && (stamps.get(stripe) != stamp || !streams.fills(segment, source, generation))) {
            store.remove(k, entry);
        }
    }

    /** Drops {@code key} (a write by this client, or a pushed change). */
    void invalidate(byte[] key, int segment) {
        stamps.incrementAndGet(stripe(segment));
        store.remove(new NearKey(key));
        invalidations.increment();
    }

    /**
     * Event loop of {@code source}: drops the keys of a batch of changes their owner pushed, then advances the
     * segment's stream position; a push that skips revisions (a change never heard) drops the segment's entries.
     */
    void invalidated(SegmentInvalidations changes, Object source) {
        int segment = changes.segment();
        List<SegmentChange> list = changes.changes();
        for (SegmentChange change : list) {
            invalidate(change.key(), segment);
        }
        if (!list.isEmpty() && streams.pushed(segment, source, list.get(0).revision(),
                list.get(list.size() - 1).revision(), changes.epoch())) {
            dropSegment(segment);
            dropped.increment();
        }
    }

    /**
     * Event loop of {@code source}, a connection that closed: every stream on it is down, so nothing read there is
     * served until its segment resumed elsewhere (or here again). The entries stay for that resume. Bumping the
     * stamps of those segments stops a read answered on the closing connection from filling after the close.
     */
    void forget(Object source) {
        for (int segment : streams.down(source)) {
            stamps.incrementAndGet(stripe(segment));
        }
    }

    /** Drops every entry of {@code segment}: nothing of it can be proven current. */
    private void dropSegment(int segment) {
        stamps.incrementAndGet(stripe(segment));
        store.removeIf(entry -> entry.segment == segment);
    }

    NearCacheStats stats() {
        return new NearCacheStats(hits.sum(), misses.sum(), invalidations.sum(), store.evictions(), store.size(),
                store.weight(), resumed.sum(), dropped.sum());
    }

    private static int stripe(int segment) {
        return Math.floorMod(segment, STAMP_STRIPES);
    }

    /**
     * One cached value and the segment whose stream vouches for it.
     *
     * @param expiresAtNanos time-source time the value expires, {@link Long#MAX_VALUE} for never
     */
    private record Entry(byte[] value, long version, long expiresAtNanos, int segment, long weight) {
    }
}
