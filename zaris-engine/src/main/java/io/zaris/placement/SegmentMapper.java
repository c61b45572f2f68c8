package io.zaris.placement;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Maps a key to its Redis Cluster slot, and a slot to one of {@code segmentCount} segments.
 *
 * <p><b>Compatibility contract.</b> Client and server share this one class, and its results never change:
 * a key's slot is CRC16/XMODEM (polynomial {@code 0x1021}, initial value 0, no reflection, no final xor)
 * masked to 14 bits, exactly the Redis Cluster key slot. The hash tag is the bytes between the first
 * {@code '{'} and the first {@code '}'} after it; when it exists and is non-empty only the tag is hashed,
 * otherwise the whole key is. Character keys hash their UTF-8 bytes; keys whose chars are all ASCII are
 * hashed char by char without allocating. Braces are ASCII and never occur inside a multi-byte UTF-8
 * sequence, so a tag means the same in chars and in bytes.
 *
 * <p><b>Segments.</b> Slot {@code s} belongs to segment {@code s * segmentCount / SLOT_COUNT}. Since
 * {@code segmentCount <= SLOT_COUNT}, every segment owns a non-empty, contiguous run of slots
 * {@code firstSlotOf(segment)..lastSlotOf(segment)}, and the runs tile {@code 0..SLOT_COUNT-1} in order.
 *
 * <p>Instances are immutable and thread-safe. Index arguments outside their range throw
 * {@link IndexOutOfBoundsException}, null keys {@link NullPointerException}, and other bad arguments
 * {@link IllegalArgumentException}.
 */
public final class SegmentMapper {

    /** Number of Redis Cluster hash slots; also the largest allowed segment count. */
    public static final int SLOT_COUNT = 16384;

    /** Keeps the low 14 bits of a CRC, turning it into a slot. */
    private static final int SLOT_MASK = SLOT_COUNT - 1;

    /** CRC16/XMODEM generator polynomial (x^16 + x^12 + x^5 + 1), non-reflected. */
    private static final int POLYNOMIAL = 0x1021;

    /** {@code CRC_TABLE[i]} is the CRC register after shifting the byte {@code i} through an all-zero register. */
    private static final char[] CRC_TABLE = new char[256];

    static {
        for (int i = 0; i < CRC_TABLE.length; i++) {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ POLYNOMIAL : crc << 1;
            }
            CRC_TABLE[i] = (char) crc;
        }
    }

    private final int segmentCount;

    /**
     * @param segmentCount number of segments, {@code 1..SLOT_COUNT}
     */
    public SegmentMapper(int segmentCount) {
        if (segmentCount < 1 || segmentCount > SLOT_COUNT) {
            throw new IllegalArgumentException(
                    "segmentCount must be between 1 and " + SLOT_COUNT + " but was " + segmentCount);
        }
        this.segmentCount = segmentCount;
    }

    public int segmentCount() {
        return segmentCount;
    }

    /**
     * CRC16/XMODEM of {@code bytes[from..to)}.
     *
     * @return the CRC, {@code 0..0xFFFF}
     */
    public static int crc16(byte[] bytes, int from, int to) {
        Objects.requireNonNull(bytes, "bytes");
        Objects.checkFromToIndex(from, to, bytes.length);
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc = update(crc, bytes[i]);
        }
        return crc;
    }

    /** The Redis Cluster slot of a raw key, {@code 0..SLOT_COUNT-1}. */
    public static int slot(byte[] key) {
        Objects.requireNonNull(key, "key");
        int open = -1;
        for (int i = 0; i < key.length; i++) {
            if (key[i] == '{') {
                open = i;
                break;
            }
        }
        if (open >= 0) {
            for (int close = open + 1; close < key.length; close++) {
                if (key[close] == '}') {
                    if (close > open + 1) {
                        return crc16(key, open + 1, close) & SLOT_MASK;
                    }
                    break;
                }
            }
        }
        return crc16(key, 0, key.length) & SLOT_MASK;
    }

    /**
     * The Redis Cluster slot of a character key: the slot of its UTF-8 bytes. ASCII-only keys are hashed
     * without allocating; other keys are encoded once and handed to {@link #slot(byte[])}.
     */
    public static int slot(CharSequence key) {
        Objects.requireNonNull(key, "key");
        int length = key.length();
        int open = -1;
        int close = -1;
        for (int i = 0; i < length; i++) {
            char c = key.charAt(i);
            if (c >= 0x80) {
                return slot(key.toString().getBytes(StandardCharsets.UTF_8));
            }
            if (c == '{' && open < 0) {
                open = i;
            } else if (c == '}' && open >= 0 && close < 0) {
                close = i;
            }
        }
        if (close > open + 1) {
            return asciiCrc16(key, open + 1, close) & SLOT_MASK;
        }
        return asciiCrc16(key, 0, length) & SLOT_MASK;
    }

    /** The segment that owns {@code slot}: {@code slot * segmentCount / SLOT_COUNT}. */
    public int segmentOfSlot(int slot) {
        Objects.checkIndex(slot, SLOT_COUNT);
        // 16383 * 16384 < 2^31, so the product never overflows.
        return slot * segmentCount / SLOT_COUNT;
    }

    public int segmentOf(byte[] key) {
        return segmentOfSlot(slot(key));
    }

    public int segmentOf(CharSequence key) {
        return segmentOfSlot(slot(key));
    }

    /** The smallest slot owned by {@code segment}: {@code ceil(segment * SLOT_COUNT / segmentCount)}. */
    public int firstSlotOf(int segment) {
        checkSegment(segment);
        return ceilSlot(segment);
    }

    /** The largest slot owned by {@code segment} (inclusive). */
    public int lastSlotOf(int segment) {
        checkSegment(segment);
        return ceilSlot(segment + 1) - 1;
    }

    @Override
    public String toString() {
        return "SegmentMapper[segmentCount=" + segmentCount + "]";
    }

    private int ceilSlot(int segment) {
        // segment <= 16384 and segmentCount <= 16384, so the numerator stays below 2^31.
        return (segment * SLOT_COUNT + segmentCount - 1) / segmentCount;
    }

    private void checkSegment(int segment) {
        if (segment < 0 || segment >= segmentCount) {
            throw new IndexOutOfBoundsException(
                    "segment " + segment + " is outside 0.." + (segmentCount - 1));
        }
    }

    private static int asciiCrc16(CharSequence chars, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc = update(crc, chars.charAt(i));
        }
        return crc;
    }

    private static int update(int crc, int octet) {
        return ((crc << 8) ^ CRC_TABLE[((crc >>> 8) ^ octet) & 0xFF]) & 0xFFFF;
    }
}
