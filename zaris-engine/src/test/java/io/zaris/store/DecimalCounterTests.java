package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class DecimalCounterTests {

    @Test
    void parsesSignedDecimalsAcrossTheWholeLongRange() {
        assertThat(parse("0")).isZero();
        assertThat(parse("-17")).isEqualTo(-17);
        assertThat(parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(parse("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void rejectsWhatRedisWouldNotCountWith() {
        for (String bad : new String[] {"", "-", "+1", "01", "-0", "1.5", " 1", "9223372036854775808",
                "-9223372036854775809", "12345678901234567890123"}) {
            assertThat(parse(bad)).as(bad).isNull();
        }
    }

    private static Long parse(String text) {
        return DecimalCounter.parse(text.getBytes(StandardCharsets.US_ASCII));
    }
}
