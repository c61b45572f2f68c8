package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.Change;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SegmentInvalidationsTests {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void changesEncodeToKeysAndRevisionsThatDecodeBack() {
        List<Change> changes = List.of(new Change(7, 2, bytes("a"), bytes("value"), 0),
                new Change(8, 2, bytes("bb"), null, 0));
        ByteBuf out = Unpooled.buffer();
        SegmentInvalidations.encode(out, 12, changes);

        assertThat(out.readableBytes() + 1).isEqualTo(SegmentInvalidations.encodedBytes(changes));
        SegmentInvalidations decoded = assertDecodes(out);
        assertThat(decoded.segment()).isEqualTo(12);
        assertThat(decoded.epoch()).as("the batch's epoch, for the position a client resumes from").isEqualTo(2);
        assertThat(decoded.changes()).extracting(SegmentChange::revision).containsExactly(7L, 8L);
        assertThat(decoded.changes()).extracting(SegmentChange::key).containsExactly(bytes("a"), bytes("bb"));
        assertThat(decoded.changes()).extracting(SegmentChange::removed).containsExactly(false, true);
    }

    @Test
    void aRenameInvalidatesItsSourceAsRemovedAndItsDestinationAtItsRevision() {
        List<Change> changes = List.of(Change.rename(9, 2, bytes("from"), bytes("to"), 0), new Change(10, 2, bytes("c"), null, 0));
        ByteBuf out = Unpooled.buffer();
        SegmentInvalidations.encode(out, 4, changes);

        assertThat(out.readableBytes() + 1).isEqualTo(SegmentInvalidations.encodedBytes(changes));
        SegmentInvalidations decoded = assertDecodes(out);
        assertThat(decoded.changes()).extracting(SegmentChange::revision).containsExactly(9L, 9L, 10L);
        assertThat(decoded.changes()).extracting(SegmentChange::key).containsExactly(bytes("from"), bytes("to"), bytes("c"));
        assertThat(decoded.changes()).extracting(SegmentChange::removed).containsExactly(true, false, true);
    }

    @Test
    void aCountLargerThanTheFrameIsRefusedBeforeAllocating() {
        ByteBuf out = Unpooled.buffer();
        out.writeInt(1);
        out.writeLong(2);
        out.writeInt(1_000_000);
        assertThatThrownBy(() -> SegmentInvalidations.decode(out)).isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("invalidated key count");
    }

    @Test
    void aNegativeSegmentIsRefused() {
        ByteBuf out = Unpooled.buffer();
        out.writeInt(-1);
        out.writeInt(0);
        assertThatThrownBy(() -> SegmentInvalidations.decode(out)).isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("negative segment");
    }

    @Test
    void aTruncatedKeyIsRefused() {
        ByteBuf out = Unpooled.buffer();
        out.writeInt(3);
        out.writeLong(2);
        out.writeInt(1);
        out.writeLong(5);
        out.writeByte(0);
        out.writeInt(10);
        out.writeByte(1);
        assertThatThrownBy(() -> SegmentInvalidations.decode(out)).isInstanceOf(MalformedRequestException.class);
    }

    @Test
    void aTrackAnswerEncodesAndDecodesBack() throws MalformedRequestException {
        ByteBuf out = Unpooled.buffer();
        new SegmentTrackAnswer(true, 41, 6, List.of(new SegmentChange(40, false, bytes("a")),
                new SegmentChange(41, true, bytes("bc")))).encode(out);

        SegmentTrackAnswer decoded = SegmentTrackAnswer.decode(out);
        assertThat(decoded.resumed()).isTrue();
        assertThat(decoded.revision()).isEqualTo(41);
        assertThat(decoded.epoch()).isEqualTo(6);
        assertThat(decoded.changes()).extracting(SegmentChange::key).containsExactly(bytes("a"), bytes("bc"));
        assertThat(decoded.changes()).extracting(SegmentChange::revision).containsExactly(40L, 41L);
        assertThat(decoded.changes()).extracting(SegmentChange::removed).containsExactly(false, true);
    }

    @Test
    void aTrackAnswerCutShortIsRefused() {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(0);
        out.writeLong(41);
        assertThatThrownBy(() -> SegmentTrackAnswer.decode(out)).isInstanceOf(MalformedRequestException.class);
    }

    private static SegmentInvalidations assertDecodes(ByteBuf in) {
        try {
            return SegmentInvalidations.decode(in);
        } catch (MalformedRequestException e) {
            throw new AssertionError(e);
        }
    }
}
