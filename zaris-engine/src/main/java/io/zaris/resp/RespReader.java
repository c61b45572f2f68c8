package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;
import java.util.ArrayList;
import java.util.List;

/**
 * Incremental parser of client commands: multibulk arrays of bulk strings ({@code *2\r\n$3\r\nGET\r\n…}) and
 * inline commands (a line of space-separated words, quotes as {@code redis-cli} and Redis understand them).
 *
 * <p>{@link #read} consumes at most one command from the buffer and returns {@code null} when the buffer
 * ends inside one; a partly read array is kept, so a command arriving in many chunks is not parsed again
 * from its start. Every length is checked against {@link RespLimits} before anything is allocated for it.
 * An empty command ({@code *0}, {@code *-1}, a blank inline line) is returned as an empty list, which
 * callers skip as Redis does.
 *
 * <p>A well-formed length line (digits, then CRLF) is read in one walk over its bytes ({@link DigitLine}); anything
 * else (a sign, a stray byte, a line not complete yet) goes the byte-by-byte way, which decides what to answer.
 *
 * <p>Not thread-safe: one instance per connection, used on its event loop.
 */
final class RespReader {

    /** Longest length line (a sign, 19 digits and CRLF) plus slack. */
    private static final int MAX_LENGTH_LINE = 24;
    /** CR and LF as one big-endian short, as {@link ByteBuf#getShort} reads them. */
    private static final short CRLF = ('\r' << 8) | '\n';
    /** Most digits a length of {@link DigitLine} may have, as {@link #parseLength} allows. */
    private static final int MAX_DIGITS = 18;

    /** Longest command name whose array is shared with the next command of the same name ({@link #name}). */
    private static final int MAX_SHARED_NAME = 32;

    private final RespLimits limits;
    private final DigitLine digitLine = new DigitLine();
    /** The last command name read, shared with the next command if it has the same bytes; see {@link #name}. */
    private byte[] lastName;
    private List<byte[]> args;
    private int expected;
    private long commandBytes;

    RespReader(RespLimits limits) {
        this.limits = limits;
    }

    List<byte[]> read(ByteBuf in) throws RespProtocolException {
        if (args == null) {
            if (!in.isReadable()) {
                return null;
            }
            if (in.getByte(in.readerIndex()) != '*') {
                return readInline(in);
            }
            int start = in.readerIndex() + 1;
            int end = digitLine.read(in, start);
            long count = digitLine.value;
            if (end < 0) {
                end = lineEnd(in, start, MAX_LENGTH_LINE);
                if (end == -2) {
                    throw new RespProtocolException("Protocol error: invalid multibulk length");
                }
                if (end < 0) {
                    if (in.readableBytes() > MAX_LENGTH_LINE) {
                        throw new RespProtocolException("Protocol error: invalid multibulk length");
                    }
                    return null;
                }
                count = parseLength(in, start, end);
            }
            if (count == Long.MIN_VALUE || count > limits.maxArrayLength()) {
                throw new RespProtocolException("Protocol error: invalid multibulk length");
            }
            in.readerIndex(end + 2);
            if (count <= 0) {
                return List.of();
            }
            expected = (int) count;
            args = new ArrayList<>(Math.min(expected, 64));
            commandBytes = 0;
        }
        while (args.size() < expected) {
            if (!in.isReadable()) {
                return null;
            }
            int header = in.readerIndex();
            byte type = in.getByte(header);
            if (type != '$') {
                throw new RespProtocolException("Protocol error: expected '$', got '" + printable(type) + "'");
            }
            int end = digitLine.read(in, header + 1);
            long length = digitLine.value;
            if (end < 0) {
                end = lineEnd(in, header + 1, MAX_LENGTH_LINE);
                if (end == -2) {
                    throw new RespProtocolException("Protocol error: invalid bulk length");
                }
                if (end < 0) {
                    if (in.readableBytes() > MAX_LENGTH_LINE) {
                        throw new RespProtocolException("Protocol error: invalid bulk length");
                    }
                    return null;
                }
                length = parseLength(in, header + 1, end);
            }
            if (length < 0 || length > limits.maxBulkBytes()) {
                throw new RespProtocolException("Protocol error: invalid bulk length");
            }
            if (commandBytes + length > limits.maxCommandBytes()) {
                throw new RespProtocolException("Protocol error: command larger than " + limits.maxCommandBytes() + " bytes");
            }
            long needed = (end + 2 - header) + length + 2;
            if (in.readableBytes() < needed) {
                return null;
            }
            int body = end + 2;
            if (in.getShort(body + (int) length) != CRLF) {
                throw new RespProtocolException("Protocol error: bulk string not terminated by CRLF");
            }
            byte[] bytes;
            if (args.isEmpty()) {
                bytes = name(in, body, (int) length);
            } else {
                bytes = new byte[(int) length];
                in.getBytes(body, bytes);
            }
            in.readerIndex(body + (int) length + 2);
            commandBytes += length;
            args.add(bytes);
        }
        List<byte[]> command = args;
        args = null;
        return command;
    }

