package io.zaris.cluster;

import static io.zaris.cluster.CoordinatorLoyalty.Verdict.INSTALL;
import static io.zaris.cluster.CoordinatorLoyalty.Verdict.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class CoordinatorLoyaltyTests {

    private static final long SILENCE = 1_000;
    private static final long NEVER = Long.MIN_VALUE;

    /** "third"'s view, led by "leader"; "unheard" is the node whose packets to the leader are dropped. */
    private final CoordinatorLoyalty<String> third = new CoordinatorLoyalty<>("third", SILENCE);

    @Test
    void aViewWithoutTheCoordinatorThisMemberStillHearsWaits() {
        third.viewInstalled("leader");

        assertThat(third.judge(List.of("unheard", "third"), List.of(), 5_000, 5_400)).isEqualTo(WAIT);
        assertThat(third.judge(List.of(), List.of("leader"), 5_000, 5_400)).as("a delta view removing it").isEqualTo(WAIT);
    }

    @Test
    void onceTheCoordinatorIsSilentHereTheViewIsInstalled() {
        third.viewInstalled("leader");

        assertThat(third.judge(List.of("unheard", "third"), List.of(), 5_000, 5_999)).isEqualTo(WAIT);
        assertThat(third.judge(List.of("unheard", "third"), List.of(), 5_000, 6_000)).isEqualTo(INSTALL);
        assertThat(third.judge(List.of("unheard", "third"), List.of(), NEVER, 6_000)).as("never heard").isEqualTo(INSTALL);
        assertThat(third.silent(5_000, 5_999)).isFalse();
        assertThat(third.silent(5_000, 6_000)).isTrue();
    }

    @Test
    void aCoordinatorThatSaidGoodbyeIsLeftAtOnce() {
        third.viewInstalled("leader");

        assertThat(third.left("unheard")).as("not the coordinator").isFalse();
        assertThat(third.judge(List.of("unheard", "third"), List.of(), 5_000, 5_100)).isEqualTo(WAIT);
        assertThat(third.left("leader")).isTrue();
        assertThat(third.judge(List.of("unheard", "third"), List.of(), 5_000, 5_100)).isEqualTo(INSTALL);
    }

    @Test
    void aGoodbyeCountsOnlyUntilTheNextView() {
        third.viewInstalled("leader");
        third.left("leader");
        third.viewInstalled("leader"); // the same address back: a goodbye of an earlier stay

        assertThat(third.judge(List.of("unheard", "third"), List.of(), 5_000, 5_100)).isEqualTo(WAIT);
    }

    @Test
    void viewsThatKeepTheCoordinatorAreInstalledAtOnce() {
        third.viewInstalled("leader");

        assertThat(third.judge(List.of("leader", "third"), List.of(), 5_000, 5_100)).isEqualTo(INSTALL);
        assertThat(third.judge(List.of("unheard", "leader", "third"), List.of(), 5_000, 5_100)).as("a merge led by another")
                .isEqualTo(INSTALL);
        assertThat(third.judge(List.of(), List.of("unheard"), 5_000, 5_100)).as("a delta view removing another")
                .isEqualTo(INSTALL);
    }

    @Test
    void theCoordinatorItselfAndAMemberWithoutAViewFollowEveryView() {
        CoordinatorLoyalty<String> leader = new CoordinatorLoyalty<>("leader", SILENCE);
        leader.viewInstalled("leader");
        CoordinatorLoyalty<String> joining = new CoordinatorLoyalty<>("joining", SILENCE);

        assertThat(leader.judge(List.of("third"), List.of(), NEVER, 5_100)).isEqualTo(INSTALL);
        assertThat(joining.judge(List.of("third", "joining"), List.of(), NEVER, 5_100)).isEqualTo(INSTALL);
    }
}
