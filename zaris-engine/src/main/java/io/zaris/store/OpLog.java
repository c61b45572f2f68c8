package io.zaris.store;

import io.zaris.model.Change;
import java.util.ArrayList;
import java.util.List;

/**
 * The recent changes of one segment in revision order, bounded by count and by bytes: the oldest are
 * dropped first. A replica that is behind is caught up from here when the log still reaches back to its
 * revision; otherwise it needs a snapshot.
 *
 * <p>Layout: a ring of slots, {@code head} the oldest, {@code count} slots in use, one primitive array per
 * field of a change (revision, epoch, kind, expiry, retained bytes) and one of keys. Appending creates no
 * object: the key is the store's own {@link ByteKey} where the store has one (an overwrite shares the key
 * object its entry was first stored under), so a write leaves nothing young for the log to hold, and young
 * collections copy nothing for it. {@link LoggedChange} objects exist only in a tail being read. The ring
 * starts small and doubles up to the smallest power of two holding {@code maxChanges}, so a segment that sees
 * few writes never pays for the count limit.
 *
 * <p>Invariants: revisions increase from {@code head} onwards; {@code count <= maxChanges}; {@code bytes}
 * is the sum of the retained sizes, at most {@code maxBytes} unless a single change alone exceeds it (the
 * newest change is always kept).
 *
 * <p>Not thread-safe: owned by its {@link Segment} and used only under the segment's write lock.
 */
final class OpLog {

    /** Slots a log starts with; it grows by doubling as the retention limits allow. */
    static final int INITIAL_SLOTS = 16;

    private static final LoggedChange.Kind[] KINDS = LoggedChange.Kind.values();

    private final int maxChanges;
    private final long maxBytes;
    private final int maxSlots;
    private ByteKey[] keys;
    /**
     * The hash field ({@link ByteKey}) of a field change, the {@link Change} itself of a list change (see
     * {@link ListLog}), {@code null} for a change of a whole key.
     */
    private Object[] fields;
    private long[] revisions;
    private long[] epochs;
    private long[] expiries;
    private byte[] kinds;
    private int[] sizes;
    /** Slot of the oldest retained change. */
    private int head;
    private int count;
    private long bytes;

    OpLog(int maxChanges, long maxBytes) {
        if (maxChanges < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("op log limits must be >= 1 but were " + maxChanges + " changes, "
                    + maxBytes + " bytes");
        }
        this.maxChanges = maxChanges;
        this.maxBytes = maxBytes;
        this.maxSlots = Math.max(1, Integer.highestOneBit(maxChanges - 1) << 1);
        allocate(Math.min(INITIAL_SLOTS, maxSlots));
    }

    void append(long revision, long epoch, ByteKey key, LoggedChange.Kind kind, long expiresAtMillis) {
        append(revision, epoch, key, null, kind, expiresAtMillis);
    }

    /** @param field the hash field of a field change, else {@code null} */
    void append(long revision, long epoch, ByteKey key, ByteKey field, LoggedChange.Kind kind, long expiresAtMillis) {
        append(revision, epoch, key, field, field == null ? 0 : field.bytes().length, kind, expiresAtMillis);
    }

    /** A list change, kept as it is ({@link ListLog}); {@code key} is its key as the store has it. */
    void appendList(Change change, ByteKey key, LoggedChange.Kind kind) {
        append(change.revision(), change.epoch(), key, change, ListLog.fieldBytes(change), kind, change.expiresAtMillis());
    }

    private void append(long revision, long epoch, ByteKey key, Object field, int fieldBytes, LoggedChange.Kind kind,
                        long expiresAtMillis) {
        if (count == maxChanges) {
            dropOldest();
        } else if (count == keys.length) {
            grow();
        }
        int slot = (head + count) & (keys.length - 1);
        int size = LoggedChange.sizeBytes(key.bytes().length, fieldBytes);
        keys[slot] = key;
        fields[slot] = field;
        revisions[slot] = revision;
        epochs[slot] = epoch;
        expiries[slot] = expiresAtMillis;
        kinds[slot] = (byte) kind.ordinal();
        sizes[slot] = size;
        count++;
        bytes += size;
        while (bytes > maxBytes && count > 1) {
            dropOldest();
        }
    }

    /**
     * The changes after {@code revision}, or {@code null} when the log no longer reaches back that far
     * (a change the caller misses has been dropped).
     *
     * @param currentRevision the segment's latest revision
     */
    List<LoggedChange> since(long revision, long currentRevision) {
        if (revision >= currentRevision) {
            return List.of();
        }
        if (count == 0 || revisions[head] > revision + 1) {
            return null;
        }
        int mask = keys.length - 1;
        int newer = 0;
        while (newer < count && revisions[(head + count - 1 - newer) & mask] > revision) {
            newer++;
        }
        List<LoggedChange> tail = new ArrayList<>(newer);
        for (int i = count - newer; i < count; i++) {
            int slot = (head + i) & mask;
            Object field = fields[slot];
            tail.add(new LoggedChange(revisions[slot], epochs[slot], keys[slot], field instanceof ByteKey f ? f : null,
                    KINDS[kinds[slot]], expiries[slot], field instanceof Change c ? c : null));
        }
        return tail;
    }

    /**
     * The epoch the retained change at {@code revision} was written under, or {@code -1} when the log does not
     * hold that revision (dropped, never reached, or cleared by a snapshot). Scans from the newest: a resuming
     * reader is usually close behind.
     */
    long epochAt(long revision) {
        int mask = keys.length - 1;
        for (int i = count - 1; i >= 0; i--) {
            int slot = (head + i) & mask;
            if (revisions[slot] == revision) {
                return epochs[slot];
            }
            if (revisions[slot] < revision) {
                return -1;
            }
        }
        return -1;
    }

    /** Forgets everything (the segment's content was replaced by a snapshot). */
    void clear() {
        allocate(Math.min(INITIAL_SLOTS, maxSlots));
        head = 0;
        count = 0;
        bytes = 0;
    }

    int size() {
        return count;
    }

    long bytes() {
        return bytes;
    }

    private void dropOldest() {
        bytes -= sizes[head];
        keys[head] = null;
        fields[head] = null;
        head = (head + 1) & (keys.length - 1);
        count--;
    }

    /** Doubles the ring, moving the retained changes to the front in order. */
    private void grow() {
        ByteKey[] oldKeys = keys;
        Object[] oldFields = fields;
        long[] oldRevisions = revisions;
        long[] oldEpochs = epochs;
        long[] oldExpiries = expiries;
        byte[] oldKinds = kinds;
        int[] oldSizes = sizes;
        int mask = oldKeys.length - 1;
        allocate(oldKeys.length << 1);
        for (int i = 0; i < count; i++) {
            int from = (head + i) & mask;
            keys[i] = oldKeys[from];
            fields[i] = oldFields[from];
            revisions[i] = oldRevisions[from];
            epochs[i] = oldEpochs[from];
            expiries[i] = oldExpiries[from];
            kinds[i] = oldKinds[from];
            sizes[i] = oldSizes[from];
        }
        head = 0;
    }

    private void allocate(int slots) {
        keys = new ByteKey[slots];
        fields = new Object[slots];
        revisions = new long[slots];
        epochs = new long[slots];
        expiries = new long[slots];
        kinds = new byte[slots];
        sizes = new int[slots];
    }
}
