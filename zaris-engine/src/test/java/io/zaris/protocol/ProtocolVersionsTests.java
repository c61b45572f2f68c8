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
        assertThat(ProtocolVersions.negotiate(1, 2)).isEqualTo(1);
        assertThat(ProtocolVersions.negotiate(2, 1)).isEqualTo(1);
        assertThat(ProtocolVersions.negotiate(2, 2)).isEqualTo(2);
        assertThat(ProtocolVersions.negotiate(200, 2)).isEqualTo(2);
    }

    @Test
    void offerOlderThanTheOldestSupportedIsRefusedNamingIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> ProtocolVersions.negotiate(0, 2))
                .withMessage("protocol version 0 is not supported; this node speaks 1 to 2");
    }

    @Test
    void answerMustBeSupportedAndNoNewerThanTheOffer() {
        assertThat(ProtocolVersions.checkAnswer(1, 2)).isEqualTo(1);
        assertThat(ProtocolVersions.checkAnswer(2, 2)).isEqualTo(2);
        assertThatIllegalArgumentException().isThrownBy(() -> ProtocolVersions.checkAnswer(2, 1))
                .withMessageContaining("answered protocol version 2 to an offer of 1");
        assertThatIllegalArgumentException().isThrownBy(() -> ProtocolVersions.checkAnswer(0, 2))
                .withMessageContaining("answered protocol version 0");
    }

    @Test
    void onlyReplicateBatchAndSegmentDigestsAreNewInVersionTwo() {
        for (OpCode op : OpCode.values()) {
            assertThat(ProtocolVersions.knows(2, op)).as("%s in version 2", op).isTrue();
            assertThat(ProtocolVersions.knows(1, op)).as("%s in version 1", op)
                    .isEqualTo(op != OpCode.REPLICATE_BATCH && op != OpCode.SEGMENT_DIGESTS);
        }
    }

    @Test
    void spokenVersionIsTheCurrentOneUnlessThePropertySaysOtherwise() {
        assertThat(ProtocolVersions.spoken()).isEqualTo(ProtocolVersions.CURRENT);
        System.setProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY, "1");
        assertThat(ProtocolVersions.spoken()).isEqualTo(1);
    }

    @Test
    void spokenVersionOutsideTheSupportedRangeOrNotANumberIsRefused() {
        System.setProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY, "3");
        assertThatIllegalArgumentException().isThrownBy(ProtocolVersions::spoken)
                .withMessage("zaris.protocol.speak-version must be a protocol version from 1 to 2, was 3");
        System.setProperty(ProtocolVersions.SPEAK_VERSION_PROPERTY, "one");
        assertThatIllegalArgumentException().isThrownBy(ProtocolVersions::spoken)
                .withMessage("zaris.protocol.speak-version must be a protocol version from 1 to 2, was 'one'");
    }
}
