package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.KvStatus;
import java.nio.charset.StandardCharsets;

/**
 * Primitive encodings shared by every frame: byte arrays as {@code int32 length + bytes}, strings as
 * {@code uint16 length + UTF-8}. Readers check every length against what is actually readable, so a
 * truncated or lying frame becomes a {@link MalformedRequestException}, never an out-of-bounds read.
 */
public final class Wire {

    private Wire() {
    }

    public static void writeBytes(ByteBuf out, byte[] bytes) {
        out.writeInt(bytes.length);
        out.writeBytes(bytes);
    }

    public static void writeString(ByteBuf out, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > 0xFFFF) {
            throw new IllegalArgumentException("string longer than 65535 UTF-8 bytes");
        }
        out.writeShort(utf8.length);
        out.writeBytes(utf8);
    }

    /** Reads a length-prefixed byte array of at most {@code maxLength} bytes. */
    public static byte[] readBytes(ByteBuf in, int maxLength, long requestId, String what)
            throws MalformedRequestException {
        return readBytes(in, maxLength, requestId, what, ValueArrays.FRESH);
    }

    /** {@link #readBytes(ByteBuf, int, long, String)} into an array from {@code arrays}, taken once the length checks pass. */
    public static byte[] readBytes(ByteBuf in, int maxLength, long requestId, String what, ValueArrays arrays)
            throws MalformedRequestException {
        int length = readInt(in, requestId, what);
        if (length < 0) {
            throw new MalformedRequestException(requestId, KvStatus.BAD_REQUEST, what + " has negative length");
        }
        if (length > maxLength) {
            throw new MalformedRequestException(requestId, KvStatus.TOO_LARGE,
                    what + " of " + length + " bytes exceeds the limit of " + maxLength);
        }
        if (in.readableBytes() < length) {
            throw truncated(requestId, what);
        }
        byte[] bytes = arrays.take(length);
        in.readBytes(bytes);
        return bytes;
    }

    public static String readString(ByteBuf in, long requestId, String what) throws MalformedRequestException {
        if (in.readableBytes() < 2) {
            throw truncated(requestId, what);
        }
        int length = in.readUnsignedShort();
        if (in.readableBytes() < length) {
            throw truncated(requestId, what);
        }
        String value = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return value;
    }

    public static int readInt(ByteBuf in, long requestId, String what) throws MalformedRequestException {
        if (in.readableBytes() < Integer.BYTES) {
            throw truncated(requestId, what);
        }
        return in.readInt();
    }

    public static long readLong(ByteBuf in, long requestId, String what) throws MalformedRequestException {
        if (in.readableBytes() < Long.BYTES) {
            throw truncated(requestId, what);
        }
        return in.readLong();
    }

    public static int readUnsignedByte(ByteBuf in, long requestId, String what) throws MalformedRequestException {
        if (!in.isReadable()) {
            throw truncated(requestId, what);
        }
        return in.readUnsignedByte();
    }

    /** A count prefix (number of keys, entries…) checked against a bound before anything is allocated. */
    public static int readCount(ByteBuf in, int max, long requestId, String what) throws MalformedRequestException {
        int count = readInt(in, requestId, what);
        if (count < 0) {
            throw new MalformedRequestException(requestId, KvStatus.BAD_REQUEST, what + " is negative");
        }
        if (count > max) {
            throw new MalformedRequestException(requestId, KvStatus.TOO_LARGE,
                    what + " of " + count + " exceeds the limit of " + max);
        }
        return count;
    }

    private static MalformedRequestException truncated(long requestId, String what) {
        return new MalformedRequestException(requestId, KvStatus.BAD_REQUEST, "frame truncated while reading " + what);
    }
}
