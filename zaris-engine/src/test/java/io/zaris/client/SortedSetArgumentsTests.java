package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.LexRange;
import io.zaris.model.ScoreRange;
import io.zaris.model.ZaddFlags;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The typed arguments of the sorted-set operations: ZADD's conditions refused in Redis's combinations, score and member
 * bounds written as Redis writes them (and read back by the node's own parsers), and LIMIT's offset and count checked.
 */
@Tag("unit")
class SortedSetArgumentsTests {

    @Test
    void addOptionsStandForZaddsFlags() {
        assertThat(SortedSetAddOptions.NONE.flags(false).letters()).isEmpty();
        assertThat(SortedSetAddOptions.NONE.flags(true)).isEqualTo(ZaddFlags.INCREMENT);
        SortedSetAddOptions options = SortedSetAddOptions.builder().onlyExisting().onlyHigher().countChanged().build();
        assertThat(options.flags(false).letters()).isEqualTo("XGC");
        assertThat(options.flags(true).letters()).isEqualTo("XGCI");
        assertThat(options.onlyExisting()).isTrue();
        assertThat(options.onlyHigher()).isTrue();
        assertThat(options.countChanged()).isTrue();
        assertThat(options.onlyNew()).isFalse();
        assertThat(options.onlyLower()).isFalse();
        assertThat(SortedSetAddOptions.builder().onlyNew().build().flags(false).letters()).isEqualTo("N");
        assertThat(SortedSetAddOptions.builder().onlyLower().build().flags(false).letters()).isEqualTo("L");
    }

    @Test
    void addOptionsThatExcludeEachOtherAreRefusedWithRedissReason() {
        assertThatThrownBy(() -> SortedSetAddOptions.builder().onlyNew().onlyExisting().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("XX and NX options at the same time are not compatible");
        assertThatThrownBy(() -> SortedSetAddOptions.builder().onlyNew().onlyHigher().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("GT, LT, and/or NX");
        assertThatThrownBy(() -> SortedSetAddOptions.builder().onlyNew().onlyLower().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("GT, LT, and/or NX");
        assertThatThrownBy(() -> SortedSetAddOptions.builder().onlyHigher().onlyLower().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("GT, LT, and/or NX");
    }

    @Test
    void scoreBoundsAreWrittenAsRedisWritesThem() {
        assertThat(text(ScoreBound.inclusive(2.5).encode(true))).isEqualTo("2.5");
        assertThat(text(ScoreBound.exclusive(2.5).encode(false))).isEqualTo("(2.5");
        assertThat(text(ScoreBound.unbounded().encode(true))).isEqualTo("-inf");
        assertThat(text(ScoreBound.unbounded().encode(false))).isEqualTo("+inf");
        assertThat(text(ScoreBound.exclusive(Double.NEGATIVE_INFINITY).encode(true))).isEqualTo("(-inf");
        double awkward = 0.1 + 0.2;
        ScoreRange read = ScoreRange.parse(ScoreBound.exclusive(awkward).encode(true), ScoreBound.inclusive(7).encode(false));
        assertThat(read).as("the node reads back the exact double").isEqualTo(new ScoreRange(awkward, true, 7, false));
        assertThatThrownBy(() -> ScoreBound.inclusive(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> ScoreBound.exclusive(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void lexBoundsAreWrittenAsRedisWritesThem() {
        assertThat(text(LexBound.inclusive("b").encode(true))).isEqualTo("[b");
        assertThat(text(LexBound.exclusive("b").encode(false))).isEqualTo("(b");
        assertThat(text(LexBound.unbounded().encode(true))).isEqualTo("-");
        assertThat(text(LexBound.unbounded().encode(false))).isEqualTo("+");
        assertThat(text(LexBound.inclusive("").encode(true))).as("the empty member is a bound too").isEqualTo("[");
        LexRange read = LexRange.parse(LexBound.exclusive("é").encode(true), LexBound.unbounded().encode(false));
        assertThat(read.aboveMin("é".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(read.aboveMin("f".getBytes(StandardCharsets.UTF_8))).as("UTF-8 bytes, unsigned: é is above f").isFalse();
        assertThat(read.aboveMin("ê".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(read.belowMax("zzz".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThatThrownBy(() -> LexBound.inclusive(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LexBound.unbounded()");
    }

    @Test
    void rangeLimitsTakeNoNegativeOffsetAndNoNegativeCountButTheWholeRest() {
        assertThat(RangeLimit.ALL).isEqualTo(RangeLimit.of(0, RangeLimit.NO_COUNT));
        assertThat(RangeLimit.of(2, 0).count()).isZero();
        assertThatThrownBy(() -> RangeLimit.of(-1, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offset is 0 or more, not -1");
        assertThatThrownBy(() -> RangeLimit.of(0, -2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NO_COUNT");
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
