package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class DeploymentMemoryTests {

    private static final RecommendedOccupancy FORTY = new RecommendedOccupancy(0.40, "the heap", "test");
    private static final RecommendedOccupancy SIXTY = new RecommendedOccupancy(0.60, "the heap", "test");
    private static final RecommendedOccupancy THREE_QUARTERS = new RecommendedOccupancy(0.75, "memory", "test");

    @Test
    void aDeploymentProvidesTheDataDividedByTheRecommendedOccupancy() {
        assertThat(DeploymentMemory.needed(286, FORTY)).isCloseTo(715, within(1e-9));
        assertThat(DeploymentMemory.needed(224, SIXTY)).isCloseTo(373.333, within(1e-3));
        assertThat(DeploymentMemory.needed(205, THREE_QUARTERS)).isCloseTo(273.333, within(1e-3));
        assertThat(DeploymentMemory.needed(0, FORTY)).isZero();
        assertThat(DeploymentMemory.needed(100, new RecommendedOccupancy(1.0, "memory", "test"))).isEqualTo(100);
    }

    @Test
    void theRatioComparesTwoNeedsAndHasNoBasisAgainstNothing() {
        assertThat(DeploymentMemory.ratio(715, 273.333)).isCloseTo(2.616, within(1e-3));
        assertThat(DeploymentMemory.ratio(100, 0)).isNaN();
        assertThat(DeploymentMemory.ratio(Double.NaN, 100)).isNaN();
        assertThat(DeploymentMemory.ratio(100, Double.NaN)).isNaN();
    }

    @Test
    void anOccupancyOutsideZeroToOneOrANegativeSizeIsRefused() {
        for (double fraction : new double[] {0, -0.5, 1.01, Double.NaN}) {
            assertThatIllegalArgumentException().isThrownBy(() -> new RecommendedOccupancy(fraction, "the heap", "test"))
                    .withMessageContaining("(0, 1]");
        }
        assertThatIllegalArgumentException().isThrownBy(() -> DeploymentMemory.needed(-1, FORTY));
        assertThatIllegalArgumentException().isThrownBy(() -> DeploymentMemory.needed(Double.NaN, FORTY));
        assertThatIllegalArgumentException().isThrownBy(() -> DeploymentMemory.needed(Double.POSITIVE_INFINITY, FORTY));
    }

    @Test
    void aMemoryRowSizesItsDeploymentFromItsGrowthPerStoredCopy() {
        // 3 nodes grow by 100 + 100 + 86 MB for 1,000,000 entries kept twice: 286 bytes per entry, 143 per copy.
        MemoryReading before = new MemoryReading(List.of(10L, 10L, 10L), List.of(900L, 900L, 900L), -1);
        MemoryReading after = new MemoryReading(List.of(100_000_010L, 100_000_010L, 86_000_010L),
                List.of(900L, 900L, 900L), -1);
        MemoryRow row = new MemoryRow("Zaris ASYNC", 1_000_000, 100, 2, before, after, "heap after full GC", FORTY);
        assertThat(row.bytesPerEntry()).isCloseTo(286, within(1e-9));
        assertThat(row.bytesPerCopy()).isCloseTo(143, within(1e-9));
        assertThat(row.deploymentBytesPerCopy()).isCloseTo(357.5, within(1e-9));
        assertThat(after.residentTotal()).isEqualTo(2700);
    }

    @Test
    void aSystemReportedFigureLargerThanTheGrowthSizesTheDeployment() {
        // The nodes grew by 218 bytes per copy but charge 270 against their budgets: the budget evicts on 270.
        MemoryReading before = new MemoryReading(List.of(0L), List.of(900L), 0);
        MemoryReading charged = new MemoryReading(List.of(436_000_000L), List.of(900L), 540_000_000L);
        MemoryRow zaris = new MemoryRow("Zaris ASYNC", 1_000_000, 100, 2, before, charged, "heap after full GC", FORTY);
        assertThat(zaris.sizingBytesPerCopy()).isCloseTo(270, within(1e-9));
        assertThat(zaris.deploymentBytesPerCopy()).isCloseTo(675, within(1e-9));
        // A smaller self-reported figure (Hazelcast's entry cost below its heap growth) leaves the growth.
        MemoryReading smaller = new MemoryReading(List.of(528_000_000L), List.of(900L), 468_000_000L);
        MemoryRow hazelcast = new MemoryRow("Hazelcast", 1_000_000, 100, 2, before, smaller, "heap after full GC", SIXTY);
        assertThat(hazelcast.sizingBytesPerCopy()).isCloseTo(264, within(1e-9));
        assertThat(hazelcast.deploymentBytesPerCopy()).isCloseTo(440, within(1e-9));
    }

    @Test
    void aRowWhoseNodesDidNotGrowHasNoDeploymentFigure() {
        MemoryReading same = new MemoryReading(List.of(50L), List.of(900L), -1);
        MemoryRow row = new MemoryRow("Redis Cluster", 1000, 100, 1, same, same, "used_memory", THREE_QUARTERS);
        assertThat(row.deploymentBytesPerCopy()).isNaN();
    }

    @Test
    void aReadingNeedsTheResidentMemoryOfEveryNode() {
        assertThatIllegalArgumentException().isThrownBy(() -> new MemoryReading(List.of(1L, 2L), List.of(1L), -1))
                .withMessageContaining("2 nodes");
    }
}
