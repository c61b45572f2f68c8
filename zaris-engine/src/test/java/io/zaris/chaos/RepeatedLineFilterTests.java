package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RepeatedLineFilterTests {

    private static final long SECOND = 1_000_000_000L;

    private final RepeatedLineFilter filter = new RepeatedLineFilter(10 * SECOND);

    @Test
    void writesTheFirstLine() {
        assertThat(filter.shouldLog("KILL deferred", 0)).isTrue();
    }

    @Test
    void holdsBackTheSameLineWithinTheQuietTime() {
        filter.shouldLog("KILL deferred", 0);

        assertThat(filter.shouldLog("KILL deferred", SECOND)).isFalse();
        assertThat(filter.shouldLog("KILL deferred", 10 * SECOND - 1)).isFalse();
    }

    @Test
    void writesTheSameLineAgainOnceTheQuietTimePassedSinceItWasLastWritten() {
        filter.shouldLog("KILL deferred", 0);
        filter.shouldLog("KILL deferred", 5 * SECOND);

        assertThat(filter.shouldLog("KILL deferred", 10 * SECOND)).isTrue();
        assertThat(filter.shouldLog("KILL deferred", 11 * SECOND)).isFalse();
    }

    @Test
    void writesAChangedLineAtOnce() {
        filter.shouldLog("KILL deferred: partition 3", 0);

        assertThat(filter.shouldLog("KILL deferred: partition 4", SECOND)).isTrue();
        assertThat(filter.shouldLog("KILL deferred: partition 3", 2 * SECOND)).isTrue();
    }

    @Test
    void refusesAQuietTimeThatIsNotPositive() {
        assertThatThrownBy(() -> new RepeatedLineFilter(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
    }
}
