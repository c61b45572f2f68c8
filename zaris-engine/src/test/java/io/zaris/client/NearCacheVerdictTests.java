package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class NearCacheVerdictTests {

    private static final long NEVER = Long.MAX_VALUE;

    @Test
    void anEntryOfTheRoutedOpenConnectionAndEpochIsServed() {
        assertThat(NearCacheVerdict.of(7, 7, true, true, NEVER, 1_000)).isEqualTo(NearCacheVerdict.SERVE);
        assertThat(NearCacheVerdict.SERVE.servable()).isTrue();
    }

    @Test
    void aNewerEpochOnTheSameNodeIsAnOwnerChange() {
        // e.g. a failover away and a hand-back: the node is the same, the history in between is not ours
        assertThat(NearCacheVerdict.of(7, 8, true, true, NEVER, 0)).isEqualTo(NearCacheVerdict.OWNER_CHANGED);
    }

    @Test
    void anotherRoutedConnectionIsAnOwnerChange() {
        assertThat(NearCacheVerdict.of(7, 7, false, true, NEVER, 0)).isEqualTo(NearCacheVerdict.OWNER_CHANGED);
    }

    @Test
    void aClosedConnectionIsADownStreamEvenBeforeTheMapMoves() {
        assertThat(NearCacheVerdict.of(7, 7, true, false, NEVER, 0)).isEqualTo(NearCacheVerdict.STREAM_DOWN);
        assertThat(NearCacheVerdict.STREAM_DOWN.servable()).isFalse();
    }

    @Test
    void anEntryExpiresAtItsDeadlineNotAfter() {
        assertThat(NearCacheVerdict.of(1, 1, true, true, 500, 499)).isEqualTo(NearCacheVerdict.SERVE);
        assertThat(NearCacheVerdict.of(1, 1, true, true, 500, 500)).isEqualTo(NearCacheVerdict.EXPIRED);
        assertThat(NearCacheVerdict.of(1, 1, true, true, 500, 501)).isEqualTo(NearCacheVerdict.EXPIRED);
    }

    @Test
    void expiryIsComparedAcrossTickerWraparound() {
        long deadline = Long.MIN_VALUE + 10; // a ticker that wrapped: deadline is "after" Long.MAX_VALUE - 5
        assertThat(NearCacheVerdict.of(1, 1, true, true, deadline, Long.MAX_VALUE - 5)).isEqualTo(NearCacheVerdict.SERVE);
        assertThat(NearCacheVerdict.of(1, 1, true, true, deadline, Long.MIN_VALUE + 11)).isEqualTo(NearCacheVerdict.EXPIRED);
    }
}
