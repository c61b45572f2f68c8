package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.chaos.Nemesis.Kind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class NemesisKindsTests {

    @Test
    void onLoopbackOnlyProcessFaultsAreDrawn() {
        assertThat(Nemesis.kinds(false, true)).containsExactly(Kind.KILL, Kind.PAUSE, Kind.KILL_LEADER,
                Kind.KILL_HOT_OWNER, Kind.GRACEFUL_RESTART, Kind.DRAIN_AND_REJOIN);
    }

    @Test
    void onTheBedEveryNetworkFaultIsDrawnToo() {
        assertThat(Nemesis.kinds(true, true)).contains(Kind.KILL, Kind.DRAIN_AND_REJOIN, Kind.PARTITION_MINORITY,
                Kind.PARTITION_LEADER, Kind.ONE_WAY_PARTITION, Kind.FLAPPING_LINK, Kind.ADDED_LATENCY, Kind.CONGESTED_LINK)
                .hasSize(12);
    }

    @Test
    void withoutNetemAddedLatencyIsNeverDrawn() {
        assertThat(Nemesis.kinds(true, false)).doesNotContain(Kind.ADDED_LATENCY)
                .contains(Kind.FLAPPING_LINK, Kind.CONGESTED_LINK).hasSize(11);
    }
}