    /**
     * The array for a command's name of {@code length} bytes at {@code at}: the previous command's name array when the
     * bytes are the same (a connection mostly sends the same few commands, and nothing writes to a command's
     * arguments), else a copy of them, kept for the next command when it is short.
     */
    private byte[] name(ByteBuf in, int at, int length) {
        byte[] last = lastName;
        if (last != null && last.length == length) {
            int i = 0;
            while (i < length && in.getByte(at + i) == last[i]) {
                i++;
            }
            if (i == length) {
                return last;
            }
        }
        byte[] bytes = new byte[length];
        in.getBytes(at, bytes);
        lastName = length <= MAX_SHARED_NAME ? bytes : null;
        return bytes;
    }

    private List<byte[]> readInline(ByteBuf in) throws RespProtocolException {
        int start = in.readerIndex();
        int newline = in.indexOf(start, start + Math.min(in.readableBytes(), limits.maxInlineBytes() + 2), (byte) '\n');
        if (newline < 0) {
            if (in.readableBytes() > limits.maxInlineBytes()) {
                throw new RespProtocolException("Protocol error: too big inline request");
            }
            return null;
        }
        int end = newline > start && in.getByte(newline - 1) == '\r' ? newline - 1 : newline;
        byte[] line = new byte[end - start];
        in.getBytes(start, line);
        in.readerIndex(newline + 1);
        List<byte[]> words = InlineSplitter.split(line);
        if (words == null) {
            throw new RespProtocolException("Protocol error: unbalanced quotes in request");
        }
        if (words.size() > limits.maxArrayLength()) {
            throw new RespProtocolException("Protocol error: invalid multibulk length");
        }
        return words;
    }

    /**
     * The digits of a length line as one walk over its bytes reads them ({@link ByteBuf#forEachByte}, one bounds check
     * for the line rather than one per byte): stops at the first byte that is no digit. Reused by its reader.
     */
    private static final class DigitLine implements ByteProcessor {
        long value;
        private int digits;

        /**
         * Reads a line of 1 to {@value #MAX_DIGITS} digits and CRLF at {@code from}: the index of its CR, the number in
         * {@link #value}; -1 for any other line, or one not complete in the buffer, which the caller then reads byte by
         * byte.
         */
        int read(ByteBuf in, int from) {
            value = 0;
            digits = 0;
            int window = Math.min(MAX_DIGITS + 1, in.writerIndex() - from);
            if (window <= 0) {
                return -1;
            }
            int stop = in.forEachByte(from, window, this);
            if (stop < 0 || digits == 0 || stop + 1 >= in.writerIndex() || in.getShort(stop) != CRLF) {
                return -1;
            }
            return stop;
        }

        @Override
        public boolean process(byte value) {
            int digit = value - '0';
            if (digit < 0 || digit > 9) {
                return false;
            }
            this.value = this.value * 10 + digit;
            digits++;
            return true;
        }
    }

    /** Index of the CR of the first CRLF in {@code [from, from + max)}, or -1. */
    private static int lineEnd(ByteBuf in, int from, int max) {
        int limit = Math.min(in.writerIndex(), from + max);
        for (int i = from; i < limit - 1; i++) {
            if (in.getByte(i) == '\r') {
                return in.getByte(i + 1) == '\n' ? i : -2;
            }
        }
        return -1;
    }

    /** A decimal length (optionally negative); {@link Long#MIN_VALUE} when not a number. */
    private static long parseLength(ByteBuf in, int from, int to) {
        boolean negative = to > from && in.getByte(from) == '-';
        int i = negative ? from + 1 : from;
        if (i >= to || to - i > 18) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (; i < to; i++) {
            int digit = in.getByte(i) - '0';
            if (digit < 0 || digit > 9) {
                return Long.MIN_VALUE;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    private static String printable(byte b) {
        return b >= 0x20 && b < 0x7F ? Character.toString((char) b) : String.format("\\x%02x", b & 0xFF);
    }
}
