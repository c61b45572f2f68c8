package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ViewFetchPacerTests {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aFetchGoesOutAtMostOncePerInterval() {
        ViewFetchPacer pacer = new ViewFetchPacer(Duration.ofSeconds(1));

        assertThat(pacer.tryFetch(-5 * SECOND)).as("the first, at any reading").isTrue();
        assertThat(pacer.tryFetch(-5 * SECOND + SECOND - 1)).isFalse();
        assertThat(pacer.tryFetch(-4 * SECOND)).isTrue();
        assertThat(pacer.tryFetch(-4 * SECOND + 1)).isFalse();
    }

    @Test
    void aReadingThatWrapsPastLongMaxStillCountsAsLater() {
        ViewFetchPacer pacer = new ViewFetchPacer(Duration.ofSeconds(1));
        pacer.tryFetch(Long.MAX_VALUE - SECOND / 2);

        assertThat(pacer.tryFetch(Long.MAX_VALUE + SECOND / 2 + 1)).isTrue();
    }

    @Test
    void theIntervalMustBePositive() {
        assertThatThrownBy(() -> new ViewFetchPacer(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the view fetch interval must be positive, was PT0S");
    }
}
