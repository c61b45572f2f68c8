package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

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
}
