package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The chaos run's command line: every option is read, and nothing a user typed is silently dropped. */
@Tag("unit")
class ChaosOptionsTests {

    @Test
    void readsEveryOptionWithItsValue() {
        ChaosOptions options = ChaosOptions.parse(new String[] {"--minutes", "2", "--nodes", "3", "--rf", "2",
                "--ack", "async", "--seed", "7", "--network", "bed"});
        assertThat(options.duration()).isEqualTo(java.time.Duration.ofMinutes(2));
        assertThat(options.nodes()).isEqualTo(3);
        assertThat(options.replicationFactor()).isEqualTo(2);
        assertThat(options.ackMode()).isEqualTo(io.zaris.model.AckMode.ASYNC);
        assertThat(options.seed()).isEqualTo(7);
        assertThat(options.network()).isEqualTo(ChaosOptions.Network.BED);
    }

    @Test
    void aTrailingOptionWithoutItsValueIsRefusedRatherThanIgnored() {
        assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--nodes", "3", "--help"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--help needs a value");
        assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--minutes"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--minutes needs a value");
    }

    @Test
    void anUnknownOptionIsRefused() {
        assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--minute", "3"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option --minute");
    }
}
