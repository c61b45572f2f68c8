package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;

/**
 * Splits the byte stream into frame payloads ({@code int32 length · payload}, the prefix stripped) and copies
 * as little as it can. A frame that arrives whole within one socket read is passed on as a slice of that
 * read's buffer, with no copy; only a frame split across reads is assembled, into a buffer of its own, so a
 * byte is copied at most once. A cumulating decoder instead copies every read that follows a split frame
 * onto the bytes left over, growing (and so copying again) its buffer: with 10 KiB values pipelined, that
 * was most of the bytes received, about 4 % of a node's CPU.
 *
 * <p>Fails fast: a length below zero or above what {@code maxFrameBytes} allows raises a
 * {@link CorruptedFrameException} or {@link TooLongFrameException} as soon as its prefix is read, before any of
 * the frame is buffered, and everything the connection sends afterwards is discarded (a stream that lied
 * about a length cannot be trusted; the connection's handler closes it). A split frame's buffer starts at
 * most {@link #INITIAL_PARTIAL_BYTES} and grows with what arrives, so a peer that announces a large frame
 * and sends nothing holds little memory.
 *
 * <p>The frames of one read are passed on inside one {@link ReadBurst}, so the SYNC writes among them ask their
 * replication links for one flush, made once they are all handled.
 *
 * <p>Downstream handlers own (and release) each frame they receive. Confined to the channel's event loop;
 * its fields need no synchronisation. The split frame is released when the handler is removed.
 */
final class FrameDecoder extends ChannelInboundHandlerAdapter {

    /** Largest buffer a split frame starts with; a bigger frame's buffer grows as its bytes arrive. */
    static final int INITIAL_PARTIAL_BYTES = 64 * 1024;

    private final int maxPayloadBytes;
    /**
     * The frame split across reads, or {@code null}. While {@code partialLength < 0} it holds the first
     * bytes of a length prefix; then the payload received so far, {@code partialLength} bytes in all.
     */
    private ByteBuf partial;
    private int partialLength = -1;
    /** A length was rejected: the rest of the stream is discarded. */
    private boolean discarding;

    /** @param maxFrameBytes the largest frame accepted, its length prefix included */
    public FrameDecoder(int maxFrameBytes) {
        if (maxFrameBytes < Frames.LENGTH_PREFIX_BYTES) {
            throw new IllegalArgumentException("maxFrameBytes must be at least " + Frames.LENGTH_PREFIX_BYTES
                    + " but was " + maxFrameBytes);
        }
        this.maxPayloadBytes = maxFrameBytes - Frames.LENGTH_PREFIX_BYTES;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        // The frames of one read share their SYNC writes' replication flush, sent when they are handled.
        ReadBurst burst = ReadBurst.open();
        try {
            if (partial != null && !continuePartial(ctx, in)) {
                return;
            }
            while (!discarding && !ctx.isRemoved() && in.readableBytes() >= Frames.LENGTH_PREFIX_BYTES) {
                int length = in.getInt(in.readerIndex());
                if (rejected(ctx, length)) {
                    return;
                }
                if (in.readableBytes() - Frames.LENGTH_PREFIX_BYTES < length) {
                    break;
                }
                in.skipBytes(Frames.LENGTH_PREFIX_BYTES);
                passOnSlice(ctx, in, length);
            }
            if (!discarding && !ctx.isRemoved() && in.isReadable()) {
                startPartial(ctx, in);
            }
        } finally {
            try {
                in.release();
            } finally {
                burst.close();
            }
        }
    }

    /**
     * Feeds the split frame from {@code in}; passes it on when complete. Returns whether whole frames may
     * follow in {@code in}.
     */
    private boolean continuePartial(ChannelHandlerContext ctx, ByteBuf in) {
        if (partialLength < 0) {
            partial.writeBytes(in, Math.min(partial.writableBytes(), in.readableBytes()));
            if (partial.isWritable()) {
                return false;
            }
            int length = partial.readInt();
            releasePartial();
            if (rejected(ctx, length)) {
                return false;
            }
            if (in.readableBytes() >= length) {
                passOnSlice(ctx, in, length);
                return true;
            }
            startPayload(ctx, in, length);
            return false;
        }
        partial.writeBytes(in, Math.min(partialLength - partial.readableBytes(), in.readableBytes()));
        if (partial.readableBytes() < partialLength) {
            return false;
        }
        ByteBuf frame = partial;
        partial = null;
        partialLength = -1;
        ctx.fireChannelRead(frame);
        return true;
    }

    /** Passes on the next {@code length} bytes of {@code in} as a frame sharing its memory. */
    private static void passOnSlice(ChannelHandlerContext ctx, ByteBuf in, int length) {
        ByteBuf frame = in.retainedSlice(in.readerIndex(), length);
        in.skipBytes(length);
        ctx.fireChannelRead(frame);
    }

    /** Keeps the incomplete tail of {@code in}: part of a length prefix, or a prefix and part of its payload. */
    private void startPartial(ChannelHandlerContext ctx, ByteBuf in) {
        if (in.readableBytes() < Frames.LENGTH_PREFIX_BYTES) {
            partial = ctx.alloc().buffer(Frames.LENGTH_PREFIX_BYTES, Frames.LENGTH_PREFIX_BYTES);
            partialLength = -1;
            partial.writeBytes(in);
            return;
        }
        int length = in.readInt(); // checked by the caller
        startPayload(ctx, in, length);
    }

    private void startPayload(ChannelHandlerContext ctx, ByteBuf in, int length) {
        partial = ctx.alloc().buffer(Math.min(length, INITIAL_PARTIAL_BYTES), length);
        partialLength = length;
        partial.writeBytes(in);
    }

    /** A negative or oversized length: reported once, and the stream is discarded from here on. */
    private boolean rejected(ChannelHandlerContext ctx, int length) {
        if (length >= 0 && length <= maxPayloadBytes) {
            return false;
        }
        discarding = true;
        releasePartial();
        ctx.fireExceptionCaught(length < 0
                ? new CorruptedFrameException("negative frame length " + length)
                : new TooLongFrameException("frame of " + ((long) length + Frames.LENGTH_PREFIX_BYTES)
                        + " bytes exceeds the limit of " + (maxPayloadBytes + Frames.LENGTH_PREFIX_BYTES)));
        return true;
    }

    private void releasePartial() {
        if (partial != null) {
            partial.release();
            partial = null;
        }
        partialLength = -1;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releasePartial();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releasePartial();
    }
}
