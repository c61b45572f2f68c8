package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class FrameDecoderTests {

    private static final int MAX_FRAME_BYTES = 1024;

    @Test
    void framesWholeWithinOneReadArriveAsTheyWereSent() {
        Received received = decode(MAX_FRAME_BYTES, List.of(concat(frame(payload(5, 1)), frame(payload(0, 2)), frame(payload(300, 3)))));

        assertThat(received.payloads()).containsExactly(payload(5, 1), payload(0, 2), payload(300, 3));
        assertThat(received.errors()).isEmpty();
    }

    @Test
    void aStreamCutAtEveryPositionYieldsTheSameFrames() {
        byte[] stream = concat(frame(payload(7, 1)), frame(payload(0, 2)), frame(payload(900, 3)), frame(payload(2, 4)));
        for (int cut = 0; cut <= stream.length; cut++) {
            Received received = decode(MAX_FRAME_BYTES, List.of(slice(stream, 0, cut), slice(stream, cut, stream.length)));

            assertThat(received.payloads()).as("cut at %d", cut)
                    .containsExactly(payload(7, 1), payload(0, 2), payload(900, 3), payload(2, 4));
        }
    }

    @Test
    void aStreamDeliveredByteByByteOrInRandomPiecesYieldsTheSameFrames() {
        Random random = new Random(42);
        List<byte[]> expected = new ArrayList<>();
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (int i = 0; i < 200; i++) {
            byte[] payload = payload(random.nextInt(i % 10 == 0 ? MAX_FRAME_BYTES - Frames.LENGTH_PREFIX_BYTES + 1 : 40), i);
            expected.add(payload);
            stream.writeBytes(frame(payload));
        }
        byte[] bytes = stream.toByteArray();

        assertThat(decode(MAX_FRAME_BYTES, pieces(bytes, () -> 1)).payloads()).containsExactlyElementsOf(expected);
        assertThat(decode(MAX_FRAME_BYTES, pieces(bytes, () -> 1 + random.nextInt(3000))).payloads())
                .containsExactlyElementsOf(expected);
    }

    @Test
    void aFrameOfExactlyTheLimitPassesAndOneByteMoreFailsBeforeItsPayloadArrives() {
        byte[] largest = payload(MAX_FRAME_BYTES - Frames.LENGTH_PREFIX_BYTES, 9);
        assertThat(decode(MAX_FRAME_BYTES, List.of(frame(largest))).payloads()).containsExactly(largest);

        byte[] prefixOnly = slice(frame(payload(MAX_FRAME_BYTES - Frames.LENGTH_PREFIX_BYTES + 1, 9)), 0, Frames.LENGTH_PREFIX_BYTES);
        Received received = decode(MAX_FRAME_BYTES, List.of(prefixOnly));

        assertThat(received.payloads()).isEmpty();
        assertThat(received.errors()).singleElement().isInstanceOf(TooLongFrameException.class)
                .extracting(Throwable::getMessage).asString().contains("1025 bytes exceeds the limit of 1024");
    }

    @Test
    void aNegativeLengthIsReportedOnceAndEverythingAfterItIsDiscarded() {
        byte[] negative = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFE};
        Received received = decode(MAX_FRAME_BYTES, List.of(concat(frame(payload(3, 1)), negative, frame(payload(3, 2))),
                frame(payload(3, 3))));

        assertThat(received.payloads()).containsExactly(payload(3, 1));
        assertThat(received.errors()).singleElement().isInstanceOf(CorruptedFrameException.class);
    }

    @Test
    void aBadLengthSplitAcrossReadsIsStillCaught() {
        byte[] tooLong = {0, 0, 0x10, 0};
        Received received = decode(MAX_FRAME_BYTES, List.of(slice(tooLong, 0, 2), slice(tooLong, 2, 4), frame(payload(3, 1))));

        assertThat(received.payloads()).isEmpty();
        assertThat(received.errors()).singleElement().isInstanceOf(TooLongFrameException.class);
    }

    @Test
    void aSplitFrameStillBeingReceivedIsReleasedWhenTheChannelCloses() {
        UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(false);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_FRAME_BYTES));
        channel.config().setAllocator(allocator);
        ByteBuf start = Unpooled.wrappedBuffer(slice(frame(payload(500, 1)), 0, 100));
        channel.writeInbound(start);

        assertThat(start.refCnt()).as("the read is copied into the split frame's own buffer").isZero();
        assertThat(allocator.metric().usedHeapMemory()).isEqualTo(500);
        assertThat((Object) channel.readInbound()).isNull();

        channel.finish();

        assertThat(allocator.metric().usedHeapMemory()).isZero();
    }

    @Test
    void aSplitFrameIsReleasedWhenALaterLengthIsRejected() {
        UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(false);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_FRAME_BYTES));
        channel.config().setAllocator(allocator);
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0}));
        assertThat(allocator.metric().usedHeapMemory()).isEqualTo(Frames.LENGTH_PREFIX_BYTES);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0xFF, 0})))
                .isInstanceOf(TooLongFrameException.class);

        assertThat(allocator.metric().usedHeapMemory()).isZero();
        channel.finish();
    }

    @Test
    void framesFromOneReadAreSlicesThatKeepTheReadAliveUntilReleased() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_FRAME_BYTES));
        ByteBuf read = Unpooled.wrappedBuffer(concat(frame(payload(10, 1)), frame(payload(10, 2))));
        channel.writeInbound(read);

        ByteBuf first = channel.readInbound();
        ByteBuf second = channel.readInbound();
        assertThat(read.refCnt()).isEqualTo(2);
        first.release();
        second.release();
        assertThat(read.refCnt()).isZero();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aLimitSmallerThanTheLengthPrefixIsRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException().isThrownBy(() -> new FrameDecoder(3))
                .withMessageContaining("at least 4");
    }

    /** What a decoder passed on and reported for a sequence of reads. */
    private record Received(List<byte[]> payloads, List<Throwable> errors) {
    }

    private static Received decode(int maxFrameBytes, List<byte[]> reads) {
        List<byte[]> payloads = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(maxFrameBytes), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf frame = (ByteBuf) msg;
                byte[] bytes = new byte[frame.readableBytes()];
                frame.readBytes(bytes);
                frame.release();
                payloads.add(bytes);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause);
            }
        });
        List<ByteBuf> buffers = new ArrayList<>();
        for (byte[] read : reads) {
            if (read.length == 0) {
                continue; // the shared empty buffer is never released
            }
            ByteBuf buffer = Unpooled.wrappedBuffer(read);
            buffers.add(buffer);
            channel.writeInbound(buffer);
        }
        channel.finish();
        assertThat(buffers).as("every read is released").allSatisfy(buffer -> assertThat(buffer.refCnt()).isZero());
        return new Received(payloads, errors);
    }

    private static List<byte[]> pieces(byte[] bytes, java.util.function.IntSupplier pieceLength) {
        List<byte[]> pieces = new ArrayList<>();
        int at = 0;
        while (at < bytes.length) {
            int end = Math.min(bytes.length, at + pieceLength.getAsInt());
            pieces.add(slice(bytes, at, end));
            at = end;
        }
        return pieces;
    }

    private static byte[] payload(int length, int seed) {
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (seed * 31 + i);
        }
        return payload;
    }

    private static byte[] frame(byte[] payload) {
        ByteBuf buf = Unpooled.buffer();
        buf.writeInt(payload.length).writeBytes(payload);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] slice(byte[] bytes, int from, int to) {
        return java.util.Arrays.copyOfRange(bytes, from, to);
    }
}
