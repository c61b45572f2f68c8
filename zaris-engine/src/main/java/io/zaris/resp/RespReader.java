package io.zaris.resp;

import io.netty.buffer.ByteBuf;
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
 * <p>Not thread-safe: one instance per connection, used on its event loop.
 */
final class RespReader {

    /** Longest length line (a sign, 19 digits and CRLF) plus slack. */
    private static final int MAX_LENGTH_LINE = 24;

    private final RespLimits limits;
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
            int end = lineEnd(in, start, MAX_LENGTH_LINE);
            if (end == -2) {
                throw new RespProtocolException("Protocol error: invalid multibulk length");
            }
            if (end < 0) {
                if (in.readableBytes() > MAX_LENGTH_LINE) {
                    throw new RespProtocolException("Protocol error: invalid multibulk length");
                }
                return null;
            }
            long count = parseLength(in, start, end);
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
            int end = lineEnd(in, header + 1, MAX_LENGTH_LINE);
            if (end == -2) {
                throw new RespProtocolException("Protocol error: invalid bulk length");
            }
            if (end < 0) {
                if (in.readableBytes() > MAX_LENGTH_LINE) {
                    throw new RespProtocolException("Protocol error: invalid bulk length");
                }
                return null;
            }
            long length = parseLength(in, header + 1, end);
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
            if (in.getByte(body + (int) length) != '\r' || in.getByte(body + (int) length + 1) != '\n') {
                throw new RespProtocolException("Protocol error: bulk string not terminated by CRLF");
            }
            byte[] bytes = new byte[(int) length];
            in.getBytes(body, bytes);
            in.readerIndex(body + (int) length + 2);
            commandBytes += length;
            args.add(bytes);
        }
        List<byte[]> command = args;
        args = null;
        return command;
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
