package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTests {

    @Test
    void nearestRankTakesTheSmallestValueWithEnoughValuesAtOrBelowIt() {
        long[] hundred = LongStream.rangeClosed(1, 100).map(v -> 101 - v).toArray(); // unsorted on purpose
        assertThat(Percentiles.nearestRank(hundred, 50)).isEqualTo(50);
        assertThat(Percentiles.nearestRank(hundred, 99)).isEqualTo(99);
        assertThat(Percentiles.nearestRank(hundred, 100)).isEqualTo(100);
        assertThat(Percentiles.nearestRank(hundred, 0.1)).isEqualTo(1);
    }

    @Test
    void aFewValuesRoundTheRankUp() {
        long[] values = {30, 10, 20};
        assertThat(Percentiles.nearestRank(values, 50)).isEqualTo(20);
        assertThat(Percentiles.nearestRank(values, 99)).isEqualTo(30);
        assertThat(Percentiles.rankIndex(512, 99)).isEqualTo(506);
        assertThat(Percentiles.rankIndex(512, 50)).isEqualTo(255);
    }

    @Test
    void noValuesGiveZeroAndTheInputIsLeftAlone() {
        assertThat(Percentiles.nearestRank(new long[0], 99)).isZero();
        long[] values = {3, 1, 2};
        Percentiles.nearestRank(values, 50);
        assertThat(values).containsExactly(3, 1, 2);
    }

    @Test
    void aPercentileOutsideZeroToHundredIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> Percentiles.nearestRank(new long[] {1}, 0));
        assertThatIllegalArgumentException().isThrownBy(() -> Percentiles.nearestRank(new long[0], 101));
    }
}
