package io.zaris.server;

import io.zaris.protocol.ValueArrays;
import java.util.Arrays;

/**
 * Arrays a node decodes PUT and REPLICATE values into and reuses for the next frame, so that a write of a
 * large value allocates nothing the young collector must then sweep: the value's bytes go from the frame into
 * this array and from it into their slab slot (and, on the active owner, into the replication frame).
 *
 * <p>This is safe because a decoded value does not outlive the handling of its frame: {@code RequestHandler}
 * copies it into the store and encodes its replication before it returns, and nothing keeps a request after
 * that. Only strings' values come from here: a hash keeps a field's value and a list its element as the array it is
 * given, so a REPLICATE's field values and list elements are decoded into arrays of their own ({@code RequestCodec}). {@link #begin()} and {@link #end()} bracket the handling of one frame; arrays lent out in between are
 * lent to no one else until the outermost {@code end()}, so a frame handled from within another (should a
 * write ever trigger one) takes other arrays rather than overwriting the outer one's values.
 *
 * <p>Bounded: only values from {@link #MIN_REUSED_BYTES} to {@link #MAX_REUSED_BYTES} are reused (a small array
 * costs less to allocate than to look up, a large one would pin memory), in at most {@link #SLOTS} arrays, so an
 * instance holds at most 512 KiB. Eight, because a replication batch carries at most eight such values
 * ({@code ReplicationBatch.MAX_LARGE_VALUES}). A value of a length no free array has replaces the least recently taken
 * free one. Confined to one thread: a node keeps one per I/O thread (the thread that decodes and handles).
 */
final class ReusedValueArrays implements ValueArrays {

    static final int MIN_REUSED_BYTES = 1024;
    static final int MAX_REUSED_BYTES = 64 * 1024;
    static final int SLOTS = 8;

    private final byte[][] arrays = new byte[SLOTS][];
    private final boolean[] lent = new boolean[SLOTS];
    /** When each slot was last taken, for choosing which free array to replace. */
    private final long[] takenAt = new long[SLOTS];
    private long takes;
    private int depth;

    /** A frame's handling starts: arrays taken until the matching {@link #end()} stay with it. */
    void begin() {
        depth++;
    }

    /** A frame's handling ended; when it is the outermost, every array is free again. */
    void end() {
        if (--depth == 0) {
            Arrays.fill(lent, false);
        }
    }

    @Override
    public byte[] take(int length) {
        if (depth == 0 || length < MIN_REUSED_BYTES || length > MAX_REUSED_BYTES) {
            return new byte[length];
        }
        int replace = -1;
        for (int slot = 0; slot < SLOTS; slot++) {
            if (lent[slot]) {
                continue;
            }
            if (arrays[slot] != null && arrays[slot].length == length) {
                return lend(slot);
            }
            if (replace < 0 || arrays[slot] == null
                    || (arrays[replace] != null && takenAt[slot] < takenAt[replace])) {
                replace = slot;
            }
        }
        if (replace < 0) {
            return new byte[length]; // every slot is lent to this frame already
        }
        arrays[replace] = new byte[length];
        return lend(replace);
    }

    private byte[] lend(int slot) {
        lent[slot] = true;
        takenAt[slot] = ++takes;
        return arrays[slot];
    }
}
