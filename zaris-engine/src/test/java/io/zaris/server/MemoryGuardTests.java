package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The per-partition bound of the memory guard: applied only once the node is short of room, and only as far as needed. */
@Tag("unit")
class MemoryGuardTests {

    private static final long BUDGET = 1_000_000;
    private static final long SHARE = 10_000;

    @Test
    void aPartitionOverItsShareIsLeftAloneWhileTheNodeIsBelowTheMark() {
        assertThat(MemoryGuard.partitionExcess(600_000, SHARE, 740_000, BUDGET)).isZero();
        assertThat(MemoryGuard.partitionExcess(600_000, SHARE, 750_000, BUDGET)).isZero();
    }

    @Test
    void theMarkAWriteLooksAtBeforeSummingItsPartitionIsWherePartitionsStartToBeCapped() {
        assertThat(MemoryGuard.overMark(750_000, BUDGET)).as("at the mark: not over it").isZero();
        assertThat(MemoryGuard.overMark(740_000, BUDGET)).isNegative();
        assertThat(MemoryGuard.overMark(800_000, BUDGET)).isEqualTo(50_000);
        assertThat(MemoryGuard.overMark(Long.MAX_VALUE / 2, Long.MAX_VALUE)).as("no budget: never over").isNegative();
    }

    @Test
    void pastTheMarkAPartitionOverItsShareGivesBackWhatTheNodeHoldsOverTheMark() {
        assertThat(MemoryGuard.partitionExcess(600_000, SHARE, 800_000, BUDGET)).isEqualTo(50_000);
    }

    @Test
    void pastTheMarkAPartitionGivesBackNoMoreThanItHoldsOverItsShare() {
        assertThat(MemoryGuard.partitionExcess(30_000, SHARE, 990_000, BUDGET)).isEqualTo(20_000);
        assertThat(MemoryGuard.partitionExcess(9_000, SHARE, 990_000, BUDGET)).isZero();
    }

    @Test
    void aNodeWithoutABudgetNeverCapsPartitions() {
        assertThat(MemoryGuard.partitionExcess(Long.MAX_VALUE / 2, SHARE, Long.MAX_VALUE / 2, Long.MAX_VALUE)).isZero();
    }
}
