package io.zaris.resp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which RESP connections read which keys, for {@code CLIENT TRACKING}'s default mode: a change of a remembered key
 * forgets it and names the connections to tell, once (a connection that reads the key again is remembered again).
 *
 * <p><b>Bound.</b> At most {@code maxKeys} keys are remembered (Redis's {@code tracking-table-max-keys}); remembering
 * one more forgets the key remembered first, and the caller tells its readers that it changed, as Redis does, so no
 * connection keeps a value nobody would tell it about. Connections are held by id, not by reference: one that closed
 * or turned tracking off stays named until its keys change or are evicted, and the caller skips ids it no longer
 * knows (Redis is as lazy). Memory is therefore bounded by {@code maxKeys} keys and their readers' ids.
 *
 * <p><b>Concurrency.</b> One monitor. {@link #remember} runs on connections' event loops, {@link #changed} on the
 * writer's thread under the segment's write lock (it never takes a segment lock, so no lock order arises), and
 * {@link #dropSegments} on the membership events thread; each holds the monitor for a hash lookup or, rarely, one
 * pass over the table. {@link #isEmpty} reads a volatile count without the monitor, so a write finds out that
 * nobody tracks without locking or allocating.
 */
final class TrackingTable {

    /** Keys remembered at most unless configured otherwise: Redis's default {@code tracking-table-max-keys}. */
    static final int DEFAULT_MAX_KEYS = 1_000_000;

    private static final long[] NO_CLIENTS = new long[0];

    /** Keys of one connection to invalidate together (one {@code invalidate} push). */
    record Invalidation(long clientId, List<byte[]> keys) {
    }

    /** A remembered key with its segment, so a lost segment's keys are found without hashing them again. */
    private record Key(int segment, byte[] bytes) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.segment == segment && Arrays.equals(key.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    private final int maxKeys;
    /** Key → ids of the connections that read it since it last changed; insertion order is eviction order. */
    private final LinkedHashMap<Key, long[]> readers = new LinkedHashMap<>();
    /** {@code readers.size()}, written under the monitor, read without it. */
    private volatile int size;

    TrackingTable(int maxKeys) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("the tracking table must hold at least one key, not " + maxKeys);
        }
        this.maxKeys = maxKeys;
    }

    /** True when no key is remembered: lock-free, for the write path. */
    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /**
     * Remembers that connection {@code clientId} read {@code key}.
     *
     * @return the keys forgotten to stay within the bound, per connection that had read them (usually none)
     */
    synchronized List<Invalidation> remember(int segment, byte[] key, long clientId) {
        Key tracked = new Key(segment, key);
        long[] ids = readers.get(tracked);
        if (ids != null) {
            for (long id : ids) {
                if (id == clientId) {
                    return List.of();
                }
            }
            long[] grown = Arrays.copyOf(ids, ids.length + 1);
            grown[ids.length] = clientId;
            readers.put(tracked, grown);
            return List.of();
        }
        readers.put(tracked, new long[] {clientId});
        List<Invalidation> evicted = List.of();
        if (readers.size() > maxKeys) {
            Iterator<Map.Entry<Key, long[]>> oldest = readers.entrySet().iterator();
            Map.Entry<Key, long[]> victim = oldest.next();
            oldest.remove();
            evicted = group(List.of(victim));
        }
        size = readers.size();
        return evicted;
    }

    /** {@code key} changed: forgets it and returns the ids of the connections that read it (none: an empty array). */
    long[] changed(int segment, byte[] key) {
        if (size == 0) {
            return NO_CLIENTS;
        }
        synchronized (this) {
            long[] ids = readers.remove(new Key(segment, key));
            if (ids == null) {
                return NO_CLIENTS;
            }
            size = readers.size();
            return ids;
        }
    }

    /** Forgets every key of {@code segments} (this node no longer serves them), grouped per connection that read them. */
    synchronized List<Invalidation> dropSegments(BitSet segments) {
        if (readers.isEmpty() || segments.isEmpty()) {
            return List.of();
        }
        List<Map.Entry<Key, long[]>> dropped = new ArrayList<>();
        for (Iterator<Map.Entry<Key, long[]>> it = readers.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, long[]> entry = it.next();
            if (segments.get(entry.getKey().segment())) {
                dropped.add(Map.entry(entry.getKey(), entry.getValue()));
                it.remove();
            }
        }
        size = readers.size();
        return group(dropped);
    }

    private static List<Invalidation> group(List<Map.Entry<Key, long[]>> entries) {
        Map<Long, List<byte[]>> byClient = new LinkedHashMap<>();
        for (Map.Entry<Key, long[]> entry : entries) {
            for (long id : entry.getValue()) {
                byClient.computeIfAbsent(id, ignored -> new ArrayList<>()).add(entry.getKey().bytes());
            }
        }
        List<Invalidation> result = new ArrayList<>(byClient.size());
        byClient.forEach((id, keys) -> result.add(new Invalidation(id, List.copyOf(keys))));
        return result;
    }
}
