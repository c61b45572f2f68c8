package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ExpireFlagsTests {

    private static final long NO_TTL = 0;

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
    void aKeyWithoutTtlIsAnInfiniteTtl() {
        assertThat(flags("NX").allows(NO_TTL, 100)).isTrue();
        assertThat(flags("NX").allows(50, 100)).isFalse();
        assertThat(flags("XX").allows(NO_TTL, 100)).isFalse();
        assertThat(flags("GT").allows(NO_TTL, 100)).as("nothing is greater than infinite").isFalse();
        assertThat(flags("LT").allows(NO_TTL, 100)).as("everything is less than infinite").isTrue();
    }

    @Test
    void everyGivenOptionMustAgree() {
        assertThat(flags("XX", "GT").allows(50, 100)).isTrue();
        assertThat(flags("XX", "GT").allows(150, 100)).isFalse();
        assertThat(flags("XX", "GT").allows(NO_TTL, 100)).isFalse();
        assertThat(flags("XX", "LT").allows(150, 100)).isTrue();
        assertThat(flags("XX", "LT").allows(NO_TTL, 100)).as("LT alone would apply; XX says no").isFalse();
        assertThat(flags("GT").allows(100, 100)).as("equal is not greater").isFalse();
        assertThat(flags("LT").allows(100, 100)).as("equal is not less").isFalse();
        assertThat(ExpireFlags.NONE.allows(NO_TTL, 100)).isTrue();
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
