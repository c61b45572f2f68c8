package io.zaris.store;

import io.zaris.protocol.Change;
import io.zaris.protocol.KvStatus;
import io.zaris.protocol.Request;
import io.zaris.protocol.VersionedValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The keys of one segment.
 *
 * <p>Concurrency: reads are lock-free ({@link ConcurrentHashMap#get} of an immutable {@link StoredEntry}).
 * Every write of the segment — local or replicated, snapshot install included — runs under
 * {@code writeLock}, which makes the segment's changes a single total order: {@code revision} increments
 * once per change and becomes the changed entry's version, so a key's version strictly increases across
 * every change (delete and re-create included). Under the same lock each change is appended to the
 * {@link OpLog} and handed to the {@link ChangeSink}, so replication ships changes in revision order.
 *
 * <p>Expiry is lazy here: an expired entry reads as absent and is physically removed by the next write
 * that touches it (expiry is wall-clock and replicated, so every replica agrees on it).
 */
final class Segment {

    private final int index;
    private final ConcurrentHashMap<ByteKey, StoredEntry> entries = new ConcurrentHashMap<>();
    private final Object writeLock = new Object();
    private final OpLog log;
    private final ChangeSink sink;
    /** Guarded by {@code writeLock}. */
    private final EpochStarts epochStarts = new EpochStarts(8);
    /** Last revision of the segment; written under {@code writeLock}, volatile for lock-free readers. */
    private volatile long revision;

    Segment(int index, int logMaxChanges, long logMaxBytes, ChangeSink sink) {
        this.index = index;
        this.log = new OpLog(logMaxChanges, logMaxBytes);
        this.sink = sink;
    }

    VersionedValue get(byte[] key, long now) {
        StoredEntry entry = live(new ByteKey(key), now);
        return entry == null ? null : entry.toVersionedValue(now);
    }

    WriteResult put(byte[] key, byte[] value, long ttlMillis, boolean ifAbsent, long expectedVersion, long epoch,
                    long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            StoredEntry current = live(k, now);
            long currentVersion = current == null ? 0 : current.version();
            if ((ifAbsent && current != null)
                    || (expectedVersion != Request.ANY_VERSION && expectedVersion != currentVersion)) {
                return new WriteResult(KvStatus.CONFLICT, currentVersion);
            }
            Change change = upsert(k, value, expiry(ttlMillis, now), epoch);
            return new WriteResult(KvStatus.OK, change.revision(), ship(List.of(change)));
        }
    }

    WriteResult delete(byte[] key, long expectedVersion, long epoch, long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            StoredEntry current = live(k, now);
            if (expectedVersion != Request.ANY_VERSION && expectedVersion != (current == null ? 0 : current.version())) {
                return new WriteResult(KvStatus.CONFLICT, current == null ? 0 : current.version());
            }
            if (current == null) {
                return new WriteResult(KvStatus.NOT_FOUND, 0);
            }
            Change change = remove(k, epoch);
            return new WriteResult(KvStatus.OK, change.revision(), ship(List.of(change)));
        }
    }

    IncrementResult increment(byte[] key, long delta, long epoch, long now) {
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
            long expiresAt = current == null ? 0 : current.expiresAtMillis();
            Change change = upsert(k, Long.toString(next).getBytes(StandardCharsets.US_ASCII), expiresAt, epoch);
            return IncrementResult.ok(next, change.revision(), ship(List.of(change)));
        }
    }

    WriteResult touch(byte[] key, long ttlMillis, long epoch, long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            StoredEntry current = live(k, now);
            if (current == null) {
                return new WriteResult(KvStatus.NOT_FOUND, 0);
            }
            Change change = upsert(k, current.value(), expiry(ttlMillis, now), epoch);
            return new WriteResult(KvStatus.OK, change.revision(), ship(List.of(change)));
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
    MultiWriteResult multiPut(List<byte[]> keys, List<byte[]> values, long ttlMillis, long epoch, long now) {
        long[] versions = new long[keys.size()];
        long expiresAt = expiry(ttlMillis, now);
        synchronized (writeLock) {
            List<Change> changes = new ArrayList<>(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                Change change = upsert(new ByteKey(keys.get(i)), values.get(i), expiresAt, epoch);
                versions[i] = change.revision();
                changes.add(change);
            }
            return new MultiWriteResult(versions, 0, ship(changes));
        }
    }

    MultiWriteResult multiDelete(List<byte[]> keys, long epoch, long now) {
        synchronized (writeLock) {
            List<Change> changes = new ArrayList<>();
            for (byte[] key : keys) {
                ByteKey k = new ByteKey(key);
                if (live(k, now) != null) {
                    changes.add(remove(k, epoch));
                }
            }
            return new MultiWriteResult(new long[0], changes.size(),
                    changes.isEmpty() ? WriteResult.NOTHING_TO_REPLICATE : ship(changes));
        }
    }

    // ------------------------------------------------------------------ replication

    /**
     * Replica side: applies shipped changes in order. A change at or below the segment's revision is a
     * duplicate and skipped; one that does not directly follow it is a gap: nothing from there on is
     * applied and the caller must be caught up.
     */
    ApplyResult applyReplicated(List<Change> changes) {
        synchronized (writeLock) {
            for (Change change : changes) {
                if (change.revision() <= revision) {
                    continue;
                }
                if (change.revision() != revision + 1) {
                    return new ApplyResult(true, revision);
                }
                ByteKey k = new ByteKey(change.key());
                if (change.isRemoval()) {
                    entries.remove(k);
                } else {
                    entries.put(k, new StoredEntry(change.value(), change.revision(), change.expiresAtMillis()));
                }
                revision = change.revision();
                epochStarts.onChange(change.epoch(), change.revision());
                log.append(change);
            }
            return new ApplyResult(false, revision);
        }
    }

    /**
     * Replica side: installs one chunk of a snapshot. The first chunk clears the segment; the last sets
     * its revision. Chunks of one snapshot arrive in order from one active owner.
     */
    void installSnapshotChunk(boolean first, boolean last, long snapshotRevision, List<Change> chunk) {
        synchronized (writeLock) {
            if (first) {
                entries.clear();
                log.clear();
                epochStarts.clear();
            }
            for (Change entry : chunk) {
                entries.put(new ByteKey(entry.key()), new StoredEntry(entry.value(), entry.revision(), entry.expiresAtMillis()));
            }
            if (last) {
                revision = snapshotRevision;
            }
        }
    }

    /**
     * Active side: hands {@code consumer}, under the write lock, what a replica at {@code fromRevision}
     * needs — the log tail when the log reaches back that far, else a full snapshot — so whatever the
     * consumer enqueues precedes every later change.
     */
    void catchUp(long fromRevision, long epoch, Consumer<List<Change>> tailConsumer, Consumer<SegmentSnapshot> snapshotConsumer,
                 long now) {
        synchronized (writeLock) {
            List<Change> tail = fromRevision < 0 ? null : log.since(fromRevision, revision);
            if (tail != null) {
                tailConsumer.accept(tail);
                return;
            }
            List<Change> all = new ArrayList<>(entries.size());
            for (Map.Entry<ByteKey, StoredEntry> entry : entries.entrySet()) {
                StoredEntry stored = entry.getValue();
                if (!stored.isExpired(now)) {
                    all.add(new Change(stored.version(), epoch, entry.getKey().bytes(), stored.value(), stored.expiresAtMillis()));
                }
            }
            snapshotConsumer.accept(new SegmentSnapshot(revision, epoch, all));
        }
    }

    // ------------------------------------------------------------------ reads for scans and reports

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

    /** The revision before this segment's first change of {@code epoch} (see {@link EpochStarts#startOf}). */
    long startOfEpoch(long epoch) {
        synchronized (writeLock) {
            return epochStarts.startOf(epoch, revision);
        }
    }

    /** Under the lock. */
    private Change upsert(ByteKey key, byte[] value, long expiresAt, long epoch) {
        long version = ++revision;
        entries.put(key, new StoredEntry(value, version, expiresAt));
        Change change = new Change(version, epoch, key.bytes(), value, expiresAt);
        epochStarts.onChange(epoch, version);
        log.append(change);
        return change;
    }

    /** Under the lock. */
    private Change remove(ByteKey key, long epoch) {
        entries.remove(key);
        Change change = new Change(++revision, epoch, key.bytes(), null, 0);
        epochStarts.onChange(epoch, change.revision());
        log.append(change);
        return change;
    }

    /** Under the lock: hands the changes to replication in revision order. */
    private CompletableFuture<Void> ship(List<Change> changes) {
        try {
            return sink.ship(index, changes);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
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
