package io.zaris.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ListPositionTests {

    @Test
    void writesDecimalText() {
        assertThat(text(ListPosition.of(0))).isEqualTo("0");
        assertThat(text(ListPosition.of(7))).isEqualTo("7");
        assertThat(text(ListPosition.of(1234567))).isEqualTo("1234567");
        assertThat(text(ListPosition.of(10, 3))).isEqualTo("10 3");
        assertThat(text(ListPosition.of(0, 100))).isEqualTo("0 100");
        assertThat(text(ListPosition.of(Integer.MAX_VALUE, 9))).isEqualTo("2147483647 9");
    }

    @Test
    void readsBackWhatItWrote() {
        assertThat(ListPosition.parse(ListPosition.of(99))).containsExactly(99);
        assertThat(ListPosition.parse(ListPosition.of(5, 40))).containsExactly(5, 40);
        assertThat(ListPosition.parse(bytes("999999999999999999"))).containsExactly(999_999_999_999_999_999L);
        assertThat(ListPosition.parse(bytes("007 1"))).containsExactly(7, 1);
    }

    @Test
    void readsEachNumberWithoutAnArrayAsParseReadsThem() {
        for (String position : new String[] {"0", "7", "99", "999999999999999999", "5 40", "0 100", "007 1", "3 0009"}) {
            long[] parsed = ListPosition.parse(bytes(position));
            assertThat(ListPosition.numbers(bytes(position))).as(position).isEqualTo(parsed.length);
            assertThat(ListPosition.first(bytes(position))).as(position).isEqualTo(parsed[0]);
            if (parsed.length == 2) {
                assertThat(ListPosition.second(bytes(position))).as(position).isEqualTo(parsed[1]);
            } else {
                assertThatThrownBy(() -> ListPosition.second(bytes(position))).isInstanceOf(IllegalArgumentException.class);
            }
            boolean canonical = java.util.Arrays.equals(bytes(position), parsed.length == 1 ? ListPosition.of(parsed[0])
                    : ListPosition.of(parsed[0], parsed[1]));
            assertThat(ListPosition.isCanonical(bytes(position))).as(position).isEqualTo(canonical);
        }
        assertThat(ListPosition.isCanonical(bytes("007 1"))).isFalse();
        assertThat(ListPosition.isCanonical(bytes("10 3"))).isTrue();
    }

    @Test
    void refusesAnythingElse() {
        for (String bad : new String[] {"", " ", "1 ", " 1", "1  2", "1 2 3", "-1", "1 -2", "x", "1e3",
                "1000000000000000000"}) {
            assertThatThrownBy(() -> ListPosition.parse(bytes(bad))).as("'%s'", bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a list position");
            assertThatThrownBy(() -> ListPosition.numbers(bytes(bad))).as("'%s'", bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a list position");
        }
        assertThatThrownBy(() -> ListPosition.of(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
