package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class VoterRetentionTests {

    private static final long RETENTION = VoterRetention.ABSENT_VOTER_RETENTION.toNanos();

    @Test
    void everyNodeOfTheMapVotes() {
        assertThat(VoterRetention.next(Set.of(), Set.of("a", "b"), Set.of(), Map.of(), 0)).containsExactly("a", "b");
    }

    @Test
    void aNodeTheMapNoLongerNamesKeepsItsVoteWhilePresent() {
        assertThat(VoterRetention.next(Set.of("a", "b", "c"), Set.of("a", "b"), Set.of("c"), Map.of("c", 0L), RETENTION * 10))
                .containsExactly("a", "b", "c");
    }

    @Test
    void anAbsentOneKeepsItForTheRetentionOnly() {
        Set<String> held = Set.of("a", "b", "c");
        assertThat(VoterRetention.next(held, Set.of("a", "b"), Set.of("a", "b"), Map.of(), 5)).contains("c");
        assertThat(VoterRetention.next(held, Set.of("a", "b"), Set.of("a", "b"), Map.of("c", 5L), 5 + RETENTION - 1))
                .contains("c");
        assertThat(VoterRetention.next(held, Set.of("a", "b"), Set.of("a", "b"), Map.of("c", 5L), 5 + RETENTION))
                .containsExactly("a", "b");
    }

    @Test
    void aNodeGainsAVoteOnlyThroughTheMap() {
        assertThat(VoterRetention.next(Set.of("a", "b"), Set.of("a", "b"), Set.of("a", "b", "newcomer"), Map.of(), 0))
                .containsExactly("a", "b");
    }
}
