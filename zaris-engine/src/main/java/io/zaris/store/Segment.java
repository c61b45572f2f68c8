package io.zaris.store;

import io.zaris.model.AckMode;
import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.model.KeyContent;
import io.zaris.model.KvStatus;
import io.zaris.model.ListPosition;
import io.zaris.model.SegmentDigest;
import io.zaris.model.VersionedValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * The keys of one segment.
 *
 * <p>Concurrency: reads are lock-free ({@link ConcurrentHashMap#get} of a {@link StoredEntry}, then a copy of
 * its version and value out of its slab slot, validated and retried if the slot was freed or the entry
 * rewritten in place meanwhile: see {@link StoredEntry#readStamp} and {@link StoredEntry#stillHolds}).
 * Every write of the segment — local or replicated, snapshot install included — runs under
 * {@code writeLock}, which makes the segment's changes a single total order: {@code revision} increments
 * once per change and becomes the changed entry's version, so a key's version strictly increases across
 * every change (delete and re-create included). Under the same lock each change is appended to the
 * {@link OpLog} and handed to the {@link ChangeSink}, so replication ships changes in revision order.
 *
 * <p>Expiry: an expired entry reads as absent at once (expiry is wall-clock and replicated, so every replica
 * agrees on it). It is physically removed only by a change — overwritten by the next write of the key, or
 * removed by the active owner as an ordinary removal that is logged and replicated: when a read of the active
 * owner finds it ({@link #getRemovingExpired}, lazy expiry), by the expiry sweep ({@link #expireSample}) or by
 * eviction ({@link #evict}) — so replicas hold exactly what their active owner holds and never remove
 * anything on their own.
 *
 * <p>Hashes: a key holds a string ({@link StoredEntry} in a slab slot) or a hash ({@link HashEntry}, changed in
 * place field by field). String reads stay lock-free and answer {@link WrongTypeException} for a hash; hash reads
 * and writes take {@code writeLock} ({@link #readHash}, {@link #writeHash}), and every field change is a change of
 * its own in the op log and to replication. A set ({@link SetEntry}) is a hash whose fields are its members,
 * without values: read and written the same way ({@link #readSet}, {@link #writeSet}), each member added or
 * removed one change. A hash command on a set, or a set command on a hash, meets {@link WrongTypeException}.
 * A list ({@link ListEntry}) is changed in place by position ({@link #readList}, {@link #writeList}): each element
 * inserted, run removed or element set is one change, and its op log entry keeps the element itself (a list's
 * changes replay only in order, so a tail ships them all rather than reading values back from the entry).
 * A
 * sorted set ({@link SortedSetEntry}) is a hash whose fields are its members and whose values their scores, plus their
 * order: read and written the same way ({@link #readSortedSet}, {@link #writeSortedSet}), each score set one change
 * carrying the score itself. Every collection type meets every other with {@link WrongTypeException}.
 *
 * <p>Memory: every mutation of {@code entries} goes through {@link #install} or {@link #discard} (or the
 * snapshot clear, or {@link #installCollection} and a hash's (or set's) field changes, which charge their bytes the same way),
 * which keep {@code bytes}, the node-wide {@link StoreMemory} and the two sampling arrays ({@code allKeys},
 * {@code ttlKeys}) in step with the map, in O(1). All four are guarded by {@code writeLock}.
 * Values live in the segment's {@link ValueSlabs}, also guarded by {@code writeLock}: {@link #install} stores
 * the new value before it frees the replaced one's slot.
 */
final class Segment {

    private final int index;
    private final ConcurrentHashMap<ByteKey, StoredEntry> entries = new ConcurrentHashMap<>();
    /** Guarded by {@code writeLock}. */
    private final ValueSlabs slabs = new ValueSlabs(entries);
    private final Object writeLock = new Object();
    private final OpLog log;
    private final ChangeSink sink;
    /** Guarded by {@code writeLock}. */
    private final EpochStarts epochStarts = new EpochStarts(8);
    private final StoreMemory memory;
    /** Every key, for random sampling; guarded by {@code writeLock}. */
    private final SampledKeys allKeys = new SampledKeys();
    /** Keys with a TTL, for random sampling by active expiry and the volatile policies; guarded by {@code writeLock}. */
    private final SampledKeys ttlKeys = new SampledKeys();
    /** Bytes charged for this segment's entries; written under {@code writeLock}, volatile for lock-free readers. */
    private volatile long bytes;
    /** Last revision of the segment; written under {@code writeLock}, volatile for lock-free readers. */
    private volatile long revision;
    /**
     * Writes of an epoch below this are refused: a node taking the partition over under a newer epoch pulled
     * this copy's log ({@link #retireAndReadSince}). Set and checked under {@code writeLock}, so every write
     * of the old epoch either made it into that pull or is refused, never acknowledged behind its back.
     */
    private long retiredBelow;
    /**
     * A planned hand-over's fence ({@link #fenceForHandOver}): the bar it set, and the bar before it, which
     * {@link #liftHandOverFence} restores when no pull made the bar real meanwhile. 0 when no fence is tentative.
     * Guarded by {@code writeLock}.
     */
    private long tentativeBar;
    private long barBeforeFence;
    /**
     * How often this copy was changed by anything but its own writes: a shipped change applied, a snapshot chunk
     * installed, the copy dropped. An active that sees it unchanged since it synced a replica knows its copy has
     * only grown by its own writes since (see {@link SegmentPosition}). Guarded by {@code writeLock}.
     */
    private long foreignChanges;

    Segment(int index, int logMaxChanges, long logMaxBytes, ChangeSink sink, StoreMemory memory) {
        this.index = index;
        this.log = new OpLog(logMaxChanges, logMaxBytes);
        this.sink = sink;
        this.memory = memory;
    }

    /** Lock-free; a hit counts as an access for the LRU policies. An expired entry reads as absent and stays. */
    VersionedValue get(byte[] key, long now) {
        ValueCopy copy = new ValueCopy();
        return read(key, false, 0, now, copy) ? copy.value : null;
    }

    /**
     * Like {@link #getRemovingExpired} (or {@link #get} when {@code removeExpired} is false), but hands the value
     * to {@code reader} in place, without an intermediate copy. Should the slot be reused while the reader copies
     * it, the reader is told to forget that copy and is handed the key's current value.
     *
     * @return {@code false} when the key is absent or expired
     */
    boolean read(byte[] key, boolean removeExpired, long epoch, long now, ValueReader reader) {
        ByteKey k = new ByteKey(key);
        while (true) {
            StoredEntry entry = entries.get(k);
            if (entry == null) {
                return false;
            }
            if (entry.isExpired(now)) {
                if (removeExpired) {
                    removeExpired(k, entry, epoch);
                }
                return false;
            }
            if (entry.isHash()) {
                throw new WrongTypeException();
            }
            int stamp = entry.readStamp();
            if ((stamp & 1) != 0) {
                Thread.onSpinWait(); // a rewrite in place is under way, for the length of one copy
                continue;
            }
            SlabChunk chunk = entry.chunk();
            reader.read(chunk.data, chunk.offset(entry.slot()), entry.length(), entry.version(), entry.ttlRemainingMillis(now));
            if (entry.stillHolds(stamp)) {
                entry.recordAccess(now);
                return true;
            }
            reader.discard();
        }
    }

    /**
     * The active owner's read, under {@code epoch}: like {@link #get}, and an expired entry it finds is removed
     * at once as an ordinary, logged and replicated removal, counted as an expiration (lazy expiry frees the
     * memory, not only hides the key). Lock-free unless the key has expired.
     */
    VersionedValue getRemovingExpired(byte[] key, long epoch, long now) {
        ValueCopy copy = new ValueCopy();
        return read(key, true, epoch, now, copy) ? copy.value : null;
    }

    /** The value {@link #read} hands over, copied out of its slot; one per read, confined to the reading thread. */
    private static final class ValueCopy implements ValueReader {
        VersionedValue value;

        @Override
        public void read(byte[] slab, int offset, int length, long version, long ttlRemainingMillis) {
            value = new VersionedValue(Arrays.copyOfRange(slab, offset, offset + length), version, ttlRemainingMillis);
        }

        @Override
        public void discard() {
            value = null;
        }
    }

    /**
     * Removes {@code seen}, which had expired, unless a change replaced or removed it since (entries are
     * immutable and replaced on every change, so identity tells; a slab move also replaces it, and the key is
     * then left for the next read or the sweep) or this copy no longer takes writes of {@code epoch}.
     */
    private void removeExpired(ByteKey key, StoredEntry seen, long epoch) {
        synchronized (writeLock) {
            if (epoch < retiredBelow || entries.get(key) != seen) {
                return;
            }
            shipUnawaited(List.of(remove(key, epoch)));
            memory.expired(1);
        }
    }

    /** @param ack what the writer waits for; {@code null}: as the node's acknowledgement mode says */
    WriteResult put(byte[] key, byte[] value, long ttlMillis, boolean ifAbsent, long expectedVersion, long epoch,
                    long now, AckMode ack) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return WriteResult.RETIRED;
            }
            StoredEntry stored = entries.get(k); // expired or not: what the write replaces
            StoredEntry current = stored == null || stored.isExpired(now) ? null : stored;
            long currentVersion = current == null ? 0 : current.version();
            if ((ifAbsent && current != null)
                    || (expectedVersion != VersionedValue.ANY_VERSION && expectedVersion != currentVersion)) {
                return new WriteResult(KvStatus.CONFLICT, currentVersion);
            }
            Change change = upsert(k, value, expiry(ttlMillis, now), epoch, now, stored);
            return new WriteResult(KvStatus.OK, change.revision(), ship(List.of(change), ack));
        }
    }

    /** @param ack what the writer waits for; {@code null}: as the node's acknowledgement mode says */
    WriteResult delete(byte[] key, long expectedVersion, long epoch, long now, AckMode ack) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return WriteResult.RETIRED;
            }
            StoredEntry current = live(k, now);
            if (expectedVersion != VersionedValue.ANY_VERSION && expectedVersion != (current == null ? 0 : current.version())) {
                return new WriteResult(KvStatus.CONFLICT, current == null ? 0 : current.version());
            }
            if (current == null) {
                return new WriteResult(KvStatus.NOT_FOUND, 0);
            }
            Change change = remove(k, epoch);
            return new WriteResult(KvStatus.OK, change.revision(), ship(List.of(change), ack));
        }
    }

    IncrementResult increment(byte[] key, long delta, long epoch, long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return IncrementResult.retired();
            }
            StoredEntry current = live(k, now);
            long base = 0;
            if (current != null && current.isHash()) {
                return IncrementResult.wrongType(WrongTypeException.MESSAGE);
            }
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
            Change change = upsert(k, Long.toString(next).getBytes(StandardCharsets.US_ASCII), expiresAt, epoch, now);
            return IncrementResult.ok(next, change.revision(), ship(List.of(change)));
        }
    }

    WriteResult touch(byte[] key, long ttlMillis, long epoch, long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return WriteResult.RETIRED;
            }
            StoredEntry current = live(k, now);
            if (current == null) {
                return new WriteResult(KvStatus.NOT_FOUND, 0);
            }
            Change change = retime(k, current, expiry(ttlMillis, now), epoch, now);
            return new WriteResult(KvStatus.OK, change.revision(), ship(List.of(change)));
        }
    }

    /**
     * Under the lock: the live {@code current} at {@code key} expires at {@code expiresAt} (0 = never). A collection
     * keeps its elements and ships only its new expiry; a string is written again with it.
     */
    private Change retime(ByteKey key, StoredEntry current, long expiresAt, long epoch, long now) {
        if (current.isHash()) {
            long version = ++revision;
            applyExpiry(key, expiresAt, version, now);
            epochStarts.onChange(epoch, version);
            log.append(version, epoch, key, LoggedChange.Kind.EXPIRY, expiresAt);
            return Change.expiry(version, epoch, key.bytes(), expiresAt);
        }
        return upsert(key, current.value(), expiresAt, epoch, now, current);
    }

    List<VersionedValue> multiGet(List<byte[]> keys, long now) {
        List<VersionedValue> values = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            values.add(stringOrNull(() -> get(key, now)));
        }
        return values;
    }

    /** The active owner's multi-key read: {@link #getRemovingExpired} per key. */
    List<VersionedValue> multiGetRemovingExpired(List<byte[]> keys, long epoch, long now) {
        List<VersionedValue> values = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            values.add(stringOrNull(() -> getRemovingExpired(key, epoch, now)));
        }
        return values;
    }

    /** A multi-key read answers a key of another type as absent, as Redis's MGET does. */
    private static VersionedValue stringOrNull(java.util.function.Supplier<VersionedValue> read) {
        try {
            return read.get();
        } catch (WrongTypeException e) {
            return null;
        }
    }

    /** All entries are written under one hold of the lock: no other write of the segment interleaves. */
    MultiWriteResult multiPut(List<byte[]> keys, List<byte[]> values, long ttlMillis, long epoch, long now) {
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return MultiWriteResult.retired();
            }
            return writeAll(keys, values, expiry(ttlMillis, now), epoch, now);
        }
    }

    /**
     * Writes all entries when no key holds a live value, else nothing. The check and the writes happen under
     * one hold of the lock, so two calls over overlapping keys cannot both succeed, and no other write of the
     * segment can land between the check and the writes. The writes are ordinary changes (the same as
     * {@link #multiPut}'s), so replicas need nothing new to apply them.
     */
    MultiWriteResult multiPutIfAbsent(List<byte[]> keys, List<byte[]> values, long ttlMillis, long epoch, long now) {
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return MultiWriteResult.retired();
            }
            for (byte[] key : keys) {
                if (live(new ByteKey(key), now) != null) {
                    return MultiWriteResult.conflict();
                }
            }
            return writeAll(keys, values, expiry(ttlMillis, now), epoch, now);
        }
    }

    /** Caller holds {@code writeLock}. */
    private MultiWriteResult writeAll(List<byte[]> keys, List<byte[]> values, long expiresAt, long epoch, long now) {
        long[] versions = new long[keys.size()];
        List<Change> changes = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            Change change = upsert(new ByteKey(keys.get(i)), values.get(i), expiresAt, epoch, now);
            versions[i] = change.revision();
            changes.add(change);
        }
        return MultiWriteResult.written(versions, ship(changes));
    }

    MultiWriteResult multiDelete(List<byte[]> keys, long epoch, long now) {
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return MultiWriteResult.retired();
            }
            List<Change> changes = new ArrayList<>();
            for (byte[] key : keys) {
                ByteKey k = new ByteKey(key);
                if (live(k, now) != null) {
                    changes.add(remove(k, epoch));
                }
            }
            return MultiWriteResult.deleted(changes.size(),
                    changes.isEmpty() ? WriteResult.NOTHING_TO_REPLICATE : ship(changes));
        }
    }

    // ------------------------------------------------------------------ replication

    /**
     * Replica side: applies shipped changes in order. A change at or below the segment's revision is a
     * duplicate and skipped; one that does not directly follow it is a gap: nothing from there on is
     * applied and the caller must be caught up.
     */
    ApplyResult applyReplicated(List<Change> changes, long now) {
        synchronized (writeLock) {
            foreignChanges++;
            for (int i = 0; i < changes.size(); i++) { // indexed: no iterator per replicated batch group
                Change change = changes.get(i);
                if (change.revision() <= revision) {
                    continue;
                }
                if (change.revision() != revision + 1) {
                    return new ApplyResult(true, revision);
                }
                ByteKey k = new ByteKey(change.key());
                // A list change is logged as it is (ListLog), its position not as a key of its own.
                ByteKey field = change.field() == null || isListChange(change.kind()) ? null : new ByteKey(change.field());
                LoggedChange.Kind kind;
                switch (change.kind()) {
                    case SUPERSEDED -> kind = LoggedChange.Kind.SUPERSEDED; // a later change of the same tail sets the key
                    case REMOVAL -> {
                        discard(k);
                        kind = LoggedChange.Kind.REMOVAL;
                    }
                    case PUT -> {
                        k = store(k, change.value(), change.revision(), change.expiresAtMillis(), now);
                        kind = LoggedChange.Kind.PUT;
                    }
                    case FIELD_PUT -> {
                        applyFieldPut(k, field, change.value(), change.revision(), change.expiresAtMillis(), now);
                        kind = LoggedChange.Kind.FIELD_PUT;
                    }
                    case FIELD_REMOVAL -> {
                        applyFieldRemoval(k, field, change.revision(), now);
                        kind = LoggedChange.Kind.FIELD_REMOVAL;
                    }
                    case MEMBER_PUT -> {
                        applyMemberPut(k, field, change.revision(), change.expiresAtMillis(), now);
                        kind = LoggedChange.Kind.MEMBER_PUT;
                    }
                    case SCORE_PUT -> {
                        applyScorePut(k, field, change.value(), change.revision(), change.expiresAtMillis(), now);
                        kind = LoggedChange.Kind.SCORE_PUT;
                    }
                    case EXPIRY -> {
                        applyExpiry(k, change.expiresAtMillis(), change.revision(), now);
                        kind = LoggedChange.Kind.EXPIRY;
                    }
                    case LIST_INSERT, LIST_REMOVE, LIST_SET -> kind = applyListChange(k, change, now);
                    case RENAME -> {
                        move(k, field, change.revision(), change.expiresAtMillis(), now);
                        kind = LoggedChange.Kind.RENAME;
                    }
                    default -> throw new IllegalStateException("unknown change kind " + change.kind());
                }
                revision = change.revision();
                epochStarts.onChange(change.epoch(), change.revision());
                if (isListChange(change.kind())) {
                    log.appendList(change, k, kind);
                } else {
                    log.append(change.revision(), change.epoch(), k, field, kind, change.expiresAtMillis());
                }
            }
            return new ApplyResult(false, revision);
        }
    }

    private static boolean isListChange(Change.Kind kind) {
        return kind == Change.Kind.LIST_INSERT || kind == Change.Kind.LIST_REMOVE || kind == Change.Kind.LIST_SET;
    }

    /**
     * Replica side: installs one chunk of a snapshot. The first chunk clears the segment; the last sets
     * its revision. Chunks of one snapshot arrive in order from one active owner.
     */
    void installSnapshotChunk(boolean first, boolean last, long snapshotRevision, List<Change> chunk, long now) {
        synchronized (writeLock) {
            foreignChanges++;
            if (first) {
                clearCopy();
            }
            for (Change entry : chunk) { // a snapshot holds values only: strings, hashes field by field, sets member by member
                if (entry.kind() == Change.Kind.PUT) {
                    store(new ByteKey(entry.key()), entry.value(), entry.revision(), entry.expiresAtMillis(), now);
                } else if (entry.kind() == Change.Kind.FIELD_PUT) {
                    applyFieldPut(new ByteKey(entry.key()), new ByteKey(entry.field()), entry.value(), entry.revision(),
                            entry.expiresAtMillis(), now);
                } else if (entry.kind() == Change.Kind.MEMBER_PUT) {
                    applyMemberPut(new ByteKey(entry.key()), new ByteKey(entry.field()), entry.revision(),
                            entry.expiresAtMillis(), now);
                } else if (entry.kind() == Change.Kind.LIST_INSERT) { // element by element, in order
                    applyListChange(new ByteKey(entry.key()), entry, now);
                } else if (entry.kind() == Change.Kind.SCORE_PUT) {
                    applyScorePut(new ByteKey(entry.key()), new ByteKey(entry.field()), entry.value(), entry.revision(),
                            entry.expiresAtMillis(), now);
                }
            }
            if (last) {
                revision = snapshotRevision;
            }
        }
    }

    /**
     * Drops the whole copy (this node no longer has any role in the partition). The revision goes back to 0,
     * so if the node is assigned the partition again its active syncs it from scratch.
     */
    void drop() {
        synchronized (writeLock) {
            foreignChanges++;
            clearCopy();
            revision = 0;
        }
    }

    /** Caller holds {@code writeLock}: empties the entries, their accounting, the log and the epoch starts. */
    private void clearCopy() {
        entries.clear();
        slabs.clear();
        allKeys.clear();
        ttlKeys.clear();
        memory.add(-bytes);
        bytes = 0;
        log.clear();
        epochStarts.clear();
    }

    /**
     * Active side: hands {@code consumer}, under the write lock, what a replica at {@code fromRevision}
     * needs — the log tail when the log reaches back that far, else a full snapshot — so whatever the
     * consumer enqueues precedes every later change.
     */
    void catchUp(long fromRevision, long epoch, Consumer<List<Change>> tailConsumer, Consumer<SegmentSnapshot> snapshotConsumer,
                 long now) {
        synchronized (writeLock) {
            List<Change> tail = fromRevision < 0 ? null : tailSince(fromRevision);
            if (tail != null) {
                tailConsumer.accept(tail);
                return;
            }
            List<Change> all = new ArrayList<>(entries.size());
            for (Map.Entry<ByteKey, StoredEntry> entry : entries.entrySet()) {
                StoredEntry stored = entry.getValue();
                if (stored.isExpired(now)) {
                    continue;
                }
                if (stored instanceof ListEntry list) { // element by element, in order, so the chunks stay bounded
                    for (int i = 0; i < list.size(); i++) {
                        all.add(Change.listInsert(stored.version(), epoch, entry.getKey().bytes(), i, list.get(i),
                                stored.expiresAtMillis()));
                    }
                } else if (stored instanceof SortedSetEntry sorted) { // member by member with its score, in bounded chunks
                    sorted.forEachField((member, score) -> all.add(Change.scorePut(stored.version(), epoch,
                            entry.getKey().bytes(), member, score, stored.expiresAtMillis())));
                } else if (stored instanceof SetEntry set) { // member by member, so the snapshot's chunks stay bounded
                    set.forEachField((member, none) -> all.add(Change.memberPut(stored.version(), epoch,
                            entry.getKey().bytes(), member, stored.expiresAtMillis())));
                } else if (stored instanceof HashEntry hash) { // field by field, so the snapshot's chunks stay bounded
                    hash.forEachField((field, value) -> all.add(Change.fieldPut(stored.version(), epoch,
                            entry.getKey().bytes(), field, value, stored.expiresAtMillis())));
                } else {
                    all.add(new Change(stored.version(), epoch, entry.getKey().bytes(), stored.value(), stored.expiresAtMillis()));
                }
            }
            snapshotConsumer.accept(new SegmentSnapshot(revision, epoch, all));
        }
    }

    long logBytes() {
        synchronized (writeLock) {
            return log.bytes();
        }
    }

    List<Change> changesSince(long fromRevision) {
        synchronized (writeLock) {
            return tailSince(fromRevision);
        }
    }

    /**
     * Under the lock: the changes after {@code fromRevision} as a replica applies them, or {@code null} when
     * the log no longer reaches back that far. The log keeps no values: a put's value is its key's entry's
     * when the entry still carries the put's revision as its version; a put whose key changed again later in
     * the tail is superseded (that later change sets the key). Every change of a key is logged and the log
     * drops oldest first, so one of the two always holds; should neither (a store that changed a key without
     * logging it), the answer is {@code null} and the replica gets a snapshot instead of a wrong value.
     */
    private List<Change> tailSince(long fromRevision) {
        List<LoggedChange> logged = log.since(fromRevision, revision);
        if (logged == null) {
            return null;
        }
        Change[] tail = new Change[logged.size()];
        // Walking back from the newest: keys a later put or removal replaced whole, keys any later change set a
        // value of (those and field changes), and hash fields a later field change set or removed. All three name a
        // value by the key it is at now: a later rename moved the value a key held before it (movedLater), so that
        // key's earlier changes are read back from, and judged against the later changes of, the key it moved to.
        Set<ByteKey> replacedLater = new HashSet<>();
        Set<ByteKey> touchedLater = new HashSet<>();
        Set<FieldOf> fieldsChangedLater = new HashSet<>();
        Map<ByteKey, Moved> movedLater = new HashMap<>();
        for (int i = logged.size() - 1; i >= 0; i--) {
            LoggedChange change = logged.get(i);
            byte[] k = change.key().bytes();
            Moved moved = movedLater.get(change.key());
            if (moved == Moved.REPLACED && change.kind() != LoggedChange.Kind.RENAME) {
                // A later rename replaced the value this change wrote: a write of it is superseded (the replica's
                // copy of it is removed by that rename); a removal, an expiry or a list change is shipped as it is.
                tail[i] = switch (change.kind()) {
                    case REMOVAL -> new Change(change.revision(), change.epoch(), k, null, 0);
                    case EXPIRY -> Change.expiry(change.revision(), change.epoch(), k, change.expiresAtMillis());
                    case FIELD_REMOVAL -> Change.fieldRemoval(change.revision(), change.epoch(), k, change.field().bytes());
                    case LIST_INSERT, LIST_REMOVE, LIST_SET -> ListLog.change(change);
                    default -> Change.superseded(change.revision(), change.epoch(), k);
                };
                continue;
            }
            ByteKey key = moved == null ? change.key() : moved.key();
            long putVersion = moved == null ? change.revision() : moved.version(); // a string's version where it is now
            switch (change.kind()) {
                case RENAME -> {
                    tail[i] = Change.rename(change.revision(), change.epoch(), k, change.field().bytes(),
                            change.expiresAtMillis());
                    // Before this rename, the source's value is the destination's after it (wherever a later rename
                    // took that), and the destination's value is one this rename replaced.
                    Moved destination = movedLater.get(change.field());
                    movedLater.put(change.key(), destination != null ? destination
                            : new Moved(change.field(), change.revision()));
                    movedLater.put(change.field(), Moved.REPLACED);
                }
                case REMOVAL -> {
                    tail[i] = new Change(change.revision(), change.epoch(), k, null, 0);
                    replacedLater.add(key);
                    touchedLater.add(key);
                }
                case EXPIRY -> tail[i] = Change.expiry(change.revision(), change.epoch(), k, change.expiresAtMillis());
                case FIELD_REMOVAL -> {
                    tail[i] = Change.fieldRemoval(change.revision(), change.epoch(), k, change.field().bytes());
                    fieldsChangedLater.add(new FieldOf(key, change.field()));
                    touchedLater.add(key);
                }
                case FIELD_PUT -> {
                    boolean overwrittenLater = replacedLater.contains(key)
                            || !fieldsChangedLater.add(new FieldOf(key, change.field()));
                    touchedLater.add(key);
                    if (overwrittenLater) {
                        tail[i] = Change.superseded(change.revision(), change.epoch(), k);
                    } else {
                        StoredEntry entry = entries.get(key);
                        byte[] value = entry != null && entry.getClass() == HashEntry.class
                                ? ((HashEntry) entry).get(change.field()) : null;
                        if (value == null) {
                            return null;
                        }
                        tail[i] = Change.fieldPut(change.revision(), change.epoch(), k, change.field().bytes(), value,
                                change.expiresAtMillis());
                    }
                }
                case MEMBER_PUT -> {
                    boolean overwrittenLater = replacedLater.contains(key)
                            || !fieldsChangedLater.add(new FieldOf(key, change.field()));
                    touchedLater.add(key);
                    if (overwrittenLater) {
                        tail[i] = Change.superseded(change.revision(), change.epoch(), k);
                    } else {
                        if (!(entries.get(key) instanceof SetEntry set) || !set.contains(change.field())) {
                            return null;
                        }
                        tail[i] = Change.memberPut(change.revision(), change.epoch(), k, change.field().bytes(),
                                change.expiresAtMillis());
                    }
                }
                case LIST_INSERT, LIST_REMOVE, LIST_SET -> {
                    // A list change replays only after the ones before it: shipped as logged, element included.
                    tail[i] = ListLog.change(change);
                    touchedLater.add(key);
                }
                case SCORE_PUT -> {
                    boolean overwrittenLater = replacedLater.contains(key)
                            || !fieldsChangedLater.add(new FieldOf(key, change.field()));
                    touchedLater.add(key);
                    if (overwrittenLater) {
                        tail[i] = Change.superseded(change.revision(), change.epoch(), k);
                    } else {
                        byte[] score = entries.get(key) instanceof SortedSetEntry sorted ? sorted.get(change.field()) : null;
                        if (score == null) {
                            return null;
                        }
                        tail[i] = Change.scorePut(change.revision(), change.epoch(), k, change.field().bytes(), score,
                                change.expiresAtMillis());
                    }
                }
                case SUPERSEDED -> {
                    // Received superseded: the change that superseded it follows in this log, unless the store changed
                    // the key without logging it; then the replica gets a snapshot instead of a hole.
                    if (!touchedLater.contains(key)) {
                        return null;
                    }
                    tail[i] = Change.superseded(change.revision(), change.epoch(), k);
                }
                case PUT -> {
                    boolean overwrittenLater = !touchedLater.add(key);
                    replacedLater.add(key);
                    if (overwrittenLater) {
                        tail[i] = Change.superseded(change.revision(), change.epoch(), k);
                    } else {
                        StoredEntry entry = entries.get(key);
                        if (entry == null || entry.isHash() || entry.version() != putVersion) {
                            return null;
                        }
                        tail[i] = new Change(change.revision(), change.epoch(), k, entry.value(), change.expiresAtMillis());
                    }
                }
                default -> throw new IllegalStateException("unknown logged change " + change.kind());
            }
        }
        return Arrays.asList(tail);
    }

    /** A field of the hash at a key, as a set element. */
    private record FieldOf(ByteKey key, ByteKey field) {
    }

    /**
     * Where a later rename moved the value a key held ({@code key}, where the value is now, whose version a moved
     * string carries as {@code version}: the revision of the last rename that moved it), or {@link #REPLACED} when a
     * later rename replaced it.
     */
    private record Moved(ByteKey key, long version) {
        static final Moved REPLACED = new Moved(null, -1);
    }

    /**
     * A node took the partition over under {@code epoch}: from now on this copy refuses its own writes of
     * older epochs, and the returned log tail (after {@code fromRevision}; {@code null} when the log no
     * longer reaches back that far) holds every one it accepted. One hold of the lock makes both one step.
     */
    List<Change> retireAndReadSince(long epoch, long fromRevision) {
        synchronized (writeLock) {
            retiredBelow = Math.max(retiredBelow, epoch);
            tentativeBar = 0; // a pull retires for good: a fence it overtook is no longer the fence's to lift
            return tailSince(fromRevision);
        }
    }

    /**
     * A planned hand-over is about to give the partition a new active owner: from now on this copy refuses its own
     * writes of epochs below {@code epoch}, as a pull would, but tentatively: {@link #liftHandOverFence} takes the
     * bar back if the hand-over is not published. Every write checks the bar under this lock, so each write either
     * got in before this call (and was shipped under the lock) or is refused with nothing applied.
     */
    void fenceForHandOver(long epoch) {
        synchronized (writeLock) {
            if (retiredBelow < epoch) {
                barBeforeFence = retiredBelow;
                retiredBelow = epoch;
                tentativeBar = epoch;
            }
        }
    }

    /**
     * Takes back the bar {@link #fenceForHandOver} set for {@code epoch}, unless a pull made a bar real since or a
     * later fence replaced it.
     */
    void liftHandOverFence(long epoch) {
        synchronized (writeLock) {
            if (tentativeBar == epoch && retiredBelow == epoch) {
                retiredBelow = barBeforeFence;
                tentativeBar = 0;
            }
        }
    }

    // ------------------------------------------------------------------ memory reclaim (active owner only)

    /**
     * Adds up to {@code count} randomly sampled keys (with replacement) to {@code out}: keys with a TTL only
     * when {@code ttlOnly}. Bounded work under the lock.
     */
    void sample(boolean ttlOnly, int count, RandomGenerator random, List<EvictionCandidate> out) {
        synchronized (writeLock) {
            SampledKeys pool = ttlOnly ? ttlKeys : allKeys;
            for (int i = 0; i < count && pool.size() > 0; i++) {
                ByteKey key = pool.random(random);
                StoredEntry entry = entries.get(key);
                out.add(new EvictionCandidate(index, key, entry.version(), entry.accessedAtMillis(), entry.expiresAtMillis()));
            }
        }
    }

    /**
     * Removes a sampled key as an ordinary, logged and replicated removal, unless it was written since it
     * was sampled. Counted as an expiration when the key had expired, else as an eviction.
     *
     * @return the bytes freed, or -1 when the key was written (or removed) since it was sampled
     */
    long evict(EvictionCandidate candidate, long epoch, long now) {
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return -1;
            }
            StoredEntry current = entries.get(candidate.key());
            if (current == null || current.version() != candidate.version()) {
                return -1;
            }
            long freed = current.sizeBytes(candidate.key());
            boolean expired = current.isExpired(now);
            shipUnawaited(List.of(remove(candidate.key(), epoch)));
            if (expired) {
                memory.expired(1);
            } else {
                memory.evicted();
            }
            return freed;
        }
    }

    /**
     * One round of active expiry: examines up to {@code count} random keys with a TTL and removes the
     * expired ones as ordinary removals, shipped together.
     */
    ExpiryRound expireSample(int count, RandomGenerator random, long epoch, long now) {
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return new ExpiryRound(0, 0);
            }
            List<Change> removals = new ArrayList<>();
            int examined = 0;
            for (; examined < count && ttlKeys.size() > 0; examined++) {
                ByteKey key = ttlKeys.random(random);
                if (entries.get(key).isExpired(now)) {
                    removals.add(remove(key, epoch));
                }
            }
            if (!removals.isEmpty()) {
                shipUnawaited(removals);
                memory.expired(removals.size());
            }
            return new ExpiryRound(examined, removals.size());
        }
    }

    /** What one round of active expiry did. */
    record ExpiryRound(int examined, int expired) {
    }

    /** Bytes charged for this segment's entries. */
    long bytes() {
        return bytes;
    }

    /** Bytes of the slab chunks holding this segment's values, free slots included (see {@link ValueSlabs}). */
    long pooledValueBytes() {
        synchronized (writeLock) {
            return slabs.pooledBytes();
        }
    }

    /** The key's entry in the map, expired or not (for tests: whether a write replaced or rewrote it). */
    StoredEntry entryOf(byte[] key) {
        return entries.get(new ByteKey(key));
    }

    /** Slots in use in the size class of {@code length}-byte values, and slots of its chunks in all. */
    int[] slotUsage(int length) {
        synchronized (writeLock) {
            return slabs.usage(length);
        }
    }

    /** Values moved between slab chunks to drop sparse ones. */
    long movedValues() {
        synchronized (writeLock) {
            return slabs.movedValues();
        }
    }

    /** Keys with a TTL (expired ones not yet removed included). */
    int keysWithTtl() {
        synchronized (writeLock) {
            return ttlKeys.size();
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

    /** Runs {@code action} under the write lock with the copy's position, so whatever it enqueues precedes every later change. */
    void atPosition(java.util.function.Consumer<SegmentPosition> action) {
        synchronized (writeLock) {
            action.accept(position());
        }
    }

    /** Where the copy stands, read at one instant under the lock. */
    SegmentPosition position() {
        synchronized (writeLock) {
            return new SegmentPosition(revision, foreignChanges, epochStarts.newest());
        }
    }

    /**
     * The segment's content as one {@link SegmentDigest}: every entry held (expired ones not yet removed
     * included) and the revision, read together under the write lock so no change falls between them.
     */
    SegmentDigest digest() {
        synchronized (writeLock) {
            ContentDigest content = new ContentDigest();
            for (Map.Entry<ByteKey, StoredEntry> entry : entries.entrySet()) {
                StoredEntry stored = entry.getValue();
                byte[] value = stored instanceof HashEntry hash ? HashDigest.of(hash)
                        : stored instanceof ListEntry list ? list.digest() : stored.value();
                content.add(entry.getKey().bytes(), value, stored.version(), stored.expiresAtMillis());
            }
            return new SegmentDigest(index, content.entries(), revision, content.value());
        }
    }

    /**
     * Subscribes a near-cache tracker ({@code subscribe} runs under the write lock) and tells it where it starts.
     * A tracker that had seen this segment up to {@code sinceRevision}, whose change there was written under
     * {@code sinceEpoch}, resumes when this copy holds that very change and every one after it: one writer per
     * epoch makes the change at a revision unique, and a copy's history is a prefix of its active's, so the
     * same (revision, epoch) means the same history up to there. Revision 0 (nothing seen) is every copy's
     * common start. Because subscribing and reading the log are one hold of the lock, every later change is
     * pushed to the tracker and every one after the position is in the answer, in revision order.
     *
     * @param sinceRevision {@code -1} for a tracker with no position (it starts fresh, nothing to resume)
     */
    TrackStart track(long sinceRevision, long sinceEpoch, Runnable subscribe) {
        synchronized (writeLock) {
            subscribe.run();
            long epochNow = epochStarts.newest();
            if (sinceRevision < 0) {
                return new TrackStart(false, revision, epochNow, List.of());
            }
            boolean sameHistory = sinceRevision == 0
                    || (sinceEpoch >= 0 && sinceRevision <= revision && log.epochAt(sinceRevision) == sinceEpoch);
            List<LoggedChange> tail = sameHistory ? log.since(sinceRevision, revision) : null;
            if (tail == null) {
                return new TrackStart(false, revision, epochNow, List.of());
            }
            List<TrackStart.Change> changes = new ArrayList<>(tail.size());
            for (LoggedChange change : tail) {
                boolean rename = change.kind() == LoggedChange.Kind.RENAME; // changes two keys: its source leaves
                changes.add(new TrackStart.Change(change.revision(), change.key().bytes(),
                        rename || change.kind() == LoggedChange.Kind.REMOVAL));
                if (rename) {
                    changes.add(new TrackStart.Change(change.revision(), change.field().bytes(), false));
                }
            }
            return new TrackStart(true, revision, epochNow, changes);
        }
    }

    /** The revision before this segment's first change of {@code epoch} (see {@link EpochStarts#startOf}). */
    long startOfEpoch(long epoch) {
        synchronized (writeLock) {
            return epochStarts.startOf(epoch, revision);
        }
    }

    // ------------------------------------------------------------------ hashes

    /**
     * Runs {@code read} under the write lock on the live hash at {@code key} ({@code null} when the key is absent or
     * expired), so a read of several fields sees one state of the hash.
     *
     * @throws WrongTypeException when the key holds a string or a set
     */
    <R> R readHash(byte[] key, long now, java.util.function.Function<HashEntry, R> read) {
        synchronized (writeLock) { // held across the read, so it sees one state of the hash
            return read.apply(liveCollection(key, now, HashEntry.class));
        }
    }

    /**
     * Under the write lock: the value of {@code field} in the live hash at {@code key}, {@code null} when the field, the
     * hash or the key is absent (HGET's read, without a closure).
     *
     * @throws WrongTypeException when the key holds another type
     */
    byte[] hashField(byte[] key, byte[] field, long now) {
        synchronized (writeLock) {
            HashEntry hash = liveCollection(key, now, HashEntry.class);
            return hash == null ? null : hash.get(new ByteKey(field));
        }
    }

    /**
     * Runs {@code read} under the write lock on the live set at {@code key} ({@code null} when the key is absent or
     * expired), so a read of several members sees one state of the set.
     *
     * @throws WrongTypeException when the key holds a string or a hash
     */
    <R> R readSet(byte[] key, long now, java.util.function.Function<SetEntry, R> read) {
        synchronized (writeLock) { // held across the read, so it sees one state of the set
            return read.apply((SetEntry) liveCollection(key, now, SetEntry.class));
        }
    }

    /**
     * Runs {@code read} under the write lock on the live sorted set at {@code key} ({@code null} when the key is absent
     * or expired), so a range or rank sees one state of the set.
     *
     * @throws WrongTypeException when the key holds another type
     */
    <R> R readSortedSet(byte[] key, long now, java.util.function.Function<SortedSetEntry, R> read) {
        synchronized (writeLock) { // held across the read, so it sees one state of the sorted set
            return read.apply((SortedSetEntry) liveCollection(key, now, SortedSetEntry.class));
        }
    }

    /**
     * Runs {@code read} under the write lock with a lookup of the live entry at any key of this segment ({@code null}
     * when absent or expired; recorded as accessed), so a read of several keys (ZUNION, ZINTER) sees one state of
     * all of them. The entries are valid only inside {@code read}.
     */
    <R> R readKeys(long now, java.util.function.Function<java.util.function.Function<byte[], StoredEntry>, R> read) {
        synchronized (writeLock) {
            return read.apply(key -> {
                StoredEntry entry = live(new ByteKey(key), now);
                if (entry != null) {
                    entry.recordAccess(now);
                }
                return entry;
            });
        }
    }

    /** Under the lock: the live hash (set, sorted set) at {@code key}, {@code null} when none; recorded as accessed. */
    private HashEntry liveCollection(byte[] key, long now, Class<? extends HashEntry> type) {
        StoredEntry current = live(new ByteKey(key), now);
        if (current == null) {
            return null;
        }
        if (current.getClass() != type) {
            throw new WrongTypeException();
        }
        current.recordAccess(now);
        return (HashEntry) current;
    }

    /** Lock-free: the type of the live value at {@code key} and its TTL left, as {@link HashOp#TYPE} answers. */
    HashReply typeOf(byte[] key, long now) {
        StoredEntry entry = live(new ByteKey(key), now);
        String type = entry == null ? "none" : entry instanceof SetEntry ? "set" : entry instanceof SortedSetEntry ? "zset"
                : entry instanceof ListEntry ? "list"
                : entry.isHash() ? "hash" : "string";
        return HashReply.read(entry == null ? 0 : entry.ttlRemainingMillis(now),
                List.of(type.getBytes(StandardCharsets.US_ASCII)));
    }

    /**
     * What a write of a collection of type {@code E} decides, given the live collection ({@code null} when absent) and
     * a way to change it.
     */
    @FunctionalInterface
    interface CollectionEdit<E extends HashEntry, R> {
        R edit(E current, HashWriter writer);
    }

    /** What a hash write decides, given the live hash ({@code null} when absent) and a way to change it. */
    @FunctionalInterface
    interface HashEdit<R> extends CollectionEdit<HashEntry, R> {
    }

    /**
     * Runs {@code edit} under the write lock, as the active owner under {@code epoch}. An expired value at the key is
     * first removed as an ordinary logged removal (so replicas drop it too, instead of adding fields to it); each
     * field the edit sets or removes is one change, and all of them are shipped together.
     *
     * @return {@code null} as the result and {@code OWNERSHIP_CHANGING} when this copy was retired
     * @throws WrongTypeException when the key holds a string or a set
     */
    <R> HashWriteResult<R> writeHash(byte[] key, long epoch, long now, HashEdit<R> edit) {
        return writeCollection(key, HashEntry.class, epoch, now, edit);
    }

    /** What a set write decides, given the live set ({@code null} when absent) and a way to change it. */
    @FunctionalInterface
    interface SetEdit<R> extends CollectionEdit<SetEntry, R> {
    }

    /**
     * {@link #writeHash} for a set: each member the edit adds ({@link HashWriter#add}) or removes is one change.
     *
     * @throws WrongTypeException when the key holds a string or a hash
     */
    <R> HashWriteResult<R> writeSet(byte[] key, long epoch, long now, SetEdit<R> edit) {
        return writeCollection(key, SetEntry.class, epoch, now, edit);
    }

    /** What a sorted-set write decides, given the live sorted set ({@code null} when absent) and a way to change it. */
    @FunctionalInterface
    interface SortedSetEdit<R> extends CollectionEdit<SortedSetEntry, R> {
    }

    /**
     * {@link #writeHash} for a sorted set: each score the edit sets ({@link HashWriter#score}) and each member it removes
     * is one change, so replicas apply the outcome, never the command.
     *
     * @throws WrongTypeException when the key holds another type
     */
    <R> HashWriteResult<R> writeSortedSet(byte[] key, long epoch, long now, SortedSetEdit<R> edit) {
        return writeCollection(key, SortedSetEntry.class, epoch, now, edit);
    }

    /**
     * Replaces whatever is at {@code key} (any type, as SINTERSTORE and its kin do) by a set of {@code members}, under
     * one hold of the write lock: the old value's removal, then one member put per member, all shipped together. No
     * members leaves the key absent.
     */
    HashWriteResult<Long> replaceWithSet(byte[] key, List<byte[]> members, long epoch, long now) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return HashWriteResult.retired();
            }
            List<Change> changes = changeList();
            StoredEntry stored = entries.get(k);
            if (stored != null) {
                changes.add(remove(k, epoch));
            }
            HashWriter writer = new HashWriter(k, epoch, now, changes);
            long added = 0;
            try {
                for (byte[] member : members) {
                    if (writer.add(member)) {
                        added++;
                    }
                }
            } catch (RuntimeException | Error e) {
                shipAfterFailure(changes);
                throw e;
            }
            return shipped(changes, added);
        }
    }

    private <E extends HashEntry, R> HashWriteResult<R> writeCollection(byte[] key, Class<E> type, long epoch, long now,
                                                                        CollectionEdit<E, R> edit) {
        ByteKey k = new ByteKey(key);
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return HashWriteResult.retired();
            }
            List<Change> changes = changeList();
            StoredEntry stored = entries.get(k);
            if (stored != null && stored.isExpired(now)) {
                changes.add(remove(k, epoch));
                memory.expired(1);
                stored = null;
            }
            if (stored != null && stored.getClass() != type) {
                throw new WrongTypeException();
            }
            HashWriter writer = new HashWriter(k, epoch, now, changes);
            R result;
            try {
                result = edit.edit(type.cast(stored), writer);
            } catch (RuntimeException | Error e) {
                shipAfterFailure(changes);
                throw e;
            }
            return shipped(changes, result);
        }
    }

    /**
     * Under the write lock, after an edit that logged each change it made into {@code changes}: ships them together
     * and says what the edit answered. Each write method runs its edit in place (no closure per write) and calls
     * {@link #shipAfterFailure} when the edit throws, so what was changed and logged is shipped even if the edit
     * fails half way (its exception then goes on to the caller).
     */
    private <R> HashWriteResult<R> shipped(List<Change> changes, R result) {
        if (changes.isEmpty()) {
            return new HashWriteResult<>(KvStatus.OK, result, 0, WriteResult.NOTHING_TO_REPLICATE);
        }
        return new HashWriteResult<>(KvStatus.OK, result, revision, ship(changes));
    }

    /** Under the write lock: an edit threw after logging {@code changes}; they are shipped all the same. */
    private void shipAfterFailure(List<Change> changes) {
        if (!changes.isEmpty()) {
            ship(changes);
        }
    }

    /**
     * The changes of one hash write, made under the write lock by the thread holding it ({@link #writeHash});
     * confined to that call.
     */
    final class HashWriter {
        private final ByteKey key;
        private final long epoch;
        private final long now;
        private final List<Change> changes;

        private HashWriter(ByteKey key, long epoch, long now, List<Change> changes) {
            this.key = key;
            this.epoch = epoch;
            this.now = now;
            this.changes = changes;
        }

        /**
         * Sets a field, creating the hash (without a TTL) when the key is absent; a hash keeps its expiry. Whether the
         * field is new (HSET's count): what setting it replaced, so the field is looked up once, with the one field key
         * this change stores and logs.
         */
        boolean put(byte[] field, byte[] value) {
            long version = ++revision;
            StoredEntry current = entries.get(key);
            long expiresAt = current == null ? 0 : current.expiresAtMillis();
            ByteKey f = new ByteKey(field);
            boolean added = applyFieldPut(key, current, f, value, version, expiresAt, now);
            epochStarts.onChange(epoch, version);
            log.append(version, epoch, key, f, LoggedChange.Kind.FIELD_PUT, expiresAt);
            changes.add(Change.fieldPut(version, epoch, key.bytes(), field, value, expiresAt));
            return added;
        }

        /**
         * Adds a member to the set, creating it (without a TTL) when the key is absent; whether it was new. One lookup
         * of the member both judges and adds it; a member already there changes nothing and takes no revision.
         */
        boolean add(byte[] member) {
            StoredEntry current = entries.get(key);
            ByteKey m = new ByteKey(member);
            long version = revision + 1;
            long expiresAt = current == null ? 0 : current.expiresAtMillis();
            if (!addMember(key, m, version, expiresAt, now)) {
                return false;
            }
            revision = version;
            epochStarts.onChange(epoch, version);
            log.append(version, epoch, key, m, LoggedChange.Kind.MEMBER_PUT, expiresAt);
            changes.add(Change.memberPut(version, epoch, key.bytes(), member, expiresAt));
            return true;
        }

        /** The score of a member of the sorted set at the key now, as this write left it; {@code null} when none. */
        Double scoreOf(ByteKey member) {
            return entries.get(key) instanceof SortedSetEntry sorted ? sorted.score(member) : null;
        }

        /**
         * Gives a sorted-set member {@code score}, creating the sorted set (without a TTL) when the key is absent; a
         * member already holding that very score (the same 8 bytes) is no change.
         */
        void score(byte[] member, double score) {
            ByteKey m = new ByteKey(member);
            StoredEntry current = entries.get(key);
            byte[] bits = io.zaris.model.SortedSetScores.encode(score);
            if (current instanceof SortedSetEntry sorted && Arrays.equals(sorted.get(m), bits)) {
                return;
            }
            putScore(current, member, m, bits);
        }

        /**
         * Gives a member a score that the caller knows is a change: it read the member's score ({@link #scoreOf})
         * in this write and found none, or one numerically different (so different in its 8 bytes too, −0 being
         * stored as 0); {@code m} is the member's key, already made (it is stored and logged). Without the second
         * lookup of the member that {@link #score(byte[], double)} makes.
         */
        void changeScore(byte[] member, ByteKey m, double score) {
            putScore(entries.get(key), member, m, io.zaris.model.SortedSetScores.encode(score));
        }

        private void putScore(StoredEntry current, byte[] member, ByteKey m, byte[] bits) {
            long version = ++revision;
            long expiresAt = current == null ? 0 : current.expiresAtMillis();
            applyScorePut(key, m, bits, version, expiresAt, now);
            epochStarts.onChange(epoch, version);
            log.append(version, epoch, key, m, LoggedChange.Kind.SCORE_PUT, expiresAt);
            changes.add(Change.scorePut(version, epoch, key.bytes(), member, bits, expiresAt));
        }

        /** Removes a field (or set member) if present (the key goes with its last one); whether it was. */
        boolean remove(byte[] field) {
            StoredEntry current = entries.get(key);
            ByteKey f = new ByteKey(field);
            if (!(current instanceof HashEntry hash) || hash.get(f) == null) {
                return false;
            }
            long version = ++revision;
            applyFieldRemoval(key, f, version, now);
            epochStarts.onChange(epoch, version);
            log.append(version, epoch, key, f, LoggedChange.Kind.FIELD_REMOVAL, 0);
            changes.add(Change.fieldRemoval(version, epoch, key.bytes(), field));
            return true;
        }
    }

    /**
     * Under the lock: sets a field of the hash at {@code key}, which then expires at {@code expiresAt}; anything
     * else at the key (a string, nothing) is replaced by a new hash. The hash takes {@code version}. Whether the field
     * is new.
     */
    private boolean applyFieldPut(ByteKey key, ByteKey field, byte[] value, long version, long expiresAt, long now) {
        return applyFieldPut(key, entries.get(key), field, value, version, expiresAt, now);
    }

    /**
     * {@link #applyFieldPut(ByteKey, ByteKey, byte[], long, long, long)} with {@code current} the key's entry in the map
     * now, looked up by the caller; whether the field is new (what the put replaced: no second lookup of the field).
     */
    private boolean applyFieldPut(ByteKey key, StoredEntry current, ByteKey field, byte[] value, long version,
                                  long expiresAt, long now) {
        HashEntry hash;
        if (current != null && current.getClass() == HashEntry.class) {
            hash = (HashEntry) current;
            setCollectionExpiry(key, hash, expiresAt);
        } else {
            hash = installCollection(key, new HashEntry(version, expiresAt, now));
        }
        byte[] previous = hash.replace(field, value); // the one lookup of the field, for its charge and the answer
        account(hash.chargePut(field, previous, value));
        hash.changedAt(version, now);
        return previous == null;
    }

    /**
     * Under the lock: adds a member to the set at {@code key}, which then expires at {@code expiresAt}; anything else
     * at the key (a string, a hash, nothing) is replaced by a new set. The set takes {@code version}.
     */
    private void applyMemberPut(ByteKey key, ByteKey member, long version, long expiresAt, long now) {
        if (!addMember(key, member, version, expiresAt, now) && entries.get(key) instanceof SetEntry set) {
            setCollectionExpiry(key, set, expiresAt); // a replayed change of a member it holds still sets these
            set.changedAt(version, now);
        }
    }

    /**
     * Under the lock: {@link #applyMemberPut} when the member is new (one lookup judges and adds it), and whether it
     * was; a set already holding it is left as it was.
     */
    private boolean addMember(ByteKey key, ByteKey member, long version, long expiresAt, long now) {
        SetEntry set = entries.get(key) instanceof SetEntry existing ? existing
                : installCollection(key, new SetEntry(version, expiresAt, now));
        long added = set.add(member);
        if (added == 0) {
            return false;
        }
        setCollectionExpiry(key, set, expiresAt);
        account(added);
        set.changedAt(version, now);
        return true;
    }

    /**
     * Under the lock: gives a member of the sorted set at {@code key} a score (8 bytes), the key then expiring at
     * {@code expiresAt}; anything else at the key is replaced by a new sorted set. The sorted set takes {@code version}.
     */
    private void applyScorePut(ByteKey key, ByteKey member, byte[] score, long version, long expiresAt, long now) {
        SortedSetEntry sorted;
        if (entries.get(key) instanceof SortedSetEntry existing) {
            sorted = existing;
            setCollectionExpiry(key, sorted, expiresAt);
        } else {
            sorted = (SortedSetEntry) installCollection(key, new SortedSetEntry(version, expiresAt, now));
        }
        account(sorted.put(member, score));
        sorted.changedAt(version, now);
    }

    /** Under the lock: removes a field of the hash (or member of the set) at {@code key}; an empty one is removed. */
    private void applyFieldRemoval(ByteKey key, ByteKey field, long version, long now) {
        if (!(entries.get(key) instanceof HashEntry hash)) {
            return;
        }
        account(-hash.remove(field));
        if (hash.size() == 0) {
            discard(key);
        } else {
            hash.changedAt(version, now);
        }
    }

    /** Under the lock: the value at {@code key}, if any, keeps its content and expires at {@code expiresAt}. */
    private void applyExpiry(ByteKey key, long expiresAt, long version, long now) {
        StoredEntry current = entries.get(key);
        if (current instanceof CollectionEntry collection) {
            setCollectionExpiry(key, collection, expiresAt);
            collection.changedAt(version, now);
        } else if (current != null) {
            store(key, current.value(), version, expiresAt, now, current);
        }
    }

    /** Under the lock: a new, empty hash (or set) at {@code key} in place of whatever was there. */
    private <E extends StoredEntry> E installCollection(ByteKey key, E hash) {
        if (entries.containsKey(key)) {
            discard(key);
        }
        hash.keySlot = allKeys.add(key);
        if (hash.hasTtl()) {
            hash.ttlSlot(ttlKeys.add(key));
        }
        entries.put(key, hash);
        account(hash.sizeBytes(key));
        return hash;
    }

    /**
     * Under the lock: RENAME's one step, on the owner and on a replica alike. The value at {@code source} moves to
     * {@code destination}, which loses what it held, expires at {@code expiresAt} and takes {@code version}. A
     * collection moves as the entry it is, in O(1): taken out of the map (with its sampling slots and the bytes charged
     * for its key) and put back under the destination, its content and the bytes charged for it untouched. A string's
     * value is copied into a slot for the destination, as a put would store it. When nothing is at the source, only
     * the destination is removed: a replica can meet that only where the op log shipped the source's writes
     * superseded, and later changes of the same tail then set the destination (see {@link Change}).
     */
    private void move(ByteKey source, ByteKey destination, long version, long expiresAt, long now) {
        StoredEntry moving = entries.get(source);
        if (source.equals(destination)) { // not made by an owner (RENAME of a key to itself changes nothing)
            if (moving != null) {
                applyExpiry(source, expiresAt, version, now);
            }
            return;
        }
        if (moving == null) {
            discard(destination);
            return;
        }
        if (!(moving instanceof CollectionEntry collection)) {
            byte[] value = moving.value();
            discard(source);
            store(destination, value, version, expiresAt, now);
            return;
        }
        discard(source);
        collection.expiresAt(expiresAt);
        collection.ttlSlot(-1); // released with its old key's place
        installCollection(destination, collection);
        collection.changedAt(version, now);
    }

    // ------------------------------------------------------------------ whole keys (SET, RENAME, DUMP, RESTORE, EXPIRE)

    /**
     * Under the write lock: the live value at {@code key} (any type) as a {@link KeyContent}, {@code null} when absent
     * or expired; recorded as accessed. A collection's elements are copied, so the caller may use them after the lock.
     */
    KeyContent contentOf(byte[] key, long now) {
        synchronized (writeLock) {
            StoredEntry entry = live(new ByteKey(key), now);
            if (entry == null) {
                return null;
            }
            entry.recordAccess(now);
            return contentOf(entry);
        }
    }

    /** Under the lock: what {@code entry} holds, elements in the order its own reads list them. */
    private static KeyContent contentOf(StoredEntry entry) {
        if (entry instanceof ListEntry list) {
            return new KeyContent(KeyContent.Type.LIST, list.range(0, list.size() - 1));
        }
        if (entry instanceof SortedSetEntry sorted) {
            return new KeyContent(KeyContent.Type.SORTED_SET, sorted.flatten());
        }
        if (entry instanceof SetEntry set) {
            List<byte[]> flat = set.flatten();
            List<byte[]> members = new ArrayList<>(flat.size() / 2);
            for (int i = 0; i < flat.size(); i += 2) {
                members.add(flat.get(i));
            }
            return new KeyContent(KeyContent.Type.SET, members);
        }
        if (entry instanceof HashEntry hash) {
            return new KeyContent(KeyContent.Type.HASH, hash.flatten());
        }
        return new KeyContent(KeyContent.Type.STRING, List.of(entry.value()));
    }

    /** What a whole-key write decides and does through its writer (which may touch several keys of this segment). */
    @FunctionalInterface
    interface KeyEdit<R> {
        R edit(KeyWriter writer);
    }

    /**
     * Runs {@code edit} under the write lock, as the active owner under {@code epoch}: every removal and typed write
     * it makes is one change of the kinds replicas already apply, all shipped together, so a replica holds the same
     * outcome (a RENAME's source gone and its destination written) as soon as it holds any of it.
     *
     * @return {@code null} as the result and {@code OWNERSHIP_CHANGING} when this copy was retired
     */
    <R> HashWriteResult<R> writeKeys(long epoch, long now, KeyEdit<R> edit) {
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return HashWriteResult.retired();
            }
            List<Change> changes = changeList();
            KeyWriter writer = new KeyWriter(epoch, now, changes);
            R result;
            try {
                result = edit.edit(writer);
            } catch (RuntimeException | Error e) {
                shipAfterFailure(changes);
                throw e;
            }
            return shipped(changes, result);
        }
    }

    /** A live value and its expiry (epoch ms, 0 = none). */
    record HeldValue(KeyContent content, long expiresAt) {
    }

    /**
     * The changes of one whole-key write, made under the write lock by the thread holding it ({@link #writeKeys});
     * confined to that call.
     */
    final class KeyWriter {
        private final long epoch;
        private final long now;
        private final List<Change> changes;

        private KeyWriter(long epoch, long now, List<Change> changes) {
            this.epoch = epoch;
            this.now = now;
            this.changes = changes;
        }

        /**
         * The live value at {@code key}, {@code null} when none. An expired value there is first removed as an
         * ordinary logged removal, as every write that meets one does.
         */
        HeldValue held(byte[] key) {
            StoredEntry stored = liveOrRemoved(new ByteKey(key));
            return stored == null ? null : new HeldValue(contentOf(stored), stored.expiresAtMillis());
        }

        /**
         * The live entry at {@code key} itself, {@code null} when none (an expired one is removed first, as
         * {@link #held} does): for an edit that reads a collection in place rather than copying it. Valid only
         * inside this edit.
         */
        StoredEntry entry(byte[] key) {
            return liveOrRemoved(new ByteKey(key));
        }

        /**
         * A writer of fields, members or scores of the collection at {@code key} whose changes join this edit's, so
         * an edit over several keys (SMOVE, ZUNIONSTORE) ships one batch. The caller has checked the key's type.
         */
        HashWriter collection(byte[] key) {
            return new HashWriter(new ByteKey(key), epoch, now, changes);
        }

        /**
         * Writes the string {@code value} at {@code key}, expiring at {@code expiresAt} (0 = never), in place of
         * whatever the key held, of any type: one put, as a plain SET ships.
         */
        void putString(byte[] key, byte[] value, long expiresAt) {
            ByteKey k = new ByteKey(key);
            changes.add(upsert(k, value, expiresAt, epoch, now, entries.get(k)));
        }

        /**
         * Sets the expiry of the live value at {@code key} (any type; the caller found it with {@link #entry}) to
         * {@code expiresAt} (0 = never): a collection ships only its new expiry, a string is written again with it.
         */
        void expire(byte[] key, StoredEntry live, long expiresAt) {
            changes.add(retime(new ByteKey(key), live, expiresAt, epoch, now));
        }

        /**
         * Moves the live value at {@code source} (the caller found it with {@link #entry}) to {@code destination}, which
         * loses what it held, expiring at {@code expiresAt}: one {@link Change.Kind#RENAME} change and one op-log
         * entry whatever the value's size, the same move on every replica (see {@link Segment#move}).
         */
        void rename(byte[] source, byte[] destination, long expiresAt) {
            ByteKey from = new ByteKey(source);
            ByteKey to = new ByteKey(destination);
            long version = ++revision;
            move(from, to, version, expiresAt, now);
            epochStarts.onChange(epoch, version);
            log.append(version, epoch, from, to, LoggedChange.Kind.RENAME, expiresAt);
            changes.add(Change.rename(version, epoch, source, destination, expiresAt));
        }

        /** Whether a live value is at {@code key}; an expired one is removed first, as {@link #held} does. */
        boolean exists(byte[] key) {
            return liveOrRemoved(new ByteKey(key)) != null;
        }

        private StoredEntry liveOrRemoved(ByteKey k) {
            StoredEntry stored = entries.get(k);
            if (stored != null && stored.isExpired(now)) {
                changes.add(Segment.this.remove(k, epoch));
                memory.expired(1);
                return null;
            }
            return stored;
        }

        /** Removes whatever is at {@code key}, as one logged removal; whether anything was there. */
        boolean remove(byte[] key) {
            ByteKey k = new ByteKey(key);
            if (!entries.containsKey(k)) {
                return false;
            }
            changes.add(Segment.this.remove(k, epoch));
            return true;
        }

        /**
         * Writes {@code content} at {@code key}, which must be absent (the caller removed it), expiring at
         * {@code expiresAt}: a string as one put, a collection as one typed change per element, each carrying the
         * expiry, so a replica builds the same value from changes it already knows.
         */
        void install(byte[] key, KeyContent content, long expiresAt) {
            ByteKey k = new ByteKey(key);
            List<byte[]> elements = content.elements();
            switch (content.type()) {
                case STRING -> changes.add(upsert(k, elements.get(0), expiresAt, epoch, now));
                case HASH -> {
                    for (int i = 0; i < elements.size(); i += 2) {
                        long version = ++revision;
                        ByteKey field = new ByteKey(elements.get(i));
                        applyFieldPut(k, field, elements.get(i + 1), version, expiresAt, now);
                        logged(version, k, field, LoggedChange.Kind.FIELD_PUT, expiresAt,
                                Change.fieldPut(version, epoch, key, elements.get(i), elements.get(i + 1), expiresAt));
                    }
                }
                case SET -> {
                    for (byte[] member : elements) {
                        long version = ++revision;
                        ByteKey m = new ByteKey(member);
                        applyMemberPut(k, m, version, expiresAt, now);
                        logged(version, k, m, LoggedChange.Kind.MEMBER_PUT, expiresAt,
                                Change.memberPut(version, epoch, key, member, expiresAt));
                    }
                }
                case SORTED_SET -> {
                    for (int i = 0; i < elements.size(); i += 2) {
                        long version = ++revision;
                        ByteKey m = new ByteKey(elements.get(i));
                        applyScorePut(k, m, elements.get(i + 1), version, expiresAt, now);
                        logged(version, k, m, LoggedChange.Kind.SCORE_PUT, expiresAt,
                                Change.scorePut(version, epoch, key, elements.get(i), elements.get(i + 1), expiresAt));
                    }
                }
                case LIST -> {
                    ListWriter list = new ListWriter(epoch, now, changes);
                    for (int i = 0; i < elements.size(); i++) {
                        list.record(Change.listInsert(revision + 1, epoch, key, i, elements.get(i), expiresAt), k);
                    }
                }
                default -> throw new IllegalArgumentException("unknown type " + content.type());
            }
        }

        private void logged(long version, ByteKey key, ByteKey field, LoggedChange.Kind kind, long expiresAt, Change change) {
            epochStarts.onChange(epoch, version);
            log.append(version, epoch, key, field, kind, expiresAt);
            changes.add(change);
        }
    }

    // ------------------------------------------------------------------ lists

    /**
     * Runs {@code read} under the write lock on the live list at {@code key} ({@code null} when the key is absent or
     * expired), so a range read sees one state of the list.
     *
     * @throws WrongTypeException when the key holds another type
     */
    <R> R readList(byte[] key, long now, java.util.function.Function<ListEntry, R> read) {
        synchronized (writeLock) { // held across the read, so it sees one state of the list
            StoredEntry current = live(new ByteKey(key), now);
            if (current != null && !(current instanceof ListEntry)) {
                throw new WrongTypeException();
            }
            if (current != null) {
                current.recordAccess(now);
            }
            return read.apply((ListEntry) current);
        }
    }

    /** What a list write decides and does through its writer (which may touch several keys of this segment). */
    @FunctionalInterface
    interface ListEdit<R> {
        R edit(ListWriter writer);
    }

    /**
     * Runs {@code edit} under the write lock, as the active owner under {@code epoch}: every element it inserts,
     * run it removes and element it sets is one change, all shipped together, even if the edit fails half way.
     *
     * @return {@code null} as the result and {@code OWNERSHIP_CHANGING} when this copy was retired
     * @throws WrongTypeException when a key the edit asks for ({@link ListWriter#list}) holds another type
     */
    <R> HashWriteResult<R> writeList(long epoch, long now, ListEdit<R> edit) {
        synchronized (writeLock) {
            if (epoch < retiredBelow) {
                return HashWriteResult.retired();
            }
            List<Change> changes = changeList();
            ListWriter writer = new ListWriter(epoch, now, changes);
            R result;
            try {
                result = edit.edit(writer);
            } catch (RuntimeException | Error e) {
                shipAfterFailure(changes);
                throw e;
            }
            return shipped(changes, result);
        }
    }

    /**
     * The changes of one list write, made under the write lock by the thread holding it ({@link #writeList});
     * confined to that call. Indexes are absolute and must lie within the list (the caller has checked them).
     */
    final class ListWriter {
        private final long epoch;
        private final long now;
        private final List<Change> changes;

        private ListWriter(long epoch, long now, List<Change> changes) {
            this.epoch = epoch;
            this.now = now;
            this.changes = changes;
        }

        /**
         * The live list at {@code key}, {@code null} when none. An expired value there is first removed as an
         * ordinary logged removal (so replicas drop it too, instead of pushing onto it).
         *
         * @throws WrongTypeException when the key holds another type
         */
        ListEntry list(byte[] key) {
            ByteKey k = new ByteKey(key);
            StoredEntry stored = entries.get(k);
            if (stored != null && stored.isExpired(now)) {
                changes.add(Segment.this.remove(k, epoch));
                memory.expired(1);
                stored = null;
            }
            if (stored != null && !(stored instanceof ListEntry)) {
                throw new WrongTypeException();
            }
            return (ListEntry) stored;
        }

        /** Inserts {@code element} before {@code index} (the length: at the tail), creating the list when absent. */
        void insert(byte[] key, int index, byte[] element) {
            ByteKey k = new ByteKey(key);
            StoredEntry current = entries.get(k);
            long expiresAt = current == null ? 0 : current.expiresAtMillis();
            record(Change.listInsert(revision + 1, epoch, key, index, element, expiresAt), k);
        }

        /** Removes {@code count} elements from {@code index}; the list goes with its last element. */
        void remove(byte[] key, int index, int count) {
            record(Change.listRemove(revision + 1, epoch, key, index, count), new ByteKey(key));
        }

        /** Replaces the element at {@code index}. */
        void set(byte[] key, int index, byte[] element) {
            ByteKey k = new ByteKey(key);
            StoredEntry current = entries.get(k);
            record(Change.listSet(revision + 1, epoch, key, index, element, current.expiresAtMillis()), k);
        }

        /** Makes and logs {@code change} to the list at {@code k} (the change's key, as the caller already has it). */
        private void record(Change change, ByteKey k) {
            long version = ++revision;
            LoggedChange.Kind kind = applyListChange(k, change, now);
            epochStarts.onChange(epoch, version);
            log.appendList(change, k, kind);
            changes.add(change);
        }
    }

    /**
     * Under the lock: makes a list change (local, replicated, or a snapshot's element) at its revision. An insert
     * into a key that holds no list replaces whatever is there by a new list. Positions outside the list (a copy that
     * diverged, which the digests report) are clamped rather than thrown on, so one bad change cannot stall a
     * replica's stream.
     */
    private LoggedChange.Kind applyListChange(ByteKey key, Change change, long now) {
        long index = ListPosition.first(change.field()); // no array of numbers per change
        StoredEntry current = entries.get(key);
        switch (change.kind()) {
            case LIST_INSERT -> {
                ListEntry list;
                if (current instanceof ListEntry existing) {
                    list = existing;
                    setCollectionExpiry(key, list, change.expiresAtMillis());
                } else {
                    list = installCollection(key, new ListEntry(change.revision(), change.expiresAtMillis(), now));
                }
                account(list.insert((int) Math.min(index, list.size()), change.value()));
                list.changedAt(change.revision(), now);
                return LoggedChange.Kind.LIST_INSERT;
            }
            case LIST_REMOVE -> {
                if (current instanceof ListEntry list) {
                    int from = (int) Math.min(index, list.size());
                    account(-list.remove(from, (int) Math.min(ListPosition.second(change.field()), list.size() - from)));
                    if (list.size() == 0) {
                        discard(key);
                    } else {
                        list.changedAt(change.revision(), now);
                    }
                }
                return LoggedChange.Kind.LIST_REMOVE;
            }
            case LIST_SET -> {
                if (current instanceof ListEntry list && index < list.size()) {
                    account(list.set((int) index, change.value()));
                    list.changedAt(change.revision(), now);
                }
                return LoggedChange.Kind.LIST_SET;
            }
            default -> throw new IllegalArgumentException(change.kind() + " is not a list change");
        }
    }

    /** Under the lock: a collection's expiry, with its place among the keys with a TTL kept in step. */
    private void setCollectionExpiry(ByteKey key, CollectionEntry collection, long expiresAt) {
        boolean had = collection.hasTtl();
        collection.expiresAt(expiresAt);
        if (!had && collection.hasTtl()) {
            collection.ttlSlot(ttlKeys.add(key));
        } else if (had && !collection.hasTtl()) {
            releaseTtlSlot(collection.ttlSlot());
        }
    }

    /** Under the lock: {@code delta} more bytes charged for this segment's entries. */
    private void account(long delta) {
        bytes = bytes + delta;
        memory.add(delta);
    }

    /** Under the lock. */
    private Change upsert(ByteKey key, byte[] value, long expiresAt, long epoch, long now) {
        return upsert(key, value, expiresAt, epoch, now, entries.get(key));
    }

    /** Under the lock, with {@code previous} the key's entry in the map now (expired or not), or {@code null}. */
    private Change upsert(ByteKey key, byte[] value, long expiresAt, long epoch, long now, StoredEntry previous) {
        long version = ++revision;
        ByteKey kept = store(key, value, version, expiresAt, now, previous);
        Change change = new Change(version, epoch, key.bytes(), value, expiresAt);
        epochStarts.onChange(epoch, version);
        log.append(version, epoch, kept, LoggedChange.Kind.PUT, expiresAt);
        return change;
    }

    /** Under the lock. */
    private Change remove(ByteKey key, long epoch) {
        discard(key);
        Change change = new Change(++revision, epoch, key.bytes(), null, 0);
        epochStarts.onChange(epoch, change.revision());
        log.append(change.revision(), epoch, key, LoggedChange.Kind.REMOVAL, 0);
        return change;
    }

    /**
     * Under the lock: the one way an entry enters the map. An overwrite in the same size class takes the old
     * value's slot ({@link ValueSlabs#store}), so a workload of overwrites allocates no chunks. The replaced
     * entry's sampling slots are carried over (a replacement keeps its key's place), its bytes are exchanged
     * for the new entry's. Returns the key object the store keeps for the value (for an overwrite into the
     * same slot, the one it was first stored under), which the op log shares instead of holding {@code key}.
     */
    private ByteKey store(ByteKey key, byte[] value, long version, long expiresAt, long now) {
        return store(key, value, version, expiresAt, now, entries.get(key));
    }

    /** Under the lock: {@link #store(ByteKey, byte[], long, long, long)} when the caller just looked the key up. */
    private ByteKey store(ByteKey key, byte[] value, long version, long expiresAt, long now, StoredEntry previous) {
        if (previous != null && previous.isHash()) { // a string replaces the whole hash
            discard(key);
            previous = null;
        }
        long previousBytes = previous == null ? 0 : previous.sizeBytes(key); // before a rewrite in place changes it
        StoredEntry entry = slabs.store(key, value, version, expiresAt, now, previous);
        ByteKey kept = entry.chunk().owner(entry.slot());
        long delta = entry.sizeBytes(key) - previousBytes;
        if (previous == null) {
            entry.keySlot = allKeys.add(key);
        } else {
            entry.keySlot = previous.keySlot;
        }
        if (entry.hasTtl()) {
            entry.ttlSlot(previous != null && previous.hasTtl() ? previous.ttlSlot() : ttlKeys.add(key));
        } else if (previous != null && previous.hasTtl()) {
            releaseTtlSlot(previous.ttlSlot());
        }
        if (entry != previous) {
            entries.put(key, entry); // a rewrite in place is already there
        }
        bytes = bytes + delta; // only under the lock: no lost update
        memory.add(delta);
        if (previous != null && !entry.sharesSlotWith(previous)) {
            slabs.free(previous); // last: it may move other entries of the map (the new one included)
        }
        return kept;
    }

    /** Under the lock: the one way an entry leaves the map (besides a snapshot's clear). */
    private void discard(ByteKey key) {
        StoredEntry previous = entries.remove(key);
        if (previous == null) {
            return;
        }
        ByteKey moved = allKeys.remove(previous.keySlot);
        if (moved != null) {
            entries.get(moved).keySlot = previous.keySlot;
        }
        if (previous.hasTtl()) {
            releaseTtlSlot(previous.ttlSlot());
        }
        long size = previous.sizeBytes(key);
        bytes = bytes - size;
        memory.add(-size);
        if (!previous.isHash()) {
            slabs.free(previous); // last: it may move other entries of the map
        }
    }

    /** Under the lock. */
    private void releaseTtlSlot(int slot) {
        ByteKey moved = ttlKeys.remove(slot);
        if (moved != null) {
            entries.get(moved).ttlSlot(slot);
        }
    }

    /**
     * The list a collection write logs its changes into: most log one (an HSET of one field, an LPUSH of one element),
     * at times after an expired value's removal, so it starts with room for two instead of the ten an
     * {@code ArrayList} takes on its first add; a write of many grows it by half each time.
     */
    private static List<Change> changeList() {
        return new ArrayList<>(2);
    }

    /** Under the lock: hands the changes of a write to replication in revision order. */
    private CompletableFuture<Void> ship(List<Change> changes) {
        try {
            return sink.ship(index, changes);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Under the lock: {@link #ship(List)} for a write whose caller waits as {@code ack} says ({@code null}: as the
     * node's mode says).
     */
    private CompletableFuture<Void> ship(List<Change> changes, AckMode ack) {
        if (ack == null) {
            return ship(changes);
        }
        try {
            return sink.ship(index, changes, ack);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Under the lock: ships a removal this node made by itself (expiry, eviction), which nobody waits for: replication
     * ships it as an ASYNC write's, whatever the node's mode.
     */
    private void shipUnawaited(List<Change> changes) {
        ship(changes, AckMode.ASYNC);
    }

    /**
     * The entry if present and not expired. An expired entry stays in the map until a change removes it
     * (overwrite, the active owner's read, expiry sweep, eviction): removing it silently here would leave
     * replicas holding it.
     */
    private StoredEntry live(ByteKey key, long now) {
        StoredEntry entry = entries.get(key);
        return entry == null || entry.isExpired(now) ? null : entry;
    }

    private static long expiry(long ttlMillis, long now) {
        if (ttlMillis == VersionedValue.NO_TTL) {
            return 0;
        }
        long expiresAt = now + ttlMillis;
        return expiresAt < now ? Long.MAX_VALUE : expiresAt;
    }
}
