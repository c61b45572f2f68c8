package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EmbeddedModeNoticeTests {

    private static final long MIB = 1024L * 1024;

    @Test
    void theDefaultClusterIsDescribedAsPrivateWithItsNodesCopiesBudgetAndTheWayOut() {
        String notice = EmbeddedModeNotice.text(3, 2, 400 * MIB, 1200 * MIB, 3000 * MIB);

        assertThat(notice)
                .startsWith("Zaris embedded mode: a private cluster of 3 nodes inside this JVM")
                .contains("2 copies of every entry")
                .contains("memory budget 400 MiB per node, 1.2 GiB in all of this JVM's 2.9 GiB max heap")
                .contains("No other process or instance of this application shares it")
                .contains("set zaris.client.seeds")
                .doesNotContain("\n");
    }

    @Test
    void oneNodeWithOneCopyIsSaidInTheSingular() {
        String notice = EmbeddedModeNotice.text(1, 1, 512 * MIB, 512 * MIB, 2048 * MIB);

        assertThat(notice)
                .contains("a private cluster of 1 node inside this JVM, 1 copy of every entry, memory budget 512 MiB"
                        + " of this JVM's 2 GiB max heap")
                .doesNotContain("per node");
    }

    @Test
    void sizesUseTheLargestBinaryUnitWithAtMostOneDecimal() {
        assertThat(EmbeddedModeNotice.bytes(512)).isEqualTo("512 bytes");
        assertThat(EmbeddedModeNotice.bytes(1024)).isEqualTo("1 KiB");
        assertThat(EmbeddedModeNotice.bytes(1536 * 1024)).isEqualTo("1.5 MiB");
        assertThat(EmbeddedModeNotice.bytes(429_496_729)).isEqualTo("409.6 MiB");
        assertThat(EmbeddedModeNotice.bytes(5L * 1024 * MIB)).isEqualTo("5 GiB");
    }
}
