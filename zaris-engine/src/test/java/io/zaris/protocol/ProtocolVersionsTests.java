package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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
        assertThat(ProtocolVersions.negotiate(2, 3)).isEqualTo(2);
        assertThat(ProtocolVersions.negotiate(3, 2)).isEqualTo(2);
        assertThat(ProtocolVersions.negotiate(3, 3)).isEqualTo(3);
        assertThat(ProtocolVersions.negotiate(200, 3)).isEqualTo(3);
    }

    @Test
    void offerOlderThanTheOldestSupportedIsRefusedNamingIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> ProtocolVersions.negotiate(1, 3))
                .withMessage("protocol version 1 is not supported; this node speaks 2 to 3");
    }

    @Test
    void answerMustBeSupportedAndNoNewerThanTheOffer() {
        assertThat(ProtocolVersions.checkAnswer(2, 3)).isEqualTo(2);
        assertThat(ProtocolVersions.checkAnswer(3, 3)).isEqualTo(3);
        assertThatIllegalArgumentException().isThrownBy(() -> ProtocolVersions.checkAnswer(3, 2))
                .withMessageContaining("answered protocol version 3 to an offer of 2");
        assertThatIllegalArgumentException().isThrownBy(() -> ProtocolVersions.checkAnswer(1, 3))
                .withMessageContaining("answered protocol version 1");
    }

    @Test
    void eachFrameBelongsToTheVersionThatIntroducedIt() {
        for (OpCode op : OpCode.values()) {
            assertThat(ProtocolVersions.knows(3, op)).as("%s in version 3", op).isTrue();
            assertThat(ProtocolVersions.knows(2, op)).as("%s in version 2", op).isEqualTo(op != OpCode.ADVANCE_EPOCH);
            assertThat(ProtocolVersions.knows(1, op)).as("%s in version 1", op)
                    .isEqualTo(op != OpCode.REPLICATE_BATCH && op != OpCode.SEGMENT_DIGESTS && op != OpCode.ADVANCE_EPOCH);
        }
    }

    @Test
    void spokenVersionIsTheCurrentOneUnlessThePropertySaysOtherwise() {
        assertThat(ProtocolVersions.spoken()).isEqualTo(ProtocolVersions.CURRENT);
        System.setProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY, "2");
        assertThat(ProtocolVersions.spoken()).isEqualTo(2);
    }

    @Test
    void spokenVersionOutsideTheSupportedRangeOrNotANumberIsRefused() {
        System.setProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY, "4");
        assertThatIllegalArgumentException().isThrownBy(ProtocolVersions::spoken)
                .withMessage("zaris.protocol.speak-version must be a protocol version from 2 to 3, was 4");
        System.setProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY, "one");
        assertThatIllegalArgumentException().isThrownBy(ProtocolVersions::spoken)
                .withMessage("zaris.protocol.speak-version must be a protocol version from 2 to 3, was 'one'");
    }
}
