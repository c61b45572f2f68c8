package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ScanOptionsTests {

    @Test
    void noOptionsMatchEverythingWithRedisDefaultCount() throws Exception {
        ScanOptions options = ScanOptions.parse(args("SSCAN", "k", "0"), 3, ScanOptions.Extra.NONE);
        assertThat(options.count()).isEqualTo(ScanOptions.DEFAULT_COUNT);
        assertThat(options.pattern()).isNull();
        assertThat(options.type()).isNull();
        assertThat(options.values()).isTrue();
        assertThat(options.matches(bytes("anything"))).isTrue();
    }

    @Test
    void optionsReadInAnyOrderCaseInsensitiveTheLastWinning() throws Exception {
        ScanOptions options = ScanOptions.parse(args("count", "5", "match", "a*", "MATCH", "b*", "COUNT", "7"), 0,
                ScanOptions.Extra.NONE);
        assertThat(options.count()).isEqualTo(7);
        assertThat(options.matches(bytes("bee"))).isTrue();
        assertThat(options.matches(bytes("ant"))).isFalse();
    }

    @Test
    void typeOnlyWhereTheCommandTakesItInLowerCase() throws Exception {
        assertThat(ScanOptions.parse(args("TYPE", "ZSet"), 0, ScanOptions.Extra.TYPE).type()).isEqualTo("zset");
        assertThatThrownBy(() -> ScanOptions.parse(args("TYPE", "zset"), 0, ScanOptions.Extra.NONE))
                .isInstanceOfSatisfying(ScanOptions.Invalid.class, e -> assertThat(e.notInteger()).isFalse());
    }

    @Test
    void noValuesOnlyWhereTheCommandTakesIt() throws Exception {
        assertThat(ScanOptions.parse(args("NOVALUES", "MATCH", "f*"), 0, ScanOptions.Extra.NOVALUES).values()).isFalse();
        assertThatThrownBy(() -> ScanOptions.parse(args("NOVALUES"), 0, ScanOptions.Extra.TYPE))
                .isInstanceOf(ScanOptions.Invalid.class);
    }

    @Test
    void badCountsAreTheErrorsRedisAnswers() {
        assertThatThrownBy(() -> ScanOptions.parse(args("COUNT", "x"), 0, ScanOptions.Extra.NONE))
                .isInstanceOfSatisfying(ScanOptions.Invalid.class, e -> assertThat(e.notInteger()).isTrue());
        assertThatThrownBy(() -> ScanOptions.parse(args("COUNT", "0"), 0, ScanOptions.Extra.NONE))
                .isInstanceOfSatisfying(ScanOptions.Invalid.class, e -> assertThat(e.notInteger()).isFalse());
        assertThatThrownBy(() -> ScanOptions.parse(args("COUNT", "-3"), 0, ScanOptions.Extra.NONE))
                .isInstanceOfSatisfying(ScanOptions.Invalid.class, e -> assertThat(e.notInteger()).isFalse());
    }

    @Test
    void anOptionWithoutItsValueOrAnUnknownOneIsASyntaxError() {
        assertThatThrownBy(() -> ScanOptions.parse(args("MATCH"), 0, ScanOptions.Extra.NONE))
                .isInstanceOfSatisfying(ScanOptions.Invalid.class, e -> assertThat(e.notInteger()).isFalse());
        assertThatThrownBy(() -> ScanOptions.parse(args("LIMIT", "3"), 0, ScanOptions.Extra.TYPE))
                .isInstanceOfSatisfying(ScanOptions.Invalid.class, e -> assertThat(e.notInteger()).isFalse());
    }

    private static List<byte[]> args(String... parts) {
        List<byte[]> out = new ArrayList<>();
        for (String part : parts) {
            out.add(bytes(part));
        }
        return out;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
