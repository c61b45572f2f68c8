package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.cluster.PartitionTransitions.Trigger;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import org.junit.jupiter.api.Test;

/** The table of legal runtime changes and the epoch rule, one case per row and per refusal. */
class PartitionTransitionsTests {

    private static final PartitionRuntime HEALTHY_ON_A = new PartitionRuntime("a", 4, PartitionHealth.HEALTHY);
    private static final PartitionRuntime DEGRADED_ON_B = new PartitionRuntime("b", 6, PartitionHealth.DEGRADED);
    private static final PartitionRuntime RECOVERING_ON_B = new PartitionRuntime("b", 6, PartitionHealth.RECOVERING);

    @Test
    void losingAReplicaKeepsTheActiveServingDegradedUnderANewEpoch() {
        assertThat(PartitionTransitions.change(0, HEALTHY_ON_A, Trigger.LOSE_REPLICA, "a", PartitionHealth.DEGRADED, 4))
                .isEqualTo(new PartitionRuntime("a", 5, PartitionHealth.DEGRADED));
        assertThat(PartitionTransitions.change(0, HEALTHY_ON_A, Trigger.LOSE_REPLICA, "a", PartitionHealth.DEGRADED, 9))
                .as("above the highest epoch any node reported").isEqualTo(new PartitionRuntime("a", 10, PartitionHealth.DEGRADED));
    }

    @Test
    void aPromotionServesDegradedRecoversOrFindsNobody() {
        assertThat(PartitionTransitions.change(1, HEALTHY_ON_A, Trigger.PROMOTE, "b", PartitionHealth.DEGRADED, 0))
                .isEqualTo(new PartitionRuntime("b", 5, PartitionHealth.DEGRADED));
        assertThat(PartitionTransitions.change(1, DEGRADED_ON_B, Trigger.PROMOTE, "c", PartitionHealth.RECOVERING, 0).health())
                .isEqualTo(PartitionHealth.RECOVERING);
        assertThat(PartitionTransitions.change(1, DEGRADED_ON_B, Trigger.PROMOTE, null, PartitionHealth.UNAVAILABLE, 0))
                .isEqualTo(new PartitionRuntime(null, 7, PartitionHealth.UNAVAILABLE));
    }

    @Test
    void onlyARecoveringOwnerRecoversAndOnlyADegradedPartitionHeals() {
        assertThat(PartitionTransitions.change(2, RECOVERING_ON_B, Trigger.RECOVERED, "b", PartitionHealth.DEGRADED, 6))
                .isEqualTo(new PartitionRuntime("b", 7, PartitionHealth.DEGRADED));
        assertThat(PartitionTransitions.change(2, DEGRADED_ON_B, Trigger.HEAL, "a", PartitionHealth.HEALTHY, 0))
                .isEqualTo(new PartitionRuntime("a", 7, PartitionHealth.HEALTHY));
        assertThatThrownBy(() -> PartitionTransitions.change(2, RECOVERING_ON_B, Trigger.HEAL, "a", PartitionHealth.HEALTHY, 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("partition 2: HEAL cannot change RECOVERING on b (epoch 6) to HEALTHY on a");
        assertThatThrownBy(() -> PartitionTransitions.change(2, HEALTHY_ON_A, Trigger.RECOVERED, "a", PartitionHealth.DEGRADED, 0))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRemapKeepsALiveActiveServingOrLeavesThePartitionToAFailover() {
        assertThat(PartitionTransitions.change(3, HEALTHY_ON_A, Trigger.REMAP, "a", PartitionHealth.DEGRADED, 8))
                .isEqualTo(new PartitionRuntime("a", 9, PartitionHealth.DEGRADED));
        assertThat(PartitionTransitions.change(3, HEALTHY_ON_A, Trigger.REMAP, null, PartitionHealth.UNAVAILABLE, 0))
                .isEqualTo(new PartitionRuntime(null, 5, PartitionHealth.UNAVAILABLE));
        assertThatThrownBy(() -> PartitionTransitions.change(3, DEGRADED_ON_B, Trigger.REMAP, "b", PartitionHealth.HEALTHY, 0))
                .as("only a heal makes a partition healthy").isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aHandOverGoesToItsTargetHealthyOnlyOnThePrimary() {
        assertThat(PartitionTransitions.change(4, DEGRADED_ON_B, Trigger.HAND_OVER, "a", PartitionHealth.HEALTHY, 0))
                .isEqualTo(new PartitionRuntime("a", 7, PartitionHealth.HEALTHY));
        assertThatThrownBy(() -> PartitionTransitions.change(4, DEGRADED_ON_B, Trigger.HAND_OVER, "a",
                PartitionHealth.UNAVAILABLE, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aServingHealthNeedsAnOwnerAndUnavailableHasNone() {
        assertThatThrownBy(() -> PartitionTransitions.change(5, HEALTHY_ON_A, Trigger.PROMOTE, null, PartitionHealth.DEGRADED, 0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("to DEGRADED on null");
        assertThatThrownBy(() -> PartitionTransitions.change(5, HEALTHY_ON_A, Trigger.PROMOTE, "b", PartitionHealth.UNAVAILABLE, 0))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void epochsNeverGoBackOrWrapAround() {
        PartitionRuntime last = new PartitionRuntime("a", Long.MAX_VALUE, PartitionHealth.HEALTHY);
        assertThatThrownBy(() -> PartitionTransitions.change(6, last, Trigger.LOSE_REPLICA, "a", PartitionHealth.DEGRADED, 0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("epoch would not increase");
    }
}
