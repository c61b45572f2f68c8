package io.zaris.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The DUMP payload format: every type round-trips, and RESTORE's two refusals tell a bad trailer from a bad body. */
@Tag("unit")
class DumpPayloadTests {

    private static byte[] b(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyTypeRoundTripsElementForElement() throws Exception {
        List<KeyContent> contents = List.of(
                new KeyContent(KeyContent.Type.STRING, List.of(b(""))),
                new KeyContent(KeyContent.Type.HASH, List.of(b("f"), b("v"), b("g"), b(""))),
                new KeyContent(KeyContent.Type.LIST, List.of(b("x"), b("x"), b("\r\n\0"))),
                new KeyContent(KeyContent.Type.SET, List.of(b("m"))),
                new KeyContent(KeyContent.Type.SORTED_SET, List.of(b("a"), SortedSetScores.encode(-1.5))));
        for (KeyContent content : contents) {
            KeyContent back = DumpPayload.decode(DumpPayload.encode(content));
            assertThat(back.type()).isEqualTo(content.type());
            assertThat(back.elements()).usingRecursiveFieldByFieldElementComparator().isEqualTo(content.elements());
        }
    }

    @Test
    void anyChangedByteOrAnotherVersionIsAWrongTrailer() {
        byte[] payload = DumpPayload.encode(new KeyContent(KeyContent.Type.HASH, List.of(b("field"), b("value"))));
        for (int i = 0; i < payload.length; i++) {
            byte[] damaged = payload.clone();
            damaged[i] ^= 0x10;
            assertThatThrownBy(() -> DumpPayload.decode(damaged)).as("byte %d", i)
                    .isInstanceOfSatisfying(DumpPayload.InvalidPayloadException.class, e -> assertThat(e.trailer()).isTrue());
        }
        assertThatThrownBy(() -> DumpPayload.decode(b("short")))
                .isInstanceOfSatisfying(DumpPayload.InvalidPayloadException.class, e -> assertThat(e.trailer()).isTrue());
        assertThatThrownBy(() -> DumpPayload.decode(sealed(new byte[] {0, 0, 0, 0, 1, 0, 0, 0, 0}, DumpPayload.VERSION + 1)))
                .isInstanceOfSatisfying(DumpPayload.InvalidPayloadException.class, e -> assertThat(e.trailer()).isTrue());
    }

    @Test
    void aBodyThatDescribesNoValueIsABadFormatEvenWithARightTrailer() {
        List<byte[]> bodies = List.of(
                new byte[] {9, 0, 0, 0, 1, 0, 0, 0, 0},           // unknown type
                new byte[] {0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0}, // a string of two elements
                new byte[] {3, 0, 0, 0, 0},                        // an empty set
                new byte[] {1, 0, 0, 0, 1, 0, 0, 0, 0},           // a hash field without a value
                new byte[] {4, 0, 0, 0, 2, 0, 0, 0, 1, 'a', 0, 0, 0, 1, 'x'}, // a score that is not 8 bytes
                new byte[] {0, 0, 0, 0, 1, 0, 0, 0, 5, 'a'},      // an element longer than the body
                new byte[] {0, 0x7f, 0, 0, 0});                     // a count the body cannot hold
        for (byte[] body : bodies) {
            assertThatThrownBy(() -> DumpPayload.decode(sealed(body, DumpPayload.VERSION)))
                    .isInstanceOfSatisfying(DumpPayload.InvalidPayloadException.class, e -> assertThat(e.trailer()).isFalse());
        }
    }

    /** {@code body} with a version and a right CRC-32C appended. */
    private static byte[] sealed(byte[] body, int version) {
        ByteBuffer out = ByteBuffer.allocate(body.length + 6);
        out.put(body).putShort((short) version);
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        return out.array();
    }
}
