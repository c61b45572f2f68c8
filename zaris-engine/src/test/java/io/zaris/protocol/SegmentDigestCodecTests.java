package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.SegmentDigest;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** SEGMENT_DIGESTS: the request names a partition; the answer lists one digest per segment. */
@Tag("unit")
class SegmentDigestCodecTests {

    @Test
    void theRequestRoundTripsUnderItsOwnCode() throws Exception {
        ByteBuf frame = Unpooled.buffer();
        RequestCodec.encode(new Request.SegmentDigests(12, 31), 0, 0, frame);
        assertThat((int) frame.getUnsignedByte(frame.readerIndex())).isEqualTo(0x55);
        assertThat(RequestCodec.decode(frame, ProtocolLimits.defaults()).request())
                .isEqualTo(new Request.SegmentDigests(12, 31));
        assertThat(OpCode.SEGMENT_DIGESTS.isWrite()).isFalse();
    }

    @Test
    void digestsRoundTripInOrder() throws Exception {
        List<SegmentDigest> digests = List.of(new SegmentDigest(16, 3, 90, -7L), new SegmentDigest(17, 0, 0, 0));
        ByteBuf out = Unpooled.buffer();
        SegmentDigestCodec.encodeAll(digests, out);
        assertThat(SegmentDigestCodec.decodeAll(out)).isEqualTo(digests);
        assertThat(out.readableBytes()).isZero();
    }

    @Test
    void aCountLargerThanTheBodyIsRefusedBeforeAllocating() {
        ByteBuf out = Unpooled.buffer().writeInt(1_000_000).writeInt(1);
        assertThatThrownBy(() -> SegmentDigestCodec.decodeAll(out)).isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("segment digest count");
    }

    @Test
    void contentIsComparedByKeysAndDigestNotRevision() {
        SegmentDigest copy = new SegmentDigest(4, 10, 100, 55);
        assertThat(copy.sameContentAs(new SegmentDigest(4, 10, 99, 55))).isTrue();
        assertThat(copy.sameContentAs(new SegmentDigest(4, 10, 100, 56))).isFalse();
        assertThat(copy.sameContentAs(new SegmentDigest(4, 9, 100, 55))).isFalse();
    }
}
