package io.zaris.store;

import io.zaris.protocol.Change;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The recent changes of one segment in revision order, bounded by count and by bytes: the oldest are
 * dropped first. A replica that is behind is caught up from here when the log still reaches back to its
 * revision; otherwise it needs a snapshot.
 *
 * <p>Layout: a ring of slots, {@code head} the oldest, {@code count} slots in use, each change's fields in
 * primitive arrays, so trimming and the "does the log reach back" check never touch an old change. The slots
 * start small and double up to the smallest power of two holding {@code maxChanges}, so a segment that sees
 * few writes (or whose byte budget keeps few changes) never pays for the count limit.
 *
 * <p>Keys and values are copied into {@code payloads}, a byte ring of their own (growing by doubling up to
 * the byte budget), not kept as the arrays the change came with: a write's arrays then die young, where a
 * log holding them kept them alive through young collections (under a 10 KiB write load each young collection
 * copied the log's tens of MiB). A change whose key and value do not fit in the largest ring is kept as it
 * came ({@code outside}). {@link #since} hands out new {@link Change}s copied from the ring. Each payload is
 * contiguous: one that does not fit before the ring's end starts again at 0, and the oldest changes are
 * dropped until there is room, so fragmentation can only make the log keep fewer changes, never more bytes.
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
    /** Bytes the payload ring starts with; it doubles up to the byte budget. */
    static final int INITIAL_RING_BYTES = 1024;
    /** The payload ring never grows beyond this, whatever the byte budget. */
    static final int MAX_RING_BYTES = 1 << 30;

    private final int maxChanges;
    private final long maxBytes;
    private final int maxSlots;
    private final int maxRingBytes;
    private long[] revisions;
    private long[] epochs;
    private long[] expiries;
    private long[] sizes;
    /** Where the slot's key (then value) starts in {@code payloads}; -1 when the change is kept {@code outside}. */
    private int[] offsets;
    private int[] keyLengths;
    /** -1 for a removal. */
    private int[] valueLengths;
    private Change[] outside;
    /** Slot of the oldest retained change. */
    private int head;
    private int count;
    private long bytes;
    /** {@code null} until the first payload. */
    private byte[] payloads;
    /** Where the next payload goes, unless it does not fit before the end. */
    private int writeOffset;

    OpLog(int maxChanges, long maxBytes) {
        if (maxChanges < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("op log limits must be >= 1 but were " + maxChanges + " changes, "
                    + maxBytes + " bytes");
        }
        this.maxChanges = maxChanges;
        this.maxBytes = maxBytes;
        this.maxSlots = Math.max(1, Integer.highestOneBit(maxChanges - 1) << 1);
        this.maxRingBytes = (int) Math.min(maxBytes, MAX_RING_BYTES);
        allocate(Math.min(INITIAL_SLOTS, maxSlots));
    }

    void append(Change change) {
        long size = change.sizeBytes();
        while (count > 0 && (bytes + size > maxBytes || count == maxChanges)) {
            dropOldest();
        }
        if (count == revisions.length) {
            grow();
        }
        int keyLength = change.key().length;
        int valueLength = change.isRemoval() ? -1 : change.value().length;
        long payload = (long) keyLength + Math.max(0, valueLength);
        int offset = -1;
        if (payload > 0 && payload <= maxRingBytes) {
            offset = reserve((int) payload); // may drop more of the oldest
            System.arraycopy(change.key(), 0, payloads, offset, keyLength);
            if (valueLength > 0) {
                System.arraycopy(change.value(), 0, payloads, offset + keyLength, valueLength);
            }
        }
        int slot = (head + count) & (revisions.length - 1);
        revisions[slot] = change.revision();
        epochs[slot] = change.epoch();
        expiries[slot] = change.expiresAtMillis();
        sizes[slot] = size;
        offsets[slot] = offset;
        keyLengths[slot] = keyLength;
        valueLengths[slot] = valueLength;
        outside[slot] = offset < 0 ? change : null;
        count++;
        bytes += size;
    }

    /**
     * The changes after {@code revision}, or {@code null} when the log no longer reaches back that far
     * (a change the caller misses has been dropped).
     *
     * @param currentRevision the segment's latest revision
     */
    List<Change> since(long revision, long currentRevision) {
        if (revision >= currentRevision) {
            return List.of();
        }
        if (count == 0 || revisions[head] > revision + 1) {
            return null;
        }
        int mask = revisions.length - 1;
        int newer = 0;
        while (newer < count && revisions[(head + count - 1 - newer) & mask] > revision) {
            newer++;
        }
        List<Change> tail = new ArrayList<>(newer);
        for (int i = count - newer; i < count; i++) {
            tail.add(changeAt((head + i) & mask));
        }
        return tail;
    }

    /** Forgets everything (the segment's content was replaced by a snapshot). */
    void clear() {
        allocate(Math.min(INITIAL_SLOTS, maxSlots));
        head = 0;
        count = 0;
        bytes = 0;
        payloads = null;
        writeOffset = 0;
    }

    int size() {
        return count;
    }

    long bytes() {
        return bytes;
    }

    private Change changeAt(int slot) {
        if (offsets[slot] < 0) {
            return outside[slot];
        }
        int offset = offsets[slot];
        int keyEnd = offset + keyLengths[slot];
        byte[] key = Arrays.copyOfRange(payloads, offset, keyEnd);
        byte[] value = valueLengths[slot] < 0 ? null : Arrays.copyOfRange(payloads, keyEnd, keyEnd + valueLengths[slot]);
        return new Change(revisions[slot], epochs[slot], key, value, expiries[slot]);
    }

    private void dropOldest() {
        bytes -= sizes[head];
        outside[head] = null;
        offsets[head] = -1;
        head = (head + 1) & (revisions.length - 1);
        count--;
    }

    /** Room for {@code length} contiguous payload bytes (1 to {@code maxRingBytes}): grows the ring, else drops the oldest. */
    private int reserve(int length) {
        while (true) {
            if (payloads == null || payloads.length < length) {
                growRing(length);
                continue;
            }
            int offset = freeOffset(length);
            if (offset >= 0) {
                writeOffset = offset + length;
                return offset;
            }
            if (payloads.length < maxRingBytes) {
                growRing(length);
            } else {
                dropOldest(); // the ring holds a payload (else freeOffset found room), so the log is not empty
            }
        }
    }

    /** Where {@code length} bytes fit without overwriting a retained payload, or -1. */
    private int freeOffset(int length) {
        int oldest = oldestPayloadOffset();
        if (oldest < 0) {
            return 0; // nothing retained in the ring
        }
        if (oldest < writeOffset) { // retained: [oldest, writeOffset); free: the end, then the start
            if (writeOffset + length <= payloads.length) {
                return writeOffset;
            }
            return length <= oldest ? 0 : -1;
        }
        // retained wraps: [oldest, end) and [0, writeOffset); free: [writeOffset, oldest)
        return oldest > writeOffset && writeOffset + length <= oldest ? writeOffset : -1;
    }

    /** The ring offset of the oldest retained payload, -1 when none is in the ring. */
    private int oldestPayloadOffset() {
        int mask = revisions.length - 1;
        for (int i = 0; i < count; i++) {
            int offset = offsets[(head + i) & mask];
            if (offset >= 0) {
                return offset;
            }
        }
        return -1;
    }

    /** A larger ring (at least {@code length}, at most {@code maxRingBytes}) with the retained payloads packed in order. */
    private void growRing(int length) {
        int size = payloads == null ? Math.min(INITIAL_RING_BYTES, maxRingBytes)
                : (int) Math.min((long) payloads.length * 2, maxRingBytes);
        while (size < length) {
            size = (int) Math.min((long) size * 2, maxRingBytes);
        }
        byte[] grown = new byte[size];
        int next = 0;
        int mask = revisions.length - 1;
        for (int i = 0; i < count; i++) {
            int slot = (head + i) & mask;
            if (offsets[slot] >= 0) {
                int retained = keyLengths[slot] + Math.max(0, valueLengths[slot]);
                System.arraycopy(payloads, offsets[slot], grown, next, retained);
                offsets[slot] = next;
                next += retained;
            }
        }
        payloads = grown;
        writeOffset = next;
    }

    /** Doubles the slots, moving the retained changes to the front in order. */
    private void grow() {
        long[] oldRevisions = revisions;
        long[] oldEpochs = epochs;
        long[] oldExpiries = expiries;
        long[] oldSizes = sizes;
        int[] oldOffsets = offsets;
        int[] oldKeyLengths = keyLengths;
        int[] oldValueLengths = valueLengths;
        Change[] oldOutside = outside;
        int mask = oldRevisions.length - 1;
        allocate(oldRevisions.length << 1);
        for (int i = 0; i < count; i++) {
            int from = (head + i) & mask;
            revisions[i] = oldRevisions[from];
            epochs[i] = oldEpochs[from];
            expiries[i] = oldExpiries[from];
            sizes[i] = oldSizes[from];
            offsets[i] = oldOffsets[from];
            keyLengths[i] = oldKeyLengths[from];
            valueLengths[i] = oldValueLengths[from];
            outside[i] = oldOutside[from];
        }
        head = 0;
    }

    private void allocate(int slots) {
        revisions = new long[slots];
        epochs = new long[slots];
        expiries = new long[slots];
        sizes = new long[slots];
        offsets = new int[slots];
        keyLengths = new int[slots];
        valueLengths = new int[slots];
        outside = new Change[slots];
    }
}
