package io.zaris.protocol;

import io.netty.buffer.ByteBuf;

/** Framing: every frame is {@code int32 payload length · payload}. */
public final class Frames {

    /** Bytes of the length prefix. */
    public static final int LENGTH_PREFIX_BYTES = 4;

    private Frames() {
    }

    /** Reserves the length prefix; returns the writer index to pass to {@link #finish}. */
    public static int begin(ByteBuf out) {
        int start = out.writerIndex();
        out.writeInt(0);
        return start;
    }

    /** Fills in the length prefix reserved by {@link #begin}. */
    public static void finish(ByteBuf out, int start) {
        out.setInt(start, out.writerIndex() - start - LENGTH_PREFIX_BYTES);
    }

    /**
     * A decoder that splits the byte stream into payloads (prefix stripped) and fails fast on a frame
     * longer than {@code maxFrameBytes} or a negative length, before buffering it; see {@link FrameDecoder}.
     */
    public static FrameDecoder decoder(int maxFrameBytes) {
        return new FrameDecoder(maxFrameBytes);
    }
}
