package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ExpireFlagsTests {

    @Test
    void optionsCombineAsRedisAllows() {
        assertThat(flags()).isEqualTo(ExpireFlags.NONE);
        assertThat(flags("xx", "GT")).isEqualTo(new ExpireFlags(false, true, true, false));
        assertThat(flags("XX", "lt", "LT")).isEqualTo(new ExpireFlags(false, true, false, true));
        assertThat(flags("NX", "nx")).isEqualTo(new ExpireFlags(true, false, false, false));
    }

    @Test
    void refusedCombinationsGetRedisErrorTexts() {
        for (String[] options : new String[][] {{"NX", "XX"}, {"NX", "GT"}, {"LT", "NX"}}) {
            assertThat(error(options)).isEqualTo(RespReply.error("ERR NX and XX, GT or LT options at the same time are not compatible"));
        }
        assertThat(error("GT", "LT")).isEqualTo(RespReply.error("ERR GT and LT options at the same time are not compatible"));
        assertThat(error("XX", "SOON", "NX")).as("an unknown option is reported before the combination")
                .isEqualTo(RespReply.error("ERR Unsupported option SOON"));
    }

    @Test
    void theEngineOpTakesOneLetterPerOption() {
        assertThat(ExpireFlags.NONE.wire()).isEmpty();
        assertThat(flags("nx").wire()).isEqualTo("N");
        assertThat(flags("XX", "GT").wire()).isEqualTo("XG");
        assertThat(flags("lt", "xx").wire()).isEqualTo("XL");
    }

    private static ExpireFlags flags(String... options) {
        ExpireFlags.Parsed parsed = ExpireFlags.parse(RespCommandsTests.args(options));
        assertThat(parsed.error()).isNull();
        return parsed.flags();
    }

    private static RespReply error(String... options) {
        ExpireFlags.Parsed parsed = ExpireFlags.parse(RespCommandsTests.args(options));
        assertThat(parsed.flags()).isNull();
        return parsed.error();
    }
}
