package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.KvStatus;
import org.junit.jupiter.api.Test;

/** The operator commands' frames: a bare header under their own op codes. */
class AdminRequestCodecTests {

    private static final ProtocolLimits LIMITS = ProtocolLimits.defaults();

    @Test
    void drainAndRebalanceHaveTheirOwnCodesAndNoBody() throws Exception {
        ByteBuf drain = encode(new Request.AdminDrain(41));
        assertThat((int) drain.getUnsignedByte(drain.readerIndex())).isEqualTo(0x60);
        assertThat(drain.readableBytes()).isEqualTo(RequestCodec.HEADER_BYTES);
        assertThat(RequestCodec.decode(drain, LIMITS).request())
                .isInstanceOfSatisfying(Request.AdminDrain.class, request -> assertThat(request.id()).isEqualTo(41));

        ByteBuf rebalance = encode(new Request.AdminRebalance(42));
        assertThat((int) rebalance.getUnsignedByte(rebalance.readerIndex())).isEqualTo(0x61);
        assertThat(rebalance.readableBytes()).isEqualTo(RequestCodec.HEADER_BYTES);
        assertThat(RequestCodec.decode(rebalance, LIMITS).request())
                .isInstanceOfSatisfying(Request.AdminRebalance.class, request -> assertThat(request.id()).isEqualTo(42));
    }

    @Test
    void opCodesDecodeFromTheirBytesAndAreNotDataWrites() {
        assertThat(OpCode.fromCode(0x60)).isEqualTo(OpCode.ADMIN_DRAIN);
        assertThat(OpCode.fromCode(0x61)).isEqualTo(OpCode.ADMIN_REBALANCE);
        // Not routed to an active owner: they are answered by whichever node receives them.
        assertThat(OpCode.ADMIN_DRAIN.isWrite()).isFalse();
        assertThat(OpCode.ADMIN_REBALANCE.isWrite()).isFalse();
    }

    @Test
    void headerFieldsSurviveTheRoundTrip() throws Exception {
        ByteBuf frame = Unpooled.buffer();
        RequestCodec.encode(new Request.AdminRebalance(9), 0, 2_500, frame);
        RequestCodec.Envelope envelope = RequestCodec.decode(frame, LIMITS);
        assertThat(envelope.request()).isEqualTo(new Request.AdminRebalance(9));
        assertThat(envelope.deadlineMillis()).isEqualTo(2_500);
    }

    @Test
    void aBodyAfterAnAdminHeaderIsRejectedWithTheRequestId() {
        ByteBuf frame = encode(new Request.AdminDrain(77)).writeInt(1);
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS))
                .isInstanceOfSatisfying(MalformedRequestException.class, e -> {
                    assertThat(e.requestId()).isEqualTo(77);
                    assertThat(e.status()).isEqualTo(KvStatus.BAD_REQUEST);
                })
                .hasMessageContaining("trailing bytes after ADMIN_DRAIN");
    }

    private static ByteBuf encode(Request request) {
        ByteBuf buf = Unpooled.buffer();
        RequestCodec.encode(request, buf);
        return buf;
    }
}
