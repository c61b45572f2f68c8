package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.ResponseCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A GET's value written from a slice of the engine's response: the same bytes as from an array, nothing moved; integers
 * and lengths written digit by digit read as Java prints them, at every width and sign; and the replies whose form
 * depends on the protocol (sorted-set scores and pairs).
 */
@Tag("unit")
class RespWriterTests {

    @Test
    void integersAndLengthsAreWrittenInDecimalAtEveryWidthAndSign() {
        long[] values = {0, 1, -1, 9, 10, -10, 99, 100, 12345, Integer.MAX_VALUE, Integer.MIN_VALUE, 1_000_000_000_000L,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        for (long value : values) {
            ByteBuf out = Unpooled.buffer(1);
            RespWriter.write(new RespReply.Int(value), 2, out);
            assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo(":" + value + "\r\n");
        }
        ByteBuf out = Unpooled.buffer(1);
        RespWriter.write(RespReply.array(java.util.List.of(new RespReply.Bulk(new byte[12]), RespReply.NULL)), 2, out);
        RespWriter.write(RespReply.NULL, 3, out);
        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("*2\r\n$12\r\n" + "\0".repeat(12) + "\r\n$-1\r\n_\r\n");
    }

    @Test
    void aSlicedBulkIsWrittenLikeAnArrayBulkAndItsSliceIsLeftAsItWas() throws MalformedRequestException {
        byte[] value = new byte[10 * 1024];
        Arrays.fill(value, (byte) 'v');
        value[0] = '\r';
        ByteBuf response = Unpooled.buffer(16);
        ResponseCodec.writeValue(response, value, 0, value.length, 7, -1);
        ByteBuf slice = ResponseCodec.readValueSlice(response);

        ByteBuf fromSlice = Unpooled.buffer();
        ByteBuf fromArray = Unpooled.buffer();
        RespWriter.write(new RespReply.BufferBulk(slice), 2, fromSlice);
        RespWriter.write(new RespReply.BufferBulk(slice), 2, fromSlice);
        RespWriter.write(new RespReply.Bulk(value), 2, fromArray);
        RespWriter.write(new RespReply.Bulk(value), 2, fromArray);

        assertThat(fromSlice).isEqualTo(fromArray);
        assertThat(fromSlice.toString(0, 8, StandardCharsets.US_ASCII)).isEqualTo("$10240\r\n");
        assertThat(slice.readableBytes()).isEqualTo(value.length);
        assertThat(response.readableBytes()).isZero();
    }

    @Test
    void aScoreIsABulkStringInResp2AndADoubleInResp3() {
        RespReply score = new RespReply.Score("-inf".getBytes(StandardCharsets.US_ASCII));

        assertThat(written(score, 2)).isEqualTo("$4\r\n-inf\r\n");
        assertThat(written(score, 3)).isEqualTo(",-inf\r\n");
    }

    @Test
    void pairsAreFlatInResp2AndNestedInResp3() {
        RespReply pairs = new RespReply.Pairs(java.util.List.of(RespReply.bulk("a"),
                new RespReply.Score("1.5".getBytes(StandardCharsets.US_ASCII)), RespReply.bulk("b"),
                new RespReply.Score("2".getBytes(StandardCharsets.US_ASCII))));

        assertThat(written(pairs, 2)).isEqualTo("*4\r\n$1\r\na\r\n$3\r\n1.5\r\n$1\r\nb\r\n$1\r\n2\r\n");
        assertThat(written(pairs, 3)).isEqualTo("*2\r\n*2\r\n$1\r\na\r\n,1.5\r\n*2\r\n$1\r\nb\r\n,2\r\n");
        assertThatThrownBy(() -> new RespReply.Pairs(java.util.List.of(RespReply.bulk("odd"))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pairsWrittenFromTheEngineAnswerReadAsPairsOfCopiedItemsAndTheAnswerIsLeftAsItWas()
            throws MalformedRequestException {
        java.util.List<byte[]> items = java.util.List.of(bytes("a"), bytes("1.5"), bytes(""), bytes("-inf"),
                bytes("member\r\n"), bytes("2"));
        ByteBuf body = Unpooled.buffer(8);
        ResponseCodec.writeHashAnswer(body, 0, items);
        int readable = body.readableBytes();

        for (boolean withScores : new boolean[] {true, false}) {
            RespReply rendered = RespReply.ItemPairs.of(body.duplicate(), withScores);
            java.util.List<RespReply> copied = new java.util.ArrayList<>();
            for (int i = 0; i < items.size(); i += 2) {
                copied.add(new RespReply.Bulk(items.get(i)));
                if (withScores) {
                    copied.add(new RespReply.Score(items.get(i + 1)));
                }
            }
            RespReply expected = withScores ? new RespReply.Pairs(copied) : RespReply.array(copied);
            for (int protocol : new int[] {2, 3}) {
                assertThat(written(rendered, protocol)).isEqualTo(written(expected, protocol));
                assertThat(written(rendered, protocol)).isEqualTo(written(expected, protocol)); // written twice alike
            }
        }
        assertThat(body.readableBytes()).isEqualTo(readable);
        ByteBuf empty = Unpooled.buffer(8);
        ResponseCodec.writeHashAnswer(empty, 0, java.util.List.of());
        assertThat(written(RespReply.ItemPairs.of(empty, true), 3)).isEqualTo("*0\r\n");
    }

    /**
     * A short answer is rendered in the writer's scratch array, a long one (or one not in a heap buffer) item by item
     * into the output: the bytes are the same either way, and the same as the copied replies', in RESP2 and RESP3.
     */
    @Test
    void pairsLongerThanTheScratchArrayOrOutsideAHeapBufferAreWrittenAlike() throws MalformedRequestException {
        byte[] big = new byte[RespWriter.SCRATCH_BYTES];
        java.util.Arrays.fill(big, (byte) 'm');
        java.util.List<java.util.List<byte[]>> answers = java.util.List.of(
                java.util.List.of(bytes("a"), bytes("1"), big, bytes("12345678901"), bytes("c"), bytes("-2.5")),
                java.util.List.of(bytes("0123456789"), bytes("1e+300"), bytes("z"), bytes("0")));
        for (java.util.List<byte[]> items : answers) {
            for (boolean direct : new boolean[] {false, true}) {
                ByteBuf body = direct ? Unpooled.directBuffer(8) : Unpooled.buffer(8);
                ResponseCodec.writeHashAnswer(body, 0, items);
                for (boolean withScores : new boolean[] {true, false}) {
                    java.util.List<RespReply> copied = new java.util.ArrayList<>();
                    for (int i = 0; i < items.size(); i += 2) {
                        copied.add(new RespReply.Bulk(items.get(i)));
                        if (withScores) {
                            copied.add(new RespReply.Score(items.get(i + 1)));
                        }
                    }
                    RespReply expected = withScores ? new RespReply.Pairs(copied) : RespReply.array(copied);
                    RespReply rendered = RespReply.ItemPairs.of(body.duplicate(), withScores);
                    for (int protocol : new int[] {2, 3}) {
                        assertThat(written(rendered, protocol)).as("direct %s, scores %s, RESP%d", direct, withScores, protocol)
                                .isEqualTo(written(expected, protocol));
                    }
                }
                body.release();
            }
        }
    }

    @Test
    void anAnswerWithAnAbsentOrCutOffItemIsRefusedBeforeItIsWritten() {
        ByteBuf absent = Unpooled.buffer(8);
        ResponseCodec.writeHashAnswer(absent, 0, java.util.Arrays.asList(bytes("a"), null));
        assertThatThrownBy(() -> RespReply.ItemPairs.of(absent, true)).isInstanceOf(MalformedRequestException.class);

        ByteBuf whole = Unpooled.buffer(8);
        ResponseCodec.writeHashAnswer(whole, 0, java.util.List.of(bytes("member"), bytes("12")));
        ByteBuf cut = whole.slice(0, whole.readableBytes() - 1);
        assertThatThrownBy(() -> RespReply.ItemPairs.of(cut, true)).isInstanceOf(MalformedRequestException.class);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String written(RespReply reply, int protocol) {
        ByteBuf out = Unpooled.buffer();
        RespWriter.write(reply, protocol, out);
        return out.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void aResponseShorterThanItsValueLengthIsMalformed() {
        ByteBuf response = Unpooled.buffer();
        response.writeLong(1).writeLong(-1).writeInt(100).writeBytes(new byte[99]);

        assertThatThrownBy(() -> ResponseCodec.readValueSlice(response)).isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("value of 100 bytes in a response with 99 left");
    }

    @Test
    void aPushIsARESP3PushAndAnArrayInRESP2() {
        RespReply push = new RespReply.Push(java.util.List.of(RespReply.bulk("invalidate"),
                RespReply.array(java.util.List.of(RespReply.bulk("k")))));
        ByteBuf resp3 = Unpooled.buffer();
        ByteBuf resp2 = Unpooled.buffer();
        RespWriter.write(push, 3, resp3);
        RespWriter.write(push, 2, resp2);
        RespWriter.write(new RespReply.Push(java.util.List.of(RespReply.bulk("invalidate"), RespReply.NULL)), 3, resp3);

        assertThat(resp3.toString(StandardCharsets.US_ASCII))
                .isEqualTo(">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n>2\r\n$10\r\ninvalidate\r\n_\r\n");
        assertThat(resp2.toString(StandardCharsets.US_ASCII)).isEqualTo("*2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n");
        assertThatThrownBy(() -> new RespReply.Push(java.util.List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
