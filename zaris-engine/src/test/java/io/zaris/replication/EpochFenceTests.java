package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class EpochFenceTests {

    @Test
    void highestEpochNeverGoesBackwards() {
        EpochFence fence = new EpochFence(2);
        assertThat(fence.observe(0, 5)).isEqualTo(5);
        assertThat(fence.observe(0, 3)).isEqualTo(5);
        assertThat(fence.highest(0)).isEqualTo(5);
        assertThat(fence.highest(1)).isZero();
    }

    @Test
    void anOlderEpochIsStaleAndTheCurrentOneIsNot() {
        EpochFence fence = new EpochFence(1);
        fence.observe(0, 4);
        assertThat(fence.isStale(0, 3)).isTrue();
        assertThat(fence.isStale(0, 4)).isFalse();
        assertThat(fence.isStale(0, 5)).isFalse();
    }
}
