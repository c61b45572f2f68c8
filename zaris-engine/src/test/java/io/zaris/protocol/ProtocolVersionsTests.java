package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.zaris.model.HashOp;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ProtocolVersionsTests {

    @AfterEach
    void clearProperty() {
        System.clearProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY);
    }

    @Test
    void negotiationTakesTheLowerOfTheOfferAndWhatTheNodeSpeaks() {
        assertThat(ProtocolVersions.negotiate(3, 4)).isEqualTo(3);
        assertThat(ProtocolVersions.negotiate(4, 3)).isEqualTo(3);
        assertThat(ProtocolVersions.negotiate(4, 4)).isEqualTo(4);
        assertThat(ProtocolVersions.negotiate(200, 4)).isEqualTo(4);
    }

    @Test
    void offerOlderThanTheOldestSupportedIsRefusedNamingIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> ProtocolVersions.negotiate(2, 4))
                .withMessage("protocol version 2 is not supported; this node speaks 3 to 4");
    }

    @Test
    void answerMustBeSupportedAndNoNewerThanTheOffer() {
        assertThat(ProtocolVersions.checkAnswer(3, 4)).isEqualTo(3);
        assertThat(ProtocolVersions.checkAnswer(4, 4)).isEqualTo(4);
        assertThatIllegalArgumentException().isThrownBy(() -> ProtocolVersions.checkAnswer(4, 3))
                .withMessageContaining("answered protocol version 4 to an offer of 3");
        assertThatIllegalArgumentException().isThrownBy(() -> ProtocolVersions.checkAnswer(2, 4))
                .withMessageContaining("answered protocol version 2");
    }

    @Test
    void eachFrameBelongsToTheVersionThatIntroducedIt() {
        for (OpCode op : OpCode.values()) {
            boolean sinceVersion4 = op == OpCode.HASH_READ || op == OpCode.HASH_WRITE || op == OpCode.TRACK_SEGMENT
                    || op == OpCode.PUBLISH;
            assertThat(ProtocolVersions.knows(4, op)).as("%s in version 4", op).isTrue();
            assertThat(ProtocolVersions.knows(3, op)).as("%s in version 3", op).isEqualTo(!sinceVersion4);
            assertThat(ProtocolVersions.knows(2, op)).as("%s in version 2", op)
                    .isEqualTo(!sinceVersion4 && op != OpCode.ADVANCE_EPOCH);
            assertThat(ProtocolVersions.knows(1, op)).as("%s in version 1", op).isEqualTo(!sinceVersion4
                    && op != OpCode.REPLICATE_BATCH && op != OpCode.SEGMENT_DIGESTS && op != OpCode.ADVANCE_EPOCH);
        }
    }

    @Test
    void everyCollectionOpCameNoEarlierThanItsFramesAndNoLaterThanTheCurrentVersion() {
        for (HashOp op : HashOp.values()) {
            assertThat(ProtocolVersions.introducedIn(op)).as(op.name())
                    .isBetween(ProtocolVersions.introducedIn(OpCode.HASH_READ), ProtocolVersions.CURRENT);
        }
    }

    @Test
    void aCollectionRequestIsKnownToAVersionOnlyWithItsFrameAndItsOp() {
        Request.Hash lmove = new Request.Hash(1, "a".getBytes(StandardCharsets.UTF_8), HashOp.LMOVE,
                List.of("b".getBytes(StandardCharsets.UTF_8), "LEFT".getBytes(StandardCharsets.UTF_8),
                        "RIGHT".getBytes(StandardCharsets.UTF_8)));
        assertThat(ProtocolVersions.knows(4, lmove)).isTrue();
        assertThat(ProtocolVersions.knows(3, lmove)).isFalse();
        assertThat(ProtocolVersions.lacking(3, lmove)).isEqualTo("HASH_WRITE");
        Request.Get get = new Request.Get(2, "a".getBytes(StandardCharsets.UTF_8));
        assertThat(ProtocolVersions.knows(3, get)).isTrue();
    }

    @Test
    void spokenVersionIsTheCurrentOneUnlessThePropertySaysOtherwise() {
        assertThat(ProtocolVersions.spoken()).isEqualTo(ProtocolVersions.CURRENT);
        System.setProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY, "3");
        assertThat(ProtocolVersions.spoken()).isEqualTo(3);
    }

    @Test
    void spokenVersionOutsideTheSupportedRangeOrNotANumberIsRefused() {
        System.setProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY, "5");
        assertThatIllegalArgumentException().isThrownBy(ProtocolVersions::spoken)
                .withMessage("zaris.protocol.speak-version must be a protocol version from 3 to 4, was 5");
        System.setProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY, "one");
        assertThatIllegalArgumentException().isThrownBy(ProtocolVersions::spoken)
                .withMessage("zaris.protocol.speak-version must be a protocol version from 3 to 4, was 'one'");
    }
}
