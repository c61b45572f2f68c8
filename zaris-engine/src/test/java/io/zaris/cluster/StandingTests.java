package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class StandingTests {

    private final Standing standing = new Standing();

    @Test
    void aLostMajorityIsReportedOnceAndAsAwaitingHellosWhenTheMissingHellosWouldMakeItUp() {
        assertThat(standing.refresh(1, 3, 0, false)).as("never held").isEqualTo(Standing.MajorityChange.NONE);
        assertThat(standing.refresh(2, 3, 0, true)).isEqualTo(Standing.MajorityChange.NONE);
        assertThat(standing.inMajority()).isTrue();
        assertThat(standing.leading()).isTrue();

        assertThat(standing.refresh(1, 3, 1, false)).isEqualTo(Standing.MajorityChange.AWAITING_HELLOS);
        assertThat(standing.inMajority()).isFalse();
        assertThat(standing.leading()).isFalse();
        assertThat(standing.refresh(1, 3, 1, false)).as("reported once").isEqualTo(Standing.MajorityChange.NONE);

        standing.refresh(3, 3, 0, false);
        assertThat(standing.refresh(1, 3, 0, false)).isEqualTo(Standing.MajorityChange.LOST);
    }

    @Test
    void onlyAConfirmedLeaderDecidesAndAnUnconfirmedLeadershipIsReportedOncePerStretch() {
        assertThat(standing.mayDecide(false, true)).isEqualTo(new Standing.Authority(false, false));
        assertThat(standing.mayDecide(true, false)).isEqualTo(new Standing.Authority(false, true));
        assertThat(standing.mayDecide(true, false)).as("still unconfirmed").isEqualTo(new Standing.Authority(false, false));

        assertThat(standing.mayDecide(true, true)).isEqualTo(new Standing.Authority(true, false));
        assertThat(standing.mayDecide(true, false)).as("a new stretch").isEqualTo(new Standing.Authority(false, true));
    }
}
