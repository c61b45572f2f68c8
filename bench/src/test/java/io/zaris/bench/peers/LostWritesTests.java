package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class LostWritesTests {

    @Test
    void aKeyReadBackBehindItsLastAcknowledgedWriteLostTheDifference() {
        long[] acknowledged = {10, 10, 10, 7};
        long[] readBack = {10, 8, 12, SequenceValue.ABSENT};
        assertThat(LostWrites.count(acknowledged, readBack)).isEqualTo(new LostWrites(2, 2 + 7, 0));
    }

    @Test
    void aKeyNeverAcknowledgedLosesNothingAndAnUnreadableKeyIsNotJudged() {
        long[] acknowledged = {0, 5};
        long[] readBack = {SequenceValue.ABSENT, LostWrites.UNREADABLE};
        assertThat(LostWrites.count(acknowledged, readBack)).isEqualTo(new LostWrites(0, 0, 1));
    }

    @Test
    void bothSidesMustCoverTheSameKeys() {
        assertThatIllegalArgumentException().isThrownBy(() -> LostWrites.count(new long[2], new long[3]));
    }
}
