package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class NearCacheVerdictTests {

    private static final long NEVER = Long.MAX_VALUE;

    @Test
    void anEntryOfALiveStreamOnTheRoutedOpenConnectionIsServed() {
        assertThat(NearCacheVerdict.of(true, true, true, NEVER, 1_000)).isEqualTo(NearCacheVerdict.SERVE);
        assertThat(NearCacheVerdict.SERVE.servable()).isTrue();
    }

    @Test
    void aStreamOnAnotherConnectionOrEpochThanTheRoutedOneIsAnOwnerChange() {
        // e.g. a failover away and a hand-back: until the stream resumed on the new route, nothing is served
        assertThat(NearCacheVerdict.of(true, false, true, NEVER, 0)).isEqualTo(NearCacheVerdict.OWNER_CHANGED);
    }

    @Test
    void aStreamStillResumingIsDown() {
        assertThat(NearCacheVerdict.of(false, true, true, NEVER, 0)).isEqualTo(NearCacheVerdict.STREAM_DOWN);
    }

    @Test
    void aClosedConnectionIsADownStreamEvenBeforeTheMapMoves() {
        assertThat(NearCacheVerdict.of(true, true, false, NEVER, 0)).isEqualTo(NearCacheVerdict.STREAM_DOWN);
        assertThat(NearCacheVerdict.STREAM_DOWN.servable()).isFalse();
    }

    @Test
    void anEntryExpiresAtItsDeadlineNotAfter() {
        assertThat(NearCacheVerdict.of(true, true, true, 500, 499)).isEqualTo(NearCacheVerdict.SERVE);
        assertThat(NearCacheVerdict.of(true, true, true, 500, 500)).isEqualTo(NearCacheVerdict.EXPIRED);
        assertThat(NearCacheVerdict.of(true, true, true, 500, 501)).isEqualTo(NearCacheVerdict.EXPIRED);
    }

    @Test
    void expiryIsComparedAcrossTickerWraparound() {
        long deadline = Long.MIN_VALUE + 10; // a ticker that wrapped: deadline is "after" Long.MAX_VALUE - 5
        assertThat(NearCacheVerdict.of(true, true, true, deadline, Long.MAX_VALUE - 5)).isEqualTo(NearCacheVerdict.SERVE);
        assertThat(NearCacheVerdict.of(true, true, true, deadline, Long.MIN_VALUE + 11)).isEqualTo(NearCacheVerdict.EXPIRED);
    }
}
