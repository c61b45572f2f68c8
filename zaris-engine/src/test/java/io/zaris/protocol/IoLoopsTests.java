package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class IoLoopsTests {

    @Test
    void oneThreadPerCoreUnlessConfigured() {
        assertThat(IoLoops.threads(null, Map.of(), 2)).isEqualTo(2);
        assertThat(IoLoops.threads(null, Map.of(), 0)).isEqualTo(1);
        assertThat(IoLoops.threads(null, Map.of(), 1_000)).isEqualTo(IoLoops.MAX_THREADS);
    }

    @Test
    void thePropertyWinsOverTheEnvironment() {
        assertThat(IoLoops.threads("3", Map.of(IoLoops.ENVIRONMENT, "5"), 2)).isEqualTo(3);
        assertThat(IoLoops.threads(" ", Map.of(IoLoops.ENVIRONMENT, " 5 "), 2)).isEqualTo(5);
    }

    @Test
    void aBadValueIsRefusedNamingWhereItCameFrom() {
        assertThatThrownBy(() -> IoLoops.threads("many", Map.of(), 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("system property zaris.io-threads must be a whole number of I/O threads but was 'many'");
        assertThatThrownBy(() -> IoLoops.threads(null, Map.of(IoLoops.ENVIRONMENT, "0"), 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("environment variable ZARIS_IO_THREADS must be between 1 and 256 but was 0");
    }
}
