package io.zaris.model;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The opaque value DUMP answers and RESTORE takes, in Zaris's own format (not Redis's RDB: only Zaris reads it).
 * Layout, big-endian: type code (1 byte, {@link KeyContent.Type#code}), element count (4), each element as its
 * length (4) and bytes, then the format {@link #VERSION} (2) and a CRC-32C (4) of every byte before it. Like
 * Redis's version and CRC64 trailer, the trailer lets RESTORE refuse what it did not make, or what was damaged on
 * the way, before it looks inside. Pure and stateless.
 */
public final class DumpPayload {

    /** The format version this node writes and reads. */
    public static final int VERSION = 1;
    private static final int TRAILER_BYTES = 2 + 4;

    private DumpPayload() {
    }

    /** Why a payload was refused: a wrong trailer (Redis's "version or checksum" error), or a bad body. */
    public static final class InvalidPayloadException extends Exception {
        private final boolean trailer;

        private InvalidPayloadException(boolean trailer, String message) {
            super(message);
            this.trailer = trailer;
        }

        /** Whether the version or checksum was wrong (else the trailer was right and the body malformed). */
        public boolean trailer() {
            return trailer;
        }
    }

    public static byte[] encode(KeyContent content) {
        long size = 1 + 4 + TRAILER_BYTES;
        for (byte[] element : content.elements()) {
            size += 4 + element.length;
        }
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(size));
        out.put((byte) content.type().code());
        out.putInt(content.elements().size());
        for (byte[] element : content.elements()) {
            out.putInt(element.length);
            out.put(element);
        }
        out.putShort((short) VERSION);
        out.putInt((int) crc(out.array(), out.position()));
        return out.array();
    }

    /** @throws InvalidPayloadException when the trailer is wrong, or the body does not describe a value */
    public static KeyContent decode(byte[] payload) throws InvalidPayloadException {
        if (payload.length < 1 + 4 + TRAILER_BYTES) {
            throw new InvalidPayloadException(true, "too short");
        }
        ByteBuffer in = ByteBuffer.wrap(payload);
        int bodyEnd = payload.length - TRAILER_BYTES;
        int version = in.getShort(bodyEnd) & 0xFFFF;
        int checksum = in.getInt(bodyEnd + 2);
        if (version != VERSION || checksum != (int) crc(payload, bodyEnd + 2)) {
            throw new InvalidPayloadException(true, "format version " + version + " or checksum is wrong");
        }
        KeyContent.Type type = KeyContent.Type.fromCode(in.get() & 0xFF);
        if (type == null) {
            throw new InvalidPayloadException(false, "unknown type");
        }
        int count = in.getInt();
        // Each element takes at least its 4-byte length, which bounds the count by the payload.
        if (count < 0 || count > (bodyEnd - in.position()) / 4) {
            throw new InvalidPayloadException(false, "bad element count " + count);
        }
        List<byte[]> elements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (bodyEnd - in.position() < 4) {
                throw new InvalidPayloadException(false, "truncated");
            }
            int length = in.getInt();
            if (length < 0 || length > bodyEnd - in.position()) {
                throw new InvalidPayloadException(false, "bad element length " + length);
            }
            byte[] element = new byte[length];
            in.get(element);
            elements.add(element);
        }
        if (in.position() != bodyEnd) {
            throw new InvalidPayloadException(false, "bytes after the last element");
        }
        checkShape(type, elements);
        return new KeyContent(type, elements);
    }

    private static void checkShape(KeyContent.Type type, List<byte[]> elements) throws InvalidPayloadException {
        if (type == KeyContent.Type.STRING ? elements.size() != 1 : elements.isEmpty()) {
            throw new InvalidPayloadException(false, "wrong number of elements for a " + type);
        }
        if (type.paired() && elements.size() % 2 != 0) {
            throw new InvalidPayloadException(false, "unpaired element");
        }
        if (type == KeyContent.Type.SORTED_SET) {
            for (int i = 1; i < elements.size(); i += 2) {
                if (elements.get(i).length != 8 || Double.isNaN(SortedSetScores.decode(elements.get(i)))) {
                    throw new InvalidPayloadException(false, "bad score");
                }
            }
        }
    }

    private static long crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return crc.getValue();
    }
}
