package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ClientEnvironmentTests {

    @Test
    void requestTimeoutAcceptsSecondsMillisecondsPlainNumbersAndInfinite() {
        assertThat(RequestTimeout.valueOf("60s").duration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(RequestTimeout.valueOf("1500ms").duration()).isEqualTo(Duration.ofMillis(1500));
        assertThat(RequestTimeout.valueOf("2m").duration()).isEqualTo(Duration.ofMinutes(2));
        assertThat(RequestTimeout.valueOf("15000").duration()).isEqualTo(Duration.ofMillis(15000));
        assertThat(RequestTimeout.valueOf(" Infinite ").isInfinite()).isTrue();
    }

    @Test
    void environmentOverridesWhatCodeSet() {
        ZarisClientOptions options = builder()
                .requestTimeout(Duration.ofSeconds(5))
                .environment(Map.of("ZARIS_REQUEST_TIMEOUT", "infinite", "ZARIS_DISABLE_RETRIES", "TRUE",
                        "ZARIS_CLIENT_MAP_REFRESH_WAIT_MS", "2500"))
                .build();
        assertThat(options.requestTimeout().isInfinite()).isTrue();
        assertThat(options.retriesDisabled()).isTrue();
        assertThat(options.mapRefreshWait()).isEqualTo(Duration.ofMillis(2500));
    }

    @Test
    void mapRefreshWaitTakesADurationWithAUnitAndWinsOverTheDeprecatedMillisecondsSpelling() {
        assertThat(builder().environment(Map.of("ZARIS_CLIENT_MAP_REFRESH_WAIT", "3s")).build().mapRefreshWait())
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(builder().environment(Map.of("ZARIS_CLIENT_MAP_REFRESH_WAIT", "1500ms",
                "ZARIS_CLIENT_MAP_REFRESH_WAIT_MS", "9000")).build().mapRefreshWait()).isEqualTo(Duration.ofMillis(1500));
        assertThatThrownBy(() -> builder().environment(Map.of("ZARIS_CLIENT_MAP_REFRESH_WAIT", "infinite")).build())
                .hasMessageContaining("ZARIS_CLIENT_MAP_REFRESH_WAIT='infinite'").hasMessageContaining("15s");
        assertThatThrownBy(() -> builder().environment(Map.of("ZARIS_CLIENT_MAP_REFRESH_WAIT", "0s")).build())
                .hasMessageContaining("ZARIS_CLIENT_MAP_REFRESH_WAIT='0s'");
    }

    @Test
    void defaultsApplyWithoutEnvironment() {
        ZarisClientOptions options = builder().environment(Map.of()).build();
        assertThat(options.requestTimeout().duration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(options.retriesDisabled()).isFalse();
        assertThat(options.maxAttempts()).isEqualTo(3);
        assertThat(options.retryBackoff()).isEqualTo(Duration.ofMillis(100));
        assertThat(options.mapRefreshWait()).isEqualTo(Duration.ofMillis(15000));
    }

    @Test
    void badValuesFailNamingTheVariableAndTheValue() {
        assertThatThrownBy(() -> builder().environment(Map.of("ZARIS_REQUEST_TIMEOUT", "soon")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ZARIS_REQUEST_TIMEOUT='soon'").hasMessageContaining("infinite");
        assertThatThrownBy(() -> builder().environment(Map.of("ZARIS_REQUEST_TIMEOUT", "-5s")).build())
                .hasMessageContaining("ZARIS_REQUEST_TIMEOUT='-5s'");
        assertThatThrownBy(() -> builder().environment(Map.of("ZARIS_DISABLE_RETRIES", "yes")).build())
                .hasMessageContaining("ZARIS_DISABLE_RETRIES='yes'");
        assertThatThrownBy(() -> builder().environment(Map.of("ZARIS_CLIENT_MAP_REFRESH_WAIT_MS", "0")).build())
                .hasMessageContaining("ZARIS_CLIENT_MAP_REFRESH_WAIT_MS='0'");
        assertThatThrownBy(() -> builder().environment(Map.of("ZARIS_CLIENT_MAP_REFRESH_WAIT_MS", "15s")).build())
                .hasMessageContaining("ZARIS_CLIENT_MAP_REFRESH_WAIT_MS='15s'");
    }

    private static ZarisClientOptions.Builder builder() {
        return ZarisClientOptions.builder().seeds("127.0.0.1:7101");
    }
}
