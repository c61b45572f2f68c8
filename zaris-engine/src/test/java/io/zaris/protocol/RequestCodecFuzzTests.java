package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.KvStatus;
import org.junit.jupiter.api.Test;

/**
 * Feeds the native request decoder tens of thousands of random and mutated frames. Whatever the bytes, the
 * decoder either returns a request or throws {@link MalformedRequestException} with a request-error status;
 * no other exception may escape, and it never reads past the frame.
 */
class RequestCodecFuzzTests {

    private static final ProtocolLimits LIMITS = new ProtocolLimits(4096, 64, 512, 16);
    private static final long SEED = 0x5A415249L;
    private static final int FRAMES = 50_000;

    @Test
    void mutatedFramesDecodeOrFailWithATypedError() {
        FrameFuzz fuzz = new FrameFuzz(SEED);
        int decoded = 0;
        int rejected = 0;
        for (int i = 0; i < FRAMES; i++) {
            byte[] payload = fuzz.nextPayload();
            ByteBuf in = Unpooled.wrappedBuffer(payload);
            try {
                RequestCodec.Envelope envelope = RequestCodec.decode(in, LIMITS);
                assertThat(envelope.request()).isNotNull();
                assertThat(in.isReadable()).as("decoder left trailing bytes unread").isFalse();
                decoded++;
            } catch (MalformedRequestException e) {
                assertThat(e.status()).isIn(KvStatus.BAD_REQUEST, KvStatus.TOO_LARGE);
                assertThat(e.getMessage()).isNotBlank();
                rejected++;
            } catch (RuntimeException e) {
                fail("seed " + SEED + ", frame " + i + ": " + e + " escaped the decoder", e);
            }
        }
        // Both outcomes must be well represented, or the fuzzer is not exercising the decoder.
        assertThat(decoded).isGreaterThan(FRAMES / 20);
        assertThat(rejected).isGreaterThan(FRAMES / 4);
    }

    @Test
    void everyValidFrameRoundTripsToTheSameBytes() throws Exception {
        FrameFuzz fuzz = new FrameFuzz(SEED + 1);
        for (int i = 0; i < 5_000; i++) {
            byte[] payload = fuzz.validPayload();
            RequestCodec.Envelope envelope = RequestCodec.decode(Unpooled.wrappedBuffer(payload), ProtocolLimits.defaults());
            ByteBuf again = Unpooled.buffer();
            RequestCodec.encode(envelope.request(), envelope.routedEpoch(), envelope.deadlineMillis(), again);
            byte[] reencoded = new byte[again.readableBytes()];
            again.readBytes(reencoded);
            assertThat(reencoded).as("frame %d (%s)", i, envelope.request().op()).isEqualTo(payload);
        }
    }

    @Test
    void emptyMultiPutIsABadRequestNotAnEmptyBatch() {
        ByteBuf buf = Unpooled.buffer();
        RequestCodec.encode(new Request.MultiPut(5, java.util.List.of(), java.util.List.of(), 0), buf);
        assertThatThrownBy(() -> RequestCodec.decode(buf, LIMITS))
                .isInstanceOfSatisfying(MalformedRequestException.class, e -> {
                    assertThat(e.status()).isEqualTo(KvStatus.BAD_REQUEST);
                    assertThat(e.requestId()).isEqualTo(5);
                })
                .hasMessageContaining("without keys");
    }

    @Test
    void authFrameKeepsThePasswordOutOfItsDescription() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        RequestCodec.encode(new Request.Auth(3, "app", "s3cret".getBytes(java.nio.charset.StandardCharsets.UTF_8)), buf);
        Request decoded = RequestCodec.decode(buf, LIMITS).request();
        assertThat(decoded).isInstanceOfSatisfying(Request.Auth.class, auth -> {
            assertThat(auth.user()).isEqualTo("app");
            assertThat(new String(auth.password(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("s3cret");
        });
        assertThat(decoded.toString()).doesNotContain("s3cret");
    }
}
