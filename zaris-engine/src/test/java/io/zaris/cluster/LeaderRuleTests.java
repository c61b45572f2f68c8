package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class LeaderRuleTests {

    @Test
    void onlyTheCoordinatorOfAMajorityViewLeads() {
        assertThat(LeaderRule.isLeader(true, 2, 3)).isTrue();
        assertThat(LeaderRule.isLeader(true, 1, 3)).isFalse();
        assertThat(LeaderRule.isLeader(false, 3, 3)).isFalse();
        assertThat(LeaderRule.isLeader(true, 2, 4)).isFalse();
        assertThat(LeaderRule.isLeader(true, 1, 1)).isTrue();
    }

    @Test
    void initialMapWaitsForEveryExpectedMemberToAnnounceItself() {
        assertThat(LeaderRule.shouldComputeInitialMap(true, false, 3, 3, 3, false)).isTrue();
        assertThat(LeaderRule.shouldComputeInitialMap(true, false, 2, 3, 3, false)).isFalse();
        assertThat(LeaderRule.shouldComputeInitialMap(true, false, 2, 2, 3, false)).isFalse();
        assertThat(LeaderRule.shouldComputeInitialMap(true, true, 3, 3, 3, false)).isFalse();
        assertThat(LeaderRule.shouldComputeInitialMap(false, false, 3, 3, 3, false)).isFalse();
    }

    @Test
    void aLeaderWithoutAMapNeverFoundsANewClusterBesideAMemberThatHoldsOne() {
        assertThat(LeaderRule.shouldComputeInitialMap(true, false, 3, 3, 3, true)).isFalse();
        assertThat(LeaderRule.shouldComputeInitialMap(true, false, 4, 4, 3, true)).isFalse();
    }

    @Test
    void aShortCountIsOnlyAwaitedHellosWhenCountingThoseMembersWouldMakeAMajority() {
        // A restarted node adopted the map before its two peers' hellos arrived: 1 counted, 2 to come, of 3.
        assertThat(LeaderRule.mayOnlyAwaitHellos(1, 2, 3)).isTrue();
        assertThat(LeaderRule.mayOnlyAwaitHellos(1, 1, 3)).isTrue();
        // Alone in the view, or the missing members would still be no majority: a real loss.
        assertThat(LeaderRule.mayOnlyAwaitHellos(1, 0, 3)).isFalse();
        assertThat(LeaderRule.mayOnlyAwaitHellos(1, 1, 5)).isFalse();
        assertThat(LeaderRule.mayOnlyAwaitHellos(0, 2, 5)).isFalse();
    }
}
