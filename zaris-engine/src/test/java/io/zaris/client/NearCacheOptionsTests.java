package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class NearCacheOptionsTests {

    @Test
    void aClientHasNoNearCacheUnlessAskedFor() {
        ZarisClientOptions options = ZarisClientOptions.builder().seeds("localhost:7000").environment(Map.of()).build();

        assertThat(options.nearCache()).isSameAs(NearCacheOptions.DISABLED);
        assertThat(options.nearCache().enabled()).isFalse();
    }

    @Test
    void builtOptionsAreEnabledWithTheirBounds() {
        NearCacheOptions options = NearCacheOptions.builder().maxEntries(5).maxBytes(1024).build();

        assertThat(options.enabled()).isTrue();
        assertThat(options.maxEntries()).isEqualTo(5);
        assertThat(options.maxBytes()).isEqualTo(1024);
        assertThat(NearCacheOptions.create().maxEntries()).isEqualTo(NearCacheOptions.DEFAULT_MAX_ENTRIES);
        assertThat(NearCacheOptions.create().maxBytes()).isEqualTo(NearCacheOptions.DEFAULT_MAX_BYTES);
    }

    @Test
    void aReadsMaxAgeMustBePositive() {
        assertThatThrownBy(() -> NearCacheRead.maxAge(java.time.Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAge");
        assertThatThrownBy(() -> NearCacheRead.maxAge(java.time.Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAge");
        assertThatThrownBy(() -> NearCacheRead.maxAge(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(NearCacheRead.maxAge(java.time.Duration.ofSeconds(5)).maxAge()).hasSeconds(5);
        assertThat(NearCacheRead.DEFAULT.maxAge()).isNull();
        assertThat(NearCacheRead.BYPASS.usesNearCache()).isFalse();
    }

    @Test
    void boundsBelowOneAreRefusedWithTheirName() {
        assertThatThrownBy(() -> NearCacheOptions.builder().maxEntries(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxEntries");
        assertThatThrownBy(() -> NearCacheOptions.builder().maxBytes(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBytes");
    }

    @Test
    void nullNearCacheOptionsAreRefused() {
        assertThatThrownBy(() -> ZarisClientOptions.builder().nearCache(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DISABLED");
    }

    @Test
    void aNearCacheWithDisabledOptionsCannotBeMade() {
        assertThatThrownBy(() -> new NearCache(NearCacheOptions.DISABLED)).isInstanceOf(IllegalArgumentException.class);
    }
}
