package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpringDataRedisSettingsTests {

    @Test
    void defaultsAreRedisBenchmarksClientsAndANinetyTenMix() {
        SpringDataRedisSettings settings = SpringDataRedisSettings.parse("--seeds", "127.0.0.1:8101,127.0.0.1:8102");

        assertThat(settings.seeds()).containsExactly("127.0.0.1:8101", "127.0.0.1:8102");
        assertThat(settings.threads()).isEqualTo(50);
        assertThat(settings.getPercent()).isEqualTo(90);
        assertThat(settings.valueBytes()).isEqualTo(100);
        assertThat(settings.measured()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void everyOptionIsRead() {
        SpringDataRedisSettings settings = SpringDataRedisSettings.parse("--seeds", "h:1", "--threads", "8",
                "--warmup-seconds", "0", "--seconds", "5", "--keys", "1000", "--value-bytes", "10240", "--get-percent", "100");

        assertThat(settings).isEqualTo(new SpringDataRedisSettings(List.of("h:1"), 8, Duration.ZERO, Duration.ofSeconds(5),
                1000, 10240, 100));
    }

    @Test
    void badInputNamesTheOption() {
        assertThatThrownBy(() -> SpringDataRedisSettings.parse("--threads", "4"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--seeds is required");
        assertThatThrownBy(() -> SpringDataRedisSettings.parse("--seeds", "nohostport"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host:port");
        assertThatThrownBy(() -> SpringDataRedisSettings.parse("--seeds", "h:1", "--threads", "0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--threads must be at least 1");
        assertThatThrownBy(() -> SpringDataRedisSettings.parse("--seeds", "h:1", "--get-percent", "101"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--get-percent");
        assertThatThrownBy(() -> SpringDataRedisSettings.parse("--seeds", "h:1", "--keys", "many"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--keys takes a whole number");
        assertThatThrownBy(() -> SpringDataRedisSettings.parse("--seeds", "h:1", "--ratio"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--ratio needs a value");
        assertThatThrownBy(() -> SpringDataRedisSettings.parse("--seeds", "h:1", "--ratio", "1:9"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option --ratio");
    }
}
