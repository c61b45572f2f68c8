package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes {@link RespReply} values in RESP2 or RESP3. Stateless but for one scratch array per writing thread (see
 * {@link #SCRATCH}). Lengths and integers are written digit by digit and fixed replies from constants, so rendering a
 * reply allocates nothing beyond its output buffer.
 */
final class RespWriter {

    /** The longest {@link RespReply.ItemPairs} reply rendered in the scratch array first. */
    static final int SCRATCH_BYTES = 4096;
    /**
     * Where a short {@link RespReply.ItemPairs} reply (ZRANGE's ten pairs: about 40 writes of a few bytes each) is
     * rendered with plain array stores, then copied into the output buffer at once: each small write to the pooled
     * direct output buffer checks its bounds and reference count. Confined to its thread (an event loop writes one reply
     * at a time, from start to end), so never shared; at most {@value #SCRATCH_BYTES} bytes per thread that writes.
     */
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[SCRATCH_BYTES]);

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] NULL_RESP3 = "_\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_RESP2 = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL_ARRAY_RESP2 = "*-1\r\n".getBytes(StandardCharsets.US_ASCII);

    private RespWriter() {
    }

    static void write(RespReply reply, int protocol, ByteBuf out) {
        if (reply instanceof RespReply.Simple simple) {
            line(out, '+', simple.text());
        } else if (reply instanceof RespReply.Error error) {
            line(out, '-', error.text());
        } else if (reply instanceof RespReply.Int integer) {
            number(out, ':', integer.value());
        } else if (reply instanceof RespReply.Bulk bulk) {
            number(out, '$', bulk.bytes().length);
            out.writeBytes(bulk.bytes());
            out.writeBytes(CRLF);
        } else if (reply instanceof RespReply.BufferBulk bulk) {
            ByteBuf bytes = bulk.bytes();
            number(out, '$', bytes.readableBytes());
            if (bytes.hasArray()) {
                // From the backing array: copying buffer to buffer made two NIO views per value on a direct output.
                out.writeBytes(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), bytes.readableBytes());
            } else {
                out.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
            }
            out.writeBytes(CRLF);
        } else if (reply instanceof RespReply.Null) {
            out.writeBytes(protocol >= 3 ? NULL_RESP3 : NULL_RESP2);
        } else if (reply instanceof RespReply.NullArray) {
            out.writeBytes(protocol >= 3 ? NULL_RESP3 : NULL_ARRAY_RESP2);
        } else if (reply instanceof RespReply.Array array) {
            number(out, '*', array.items().size());
            for (RespReply item : array.items()) {
                write(item, protocol, out);
            }
        } else if (reply instanceof RespReply.SetReply set) {
            number(out, protocol >= 3 ? '~' : '*', set.items().size());
            for (RespReply item : set.items()) {
                write(item, protocol, out);
            }
        } else if (reply instanceof RespReply.MapReply map) {
            int size = map.keysAndValues().size();
            if (protocol >= 3) {
                number(out, '%', size / 2);
            } else {
                number(out, '*', size);
            }
            for (RespReply item : map.keysAndValues()) {
                write(item, protocol, out);
            }
        } else if (reply instanceof RespReply.Score score) {
            if (protocol >= 3) {
                out.writeByte(',');
            } else {
                number(out, '$', score.text().length);
            }
            out.writeBytes(score.text());
            out.writeBytes(CRLF);
        } else if (reply instanceof RespReply.Pairs pairs) {
            List<RespReply> flat = pairs.flat();
            number(out, '*', protocol >= 3 ? flat.size() / 2 : flat.size());
            for (int i = 0; i < flat.size(); i++) {
                if (protocol >= 3 && i % 2 == 0) {
                    number(out, '*', 2);
                }
                write(flat.get(i), protocol, out);
            }
        } else if (reply instanceof RespReply.ItemPairs pairs) {
            itemPairs(pairs, protocol, out);
        } else if (reply instanceof RespReply.Push push) {
            line(out, protocol >= 3 ? '>' : '*', Integer.toString(push.items().size()));
            for (RespReply item : push.items()) {
                write(item, protocol, out);
            }
        } else if (reply instanceof RespReply.Frames frames) {
            for (RespReply item : frames.replies()) {
                write(item, protocol, out);
            }
        } else if (reply instanceof RespReply.ThenClose thenClose) {
            write(thenClose.reply(), protocol, out);
        }
    }

    /**
     * {@link RespReply.ItemPairs}: as {@link RespReply.Pairs} of a bulk member and a {@link RespReply.Score} (RESP3
     * nests each pair, RESP2 flattens them), or the members alone; each item read from the slice by index.
     */
    private static void itemPairs(RespReply.ItemPairs pairs, int protocol, ByteBuf out) {
        ByteBuf items = pairs.items();
        if (items.hasArray() && renderedBound(pairs) <= SCRATCH_BYTES) {
            byte[] scratch = SCRATCH.get();
            int length = renderItemPairs(pairs, protocol, scratch);
            out.writeBytes(scratch, 0, length);
            return;
        }
        boolean nested = pairs.withScores() && protocol >= 3;
        number(out, '*', pairs.withScores() && !nested ? 2L * pairs.pairs() : pairs.pairs());
        int at = items.readerIndex();
        for (int i = 0; i < pairs.pairs(); i++) {
            if (nested) {
                number(out, '*', 2);
            }
            at = item(items, at, '$', out);
            if (pairs.withScores()) {
                at = item(items, at, protocol >= 3 ? ',' : '$', out);
            } else {
                at += 1 + Integer.BYTES + items.getInt(at + 1); // the score, not written
            }
        }
    }

    /**
     * At least the bytes {@link #renderItemPairs} writes: the items' bytes (each with its 5 bytes of flag and length)
     * and, per item, a type, up to 10 length digits and two CRLFs, per pair a RESP3 pair header, and the array header.
     */
    private static long renderedBound(RespReply.ItemPairs pairs) {
        return pairs.items().readableBytes() + 2L * pairs.pairs() * 15 + 4L * pairs.pairs() + 16;
    }

    /**
     * {@link #itemPairs} into {@code to} from index 0 (which {@link #renderedBound} says is large enough), reading
     * the items from their heap buffer's array; returns the length written.
     */
    private static int renderItemPairs(RespReply.ItemPairs pairs, int protocol, byte[] to) {
        ByteBuf items = pairs.items();
        byte[] from = items.array();
        boolean nested = pairs.withScores() && protocol >= 3;
        int w = putNumber(to, 0, '*', pairs.withScores() && !nested ? 2L * pairs.pairs() : pairs.pairs());
        int at = items.arrayOffset() + items.readerIndex();
        for (int i = 0; i < pairs.pairs(); i++) {
            if (nested) {
                w = putNumber(to, w, '*', 2);
            }
            int length = intAt(from, at + 1);
            at += 1 + Integer.BYTES;
            w = putNumber(to, w, '$', length);
            System.arraycopy(from, at, to, w, length);
            w = putCrlf(to, w + length);
            at += length;
            length = intAt(from, at + 1);
            at += 1 + Integer.BYTES;
            if (pairs.withScores()) {
                if (protocol >= 3) {
                    to[w++] = ',';
                } else {
                    w = putNumber(to, w, '$', length);
                }
                System.arraycopy(from, at, to, w, length);
                w = putCrlf(to, w + length);
            }
            at += length;
        }
        return w;
    }

    /** The big-endian int at {@code at}, as {@link ByteBuf#getInt} reads it. */
    private static int intAt(byte[] bytes, int at) {
        return (bytes[at] & 0xFF) << 24 | (bytes[at + 1] & 0xFF) << 16 | (bytes[at + 2] & 0xFF) << 8 | bytes[at + 3] & 0xFF;
    }

    /** {@code type}, the non-negative {@code value} in decimal and CRLF at {@code w}; returns the index after them. */
    private static int putNumber(byte[] to, int w, char type, long value) {
        to[w++] = (byte) type;
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        for (int i = w + digits - 1; i >= w; i--) {
            to[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return putCrlf(to, w + digits);
    }

    private static int putCrlf(byte[] to, int w) {
        to[w] = '\r';
        to[w + 1] = '\n';
        return w + 2;
    }

    /**
     * The engine's item at {@code at} in {@code items} (a present flag, a length, the bytes) as a bulk string
     * ({@code type} '$') or a RESP3 double (','); returns where the next item starts.
     */
    private static int item(ByteBuf items, int at, char type, ByteBuf out) {
        int length = items.getInt(at + 1);
        int from = at + 1 + Integer.BYTES;
        if (type == '$') {
            number(out, '$', length);
        } else {
            out.writeByte(type);
        }
        if (items.hasArray()) {
            out.writeBytes(items.array(), items.arrayOffset() + from, length);
        } else {
            out.writeBytes(items, from, length);
        }
        out.writeBytes(CRLF);
        return from + length;
    }

    /** {@code type}, {@code value} in decimal, CRLF. */
    static void number(ByteBuf out, char type, long value) {
        out.writeByte(type);
        if (value == Long.MIN_VALUE) {
            out.writeCharSequence(Long.toString(value), StandardCharsets.US_ASCII);
        } else {
            if (value < 0) {
                out.writeByte('-');
                value = -value;
            }
            int digits = 1;
            for (long rest = value / 10; rest > 0; rest /= 10) {
                digits++;
            }
            int end = out.writerIndex() + digits;
            out.ensureWritable(digits);
            for (int i = end - 1; i >= end - digits; i--) {
                out.setByte(i, (int) ('0' + value % 10));
                value /= 10;
            }
            out.writerIndex(end);
        }
        out.writeBytes(CRLF);
    }

    private static void line(ByteBuf out, char type, String text) {
        out.writeByte(type);
        out.writeCharSequence(text, StandardCharsets.UTF_8);
        out.writeBytes(CRLF);
    }
}
