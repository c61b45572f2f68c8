package io.zaris.store;

import io.zaris.protocol.KvStatus;
import io.zaris.protocol.Request;
import io.zaris.protocol.VersionedValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The keys of one segment.
 *
 * <p>Concurrency: reads are lock-free ({@link ConcurrentHashMap#get} of an immutable {@link StoredEntry}).
 * Every write of the segment runs under {@code writeLock}, which makes the segment's writes a single
 * total order: {@code revision} increments once per change and becomes the changed entry's version, so
 * a key's version strictly increases across every change — including delete and re-create — and the
 * same order is what an op log will replicate.
 *
 * <p>Expiry is lazy here: an expired entry reads as absent and is physically removed by the next write
 * that touches it.
 */
final class Segment {

    private final ConcurrentHashMap<ByteKey, StoredEntry> entries = new ConcurrentHashMap<>();
    private final Object writeLock = new Object();
    /** Last revision handed out; written under {@code writeLock}, volatile for lock-free readers. */
    private volatile long revision;

    VersionedValue get(byte[] key, long now) {
        StoredEntry entry = live(new ByteKey(key), now);
        return entry == null ? null : entry.toVersionedValue(now);
    }

    WriteResult put(byte[] key, byte[] value, long ttlMillis, boolean ifAbsent, long expectedVersion, long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            StoredEntry current = live(k, now);
            long currentVersion = current == null ? 0 : current.version();
            if ((ifAbsent && current != null)
                    || (expectedVersion != Request.ANY_VERSION && expectedVersion != currentVersion)) {
                return new WriteResult(KvStatus.CONFLICT, currentVersion);
            }
            long version = ++revision;
            entries.put(k, new StoredEntry(value, version, expiry(ttlMillis, now)));
            return new WriteResult(KvStatus.OK, version);
        }
    }

    WriteResult delete(byte[] key, long expectedVersion, long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            StoredEntry current = live(k, now);
            if (expectedVersion != Request.ANY_VERSION && expectedVersion != (current == null ? 0 : current.version())) {
                return new WriteResult(KvStatus.CONFLICT, current == null ? 0 : current.version());
            }
            if (current == null) {
                return new WriteResult(KvStatus.NOT_FOUND, 0);
            }
            entries.remove(k);
            return new WriteResult(KvStatus.OK, ++revision);
        }
    }

    IncrementResult increment(byte[] key, long delta, long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            StoredEntry current = live(k, now);
            long base = 0;
            if (current != null) {
                Long parsed = DecimalCounter.parse(current.value());
                if (parsed == null) {
                    return IncrementResult.wrongType("value is not an integer or out of range");
                }
                base = parsed;
            }
            long next;
            try {
                next = Math.addExact(base, delta);
            } catch (ArithmeticException e) {
                return IncrementResult.wrongType("increment or decrement would overflow");
            }
            long version = ++revision;
            long expiresAt = current == null ? 0 : current.expiresAtMillis();
            entries.put(k, new StoredEntry(Long.toString(next).getBytes(StandardCharsets.US_ASCII), version, expiresAt));
            return IncrementResult.ok(next, version);
        }
    }

    WriteResult touch(byte[] key, long ttlMillis, long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            StoredEntry current = live(k, now);
            if (current == null) {
                return new WriteResult(KvStatus.NOT_FOUND, 0);
            }
            long version = ++revision;
            entries.put(k, new StoredEntry(current.value(), version, expiry(ttlMillis, now)));
            return new WriteResult(KvStatus.OK, version);
        }
    }

    List<VersionedValue> multiGet(List<byte[]> keys, long now) {
        List<VersionedValue> values = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            values.add(get(key, now));
        }
        return values;
    }

    /** All entries are written under one hold of the lock: no other write of the segment interleaves. */
    long[] multiPut(List<byte[]> keys, List<byte[]> values, long ttlMillis, long now) {
        long[] versions = new long[keys.size()];
        long expiresAt = expiry(ttlMillis, now);
        synchronized (writeLock) {
            for (int i = 0; i < keys.size(); i++) {
                versions[i] = ++revision;
                entries.put(new ByteKey(keys.get(i)), new StoredEntry(values.get(i), versions[i], expiresAt));
            }
        }
        return versions;
    }

    int multiDelete(List<byte[]> keys, long now) {
        int deleted = 0;
        synchronized (writeLock) {
            for (byte[] key : keys) {
                ByteKey k = new ByteKey(key);
                if (live(k, now) != null) {
                    entries.remove(k);
                    ++revision;
                    deleted++;
                }
            }
        }
        return deleted;
    }

    /** Appends the keys of live entries; weakly consistent with concurrent writes. */
    void collectKeys(List<byte[]> out, long now) {
        for (Map.Entry<ByteKey, StoredEntry> entry : entries.entrySet()) {
            if (!entry.getValue().isExpired(now)) {
                out.add(entry.getKey().bytes());
            }
        }
    }

    /** Entries held, including expired ones not yet removed. */
    int size() {
        return entries.size();
    }

    long revision() {
        return revision;
    }

    /** The entry if present and not expired; an expired entry is removed when called under the lock. */
    private StoredEntry live(ByteKey key, long now) {
        StoredEntry entry = entries.get(key);
        if (entry == null || !entry.isExpired(now)) {
            return entry;
        }
        if (Thread.holdsLock(writeLock)) {
            entries.remove(key, entry);
        }
        return null;
    }

    private static long expiry(long ttlMillis, long now) {
        if (ttlMillis == Request.NO_TTL) {
            return 0;
        }
        long expiresAt = now + ttlMillis;
        return expiresAt < now ? Long.MAX_VALUE : expiresAt;
    }
}
