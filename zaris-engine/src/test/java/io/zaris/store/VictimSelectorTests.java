package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class VictimSelectorTests {

    private static final long NOW = 10_000;

    @Test
    void allkeysLruPicksTheLeastRecentlyAccessed() {
        List<EvictionCandidate> sample = List.of(candidate("a", 5_000, 0), candidate("b", 1_000, 0), candidate("c", 9_000, 0));
        assertThat(VictimSelector.choose(EvictionPolicy.ALLKEYS_LRU, sample, NOW)).isEqualTo(1);
    }

    @Test
    void anExpiredCandidateGoesBeforeAnyLiveOne() {
        List<EvictionCandidate> sample = List.of(candidate("old", 1, 0), candidate("expired", 9_999, NOW));
        assertThat(VictimSelector.choose(EvictionPolicy.ALLKEYS_LRU, sample, NOW)).isEqualTo(1);
        assertThat(VictimSelector.choose(EvictionPolicy.VOLATILE_LRU, sample, NOW)).isEqualTo(1);
    }

    @Test
    void volatileLruConsidersOnlyKeysWithATtl() {
        List<EvictionCandidate> sample = List.of(candidate("persistent", 1, 0), candidate("ttl", 8_000, NOW + 60_000),
                candidate("older-ttl", 7_000, NOW + 90_000));
        assertThat(VictimSelector.choose(EvictionPolicy.VOLATILE_LRU, sample, NOW)).isEqualTo(2);
    }

    @Test
    void volatileTtlPicksTheNearestExpiryWhateverTheAccessTime() {
        List<EvictionCandidate> sample = List.of(candidate("later", 1, NOW + 90_000), candidate("persistent", 1, 0),
                candidate("sooner", 9_999, NOW + 5));
        assertThat(VictimSelector.choose(EvictionPolicy.VOLATILE_TTL, sample, NOW)).isEqualTo(2);
    }

    @Test
    void nothingIsEligibleWithoutTtlKeysForVolatilePoliciesOrEverForNoeviction() {
        List<EvictionCandidate> persistent = List.of(candidate("a", 1, 0), candidate("b", 2, 0));
        assertThat(VictimSelector.choose(EvictionPolicy.VOLATILE_LRU, persistent, NOW)).isEqualTo(-1);
        assertThat(VictimSelector.choose(EvictionPolicy.VOLATILE_TTL, persistent, NOW)).isEqualTo(-1);
        assertThat(VictimSelector.choose(EvictionPolicy.NOEVICTION, persistent, NOW)).isEqualTo(-1);
        assertThat(VictimSelector.choose(EvictionPolicy.ALLKEYS_LRU, List.of(), NOW)).isEqualTo(-1);
    }

    @Test
    void tiesGoToTheEarlierCandidate() {
        List<EvictionCandidate> sample = List.of(candidate("a", 5, 0), candidate("b", 5, 0));
        assertThat(VictimSelector.choose(EvictionPolicy.ALLKEYS_LRU, sample, NOW)).isZero();
    }

    private static EvictionCandidate candidate(String key, long accessedAt, long expiresAt) {
        return new EvictionCandidate(0, new ByteKey(key.getBytes(StandardCharsets.UTF_8)), 1, accessedAt, expiresAt);
    }
}
