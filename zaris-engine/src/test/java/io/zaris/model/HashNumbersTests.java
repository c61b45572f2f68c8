package io.zaris.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** HINCRBYFLOAT's arithmetic: the replies a real Redis (7.0, x86-64) gave for the same increments. */
@Tag("unit")
class HashNumbersTests {

    @Test
    void sumsPrintAsRedisPrintsItsLongDoubles() {
        assertThat(increments("0.1")).isEqualTo("0.1");
        assertThat(increments("0.1", "0.2")).isEqualTo("0.3");
        assertThat(increments("10.50", "0.1")).isEqualTo("10.6");
        assertThat(increments("10.50", "0.1", "-5")).isEqualTo("5.6");
        assertThat(increments("5.0e3", "2.0e2")).isEqualTo("5200");
        assertThat(increments("9223372036854775807", "0.5")).isEqualTo("9223372036854775807.5");
        assertThat(increments("1e308")).isEqualTo("9999999999999999999668587965584564566056009984741556720779704799492173486883806187"
                + "21001269218885393204467472250540132231521347495939605835974208144301964187679591000196031907786631096045071"
                + "06667939153395788938914560543563061268364901618630217086589253444881623791300855757318142424510452728255046343928578048");
        assertThat(increments("1", "-1")).isEqualTo("0");
        assertThat(increments("-1e-20")).isEqualTo("0");
        assertThat(increments("-2.25", "0.5")).isEqualTo("-1.75");
    }

    @Test
    void readsWhatRedisReadsAndNothingElse() {
        assertThat(HashNumbers.parseFloat(bytes("1e400"))).isNotNull(); // finite in a long double
        assertThat(HashNumbers.parseFloat(bytes("5."))).isNotNull();
        assertThat(HashNumbers.parseFloat(bytes(".5"))).isNotNull();
        for (String refused : new String[] {"", " 1", "1 ", "x", "nan", "inf", "1e99999", "1.2.3", ".", "0x10", "1d"}) {
            assertThat(HashNumbers.parseFloat(bytes(refused))).as("'%s'", refused).isNull();
        }
        assertThat(HashNumbers.isInfinity(bytes("-inf"))).isTrue();
        assertThat(HashNumbers.isInfinity(bytes("+Infinity"))).isTrue();
        assertThat(HashNumbers.isInfinity(bytes("1e400"))).isFalse();
        assertThat(HashNumbers.add(HashNumbers.parseFloat(bytes("1e4932")), HashNumbers.parseFloat(bytes("1e4932")))).isNull();
    }

    /** What HINCRBYFLOAT answers after each of {@code deltas} in turn on a new field (each sum stored as printed). */
    private static String increments(String... deltas) {
        String stored = null;
        for (String delta : deltas) {
            BigDecimal base = stored == null ? BigDecimal.ZERO : HashNumbers.parseFloat(bytes(stored));
            stored = HashNumbers.formatFloat(HashNumbers.add(base, HashNumbers.parseFloat(bytes(delta))));
        }
        return stored;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
