package io.zaris.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SortedSetScoresTests {

    /** Each case as a real Redis 7.0 answered it (ZADD, then ZSCORE; null where ZADD said "not a valid float"). */
    @Test
    void readsHexadecimalScoresAsStrtodDoes() {
        assertThat(score("0x10")).isEqualTo(16.0);
        assertThat(score("0X1.8p1")).isEqualTo(3.0);
        assertThat(score("-0x.8")).isEqualTo(-0.5);
        assertThat(score("+0x10")).isEqualTo(16.0);
        assertThat(score("0x1P+2")).isEqualTo(4.0);
        assertThat(score("0x1e")).as("e is a digit, not an exponent").isEqualTo(30.0);
        assertThat(score("0x1p-1074")).as("the least subnormal").isEqualTo(Double.MIN_VALUE);
        assertThat(score("0x0p5")).isEqualTo(0.0);
        for (String refused : new String[] {"0x", "0x.", "0x1p", "0xg", "0x1p2000", "0x1p-2000", " 0x10", "0x1.8q", "0x1p+"}) {
            assertThat(score(refused)).as(refused).isNull();
        }
        assertThat(SortedSetScores.parseBound("0x10")).isEqualTo(16.0);
        assertThat(SortedSetScores.parseBound(" 0x1p2000")).as("a bound may overflow").isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(SortedSetScores.parseBound("0x")).isNull();
    }

    private static Double score(String text) {
        return SortedSetScores.parse(text.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void formatsAsCPercentSeventeenG() {
        assertThat(SortedSetScores.format(3)).isEqualTo("3");
        assertThat(SortedSetScores.format(-2.5)).isEqualTo("-2.5");
        assertThat(SortedSetScores.format(0.1)).isEqualTo("0.10000000000000001");
        assertThat(SortedSetScores.format(1e20)).isEqualTo("1e+20");
        assertThat(SortedSetScores.format(1e16)).isEqualTo("10000000000000000");
        assertThat(SortedSetScores.format(1e17)).isEqualTo("1e+17");
        assertThat(SortedSetScores.format(0.0001)).isEqualTo("0.0001");
        assertThat(SortedSetScores.format(0.00001)).isEqualTo("1.0000000000000001e-05");
        assertThat(SortedSetScores.format(1.5e-7)).isEqualTo("1.4999999999999999e-07");
        assertThat(SortedSetScores.format(-1e300)).isEqualTo("-1.0000000000000001e+300");
        assertThat(SortedSetScores.format(Double.POSITIVE_INFINITY)).isEqualTo("inf");
        assertThat(SortedSetScores.format(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
        assertThat(SortedSetScores.format(-0.0)).isEqualTo("-0");
        assertThat(SortedSetScores.format(0.0)).isEqualTo("0");
    }

    @Test
    void integralScoresPrintTheirDigitsOnBothSidesOfTwoToTheFiftyThree() {
        assertThat(SortedSetScores.format(9007199254740991.0)).isEqualTo("9007199254740991");
        assertThat(SortedSetScores.format(-9007199254740991.0)).isEqualTo("-9007199254740991");
        assertThat(SortedSetScores.format(0x1p53)).as("the general path").isEqualTo("9007199254740992");
        assertThat(SortedSetScores.format(123456789012345680.0)).as("18 digits: %.17g's exponent form")
                .isEqualTo("1.2345678901234568e+17");
        assertThat(SortedSetScores.format(-7)).isEqualTo("-7");
        for (double score : new double[] {1, -1, 9, 10, -10, 99999, 1e15, -1e15, 4503599627370497.0, 0x1p53 - 1,
                -0.0, 0.0, 2.5, 0x1p53, 1e300}) {
            assertThat(new String(SortedSetScores.formatBytes(score), StandardCharsets.US_ASCII)).as("%s", score)
                    .isEqualTo(SortedSetScores.format(score));
        }
    }

    @Test
    void plainIntegersReadAsStrtodReadsThem() {
        assertThat(SortedSetScores.parse(b("42"))).isEqualTo(42.0);
        assertThat(SortedSetScores.parse(b("-42"))).isEqualTo(-42.0);
        assertThat(SortedSetScores.parse(b("0012"))).isEqualTo(12.0);
        assertThat(SortedSetScores.parse(b("-0"))).as("negative zero").isEqualTo(-0.0)
                .matches(score -> 1 / score < 0);
        assertThat(SortedSetScores.parse(b("999999999999999"))).isEqualTo(999999999999999.0);
        assertThat(SortedSetScores.parse(b("12345678901234567890"))).as("20 digits, the general path")
                .isEqualTo(12345678901234567890.0);
        assertThat(SortedSetScores.parse(b("+5"))).isEqualTo(5.0);
        assertThat(SortedSetScores.parse(b("-"))).isNull();
        assertThat(SortedSetScores.parse(b("--1"))).isNull();
        assertThat(SortedSetScores.parse(b("1-"))).isNull();
    }

    @Test
    void parsesScoresAsZaddDoes() {
        assertThat(SortedSetScores.parse(b("1.5"))).isEqualTo(1.5);
        assertThat(SortedSetScores.parse(b("+inf"))).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(SortedSetScores.parse(b("-Infinity"))).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(SortedSetScores.parse(b(".5e1"))).isEqualTo(5.0);
        assertThat(SortedSetScores.parse(b("1."))).isEqualTo(1.0);
        assertThat(SortedSetScores.parse(b("0e5"))).isEqualTo(0.0);
        assertThat(SortedSetScores.parse(b("nan"))).isNull();
        assertThat(SortedSetScores.parse(b(""))).isNull();
        assertThat(SortedSetScores.parse(b(" 1"))).isNull();
        assertThat(SortedSetScores.parse(b("1 "))).isNull();
        assertThat(SortedSetScores.parse(b("1e400"))).as("overflow").isNull();
        assertThat(SortedSetScores.parse(b("1e-400"))).as("underflow to zero").isNull();
        assertThat(SortedSetScores.parse(b("1d"))).isNull();
        assertThat(SortedSetScores.parse(b("."))).isNull();
    }

    @Test
    void boundsReadAsStrtodAlone() {
        assertThat(SortedSetScores.parseBound("")).isEqualTo(0.0);
        assertThat(SortedSetScores.parseBound(" 5")).isEqualTo(5.0);
        assertThat(SortedSetScores.parseBound(" ")).isNull();
        assertThat(SortedSetScores.parseBound("1e400")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(SortedSetScores.parseBound("nan")).isNull();
        ScoreRange range = ScoreRange.parse(b("(1"), b("+inf"));
        assertThat(range.contains(1)).isFalse();
        assertThat(range.contains(1.0000001)).isTrue();
        assertThat(ScoreRange.parse(b("(x"), b("1"))).isNull();
    }

    @Test
    void scoresTravelAsTheirEightBytes() {
        assertThat(SortedSetScores.decode(SortedSetScores.encode(-0.0))).isEqualTo(-0.0);
        assertThat(SortedSetScores.encode(0.1)).hasSize(8);
    }

    /** The stored and replicated bytes are the big-endian IEEE 754 bits that ByteBuffer.putDouble wrote before. */
    @Test
    void scoreBytesAreBigEndianIeeeBits() {
        double[] scores = {0.0, -0.0, 1.0, -1.5, 0.1, 123456789.0, -3.25e300, Double.MIN_VALUE, -Double.MAX_VALUE,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double score : scores) {
            byte[] bytes = SortedSetScores.encode(score);
            assertThat(bytes).as("%s", score).isEqualTo(ByteBuffer.allocate(Double.BYTES).putDouble(score).array());
            assertThat(Double.doubleToRawLongBits(SortedSetScores.decode(bytes))).as("%s", score)
                    .isEqualTo(Double.doubleToRawLongBits(score));
        }
        assertThat(SortedSetScores.encode(1.0)).containsExactly(0x3F, 0xF0, 0, 0, 0, 0, 0, 0);
    }

    private static byte[] b(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
