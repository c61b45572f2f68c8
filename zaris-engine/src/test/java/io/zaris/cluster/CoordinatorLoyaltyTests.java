package io.zaris.cluster;

import static io.zaris.cluster.CoordinatorLoyalty.Verdict.INSTALL;
import static io.zaris.cluster.CoordinatorLoyalty.Verdict.WAIT_FOR_SUSPICION;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class CoordinatorLoyaltyTests {

    /** "third"'s view, led by "leader"; "unheard" is the node whose packets to the leader are dropped. */
    private final CoordinatorLoyalty<String> third = new CoordinatorLoyalty<>("third");

    @Test
    void aViewWithoutTheCoordinatorThisMemberStillHearsWaitsForASuspicion() {
        third.viewInstalled("leader");

        assertThat(third.judge(List.of("unheard", "third"), List.of())).isEqualTo(WAIT_FOR_SUSPICION);
        assertThat(third.judge(List.of(), List.of("leader"))).as("a delta view removing it").isEqualTo(WAIT_FOR_SUSPICION);
    }

    @Test
    void onceThisMemberSuspectsItsCoordinatorTheViewIsInstalled() {
        third.viewInstalled("leader");

        assertThat(third.suspected(List.of("unheard"))).as("not the coordinator").isFalse();
        assertThat(third.judge(List.of("unheard", "third"), List.of())).isEqualTo(WAIT_FOR_SUSPICION);
        assertThat(third.suspected(List.of("leader"))).as("the coordinator").isTrue();
        assertThat(third.judge(List.of("unheard", "third"), List.of())).isEqualTo(INSTALL);
    }

    @Test
    void aCoordinatorThatAnsweredAfterAllIsFollowedAgain() {
        third.viewInstalled("leader");
        third.suspected(List.of("leader"));
        third.unsuspected("leader");

        assertThat(third.judge(List.of("unheard", "third"), List.of())).isEqualTo(WAIT_FOR_SUSPICION);
    }

    @Test
    void suspicionsEndWithTheViewTheyWereMadeIn() {
        third.viewInstalled("leader");
        third.suspected(List.of("leader"));
        third.viewInstalled("leader"); // the leader stayed: the suspicion was wrong

        assertThat(third.judge(List.of("unheard", "third"), List.of())).isEqualTo(WAIT_FOR_SUSPICION);
        assertThat(third.suspectedMembers()).isEmpty();
    }

    @Test
    void viewsThatKeepTheCoordinatorAreInstalledAtOnce() {
        third.viewInstalled("leader");

        assertThat(third.judge(List.of("leader", "third"), List.of())).isEqualTo(INSTALL);
        assertThat(third.judge(List.of("unheard", "leader", "third"), List.of())).as("a merge led by another").isEqualTo(INSTALL);
        assertThat(third.judge(List.of(), List.of("unheard"))).as("a delta view removing another").isEqualTo(INSTALL);
    }

    @Test
    void theCoordinatorItselfAndAMemberWithoutAViewFollowEveryView() {
        CoordinatorLoyalty<String> leader = new CoordinatorLoyalty<>("leader");
        leader.viewInstalled("leader");
        CoordinatorLoyalty<String> joining = new CoordinatorLoyalty<>("joining");

        assertThat(leader.judge(List.of("third"), List.of())).isEqualTo(INSTALL);
        assertThat(joining.judge(List.of("third", "joining"), List.of())).isEqualTo(INSTALL);
    }
}
