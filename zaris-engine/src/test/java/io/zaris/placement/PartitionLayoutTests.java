package io.zaris.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

@Tag("unit")
class PartitionLayoutTests {

    static Stream<Arguments> layouts() {
        List<Arguments> layouts = new ArrayList<>();
        int[] segmentCounts = {1, 2, 3, 7, 10, 64, 100, 127, 1000, 1024, 4099, 16384};
        int[] partitionCounts = {1, 2, 3, 5, 7, 64, 99, 128, 271, 1000, 1024, 4099, 16384};
        for (int segmentCount : segmentCounts) {
            for (int partitionCount : partitionCounts) {
                if (partitionCount <= segmentCount) {
                    layouts.add(Arguments.of(segmentCount, partitionCount));
                }
            }
            layouts.add(Arguments.of(segmentCount, segmentCount));
        }
        return layouts.stream().distinct();
    }

    @ParameterizedTest(name = "{0} segments in {1} partitions")
    @MethodSource("layouts")
    void everySegmentBelongsToExactlyOnePartitionInContiguousRuns(int segmentCount, int partitionCount) {
        PartitionLayout layout = PartitionLayout.of(segmentCount, partitionCount);

        int previous = 0;
        for (int segment = 0; segment < segmentCount; segment++) {
            int partition = layout.partitionOf(segment);
            assertThat(partition).isBetween(previous, previous + 1).isLessThan(partitionCount);
            assertThat(segment).isBetween(layout.firstSegmentOf(partition), layout.lastSegmentOf(partition));
            previous = partition;
        }
        assertThat(layout.partitionOf(segmentCount - 1)).isEqualTo(partitionCount - 1);
    }

    @ParameterizedTest(name = "{0} segments in {1} partitions")
    @MethodSource("layouts")
    void runsTileAllSegmentsAndDifferInLengthByAtMostOne(int segmentCount, int partitionCount) {
        PartitionLayout layout = PartitionLayout.of(segmentCount, partitionCount);
        int shortest = segmentCount / partitionCount;

        int next = 0;
        for (int partition = 0; partition < partitionCount; partition++) {
            int first = layout.firstSegmentOf(partition);
            int last = layout.lastSegmentOf(partition);
            assertThat(first).isEqualTo(next);
            assertThat(last - first + 1).isBetween(shortest, shortest + 1);
            assertThat(layout.partitionOf(first)).isEqualTo(partition);
            assertThat(layout.partitionOf(last)).isEqualTo(partition);
            next = last + 1;
        }
        assertThat(next).isEqualTo(segmentCount);
    }

    @Test
    void defaultsAre1024SegmentsIn128Partitions() {
        assertThat(PartitionLayout.DEFAULT_SEGMENT_COUNT).isEqualTo(1024);
        assertThat(PartitionLayout.DEFAULT_PARTITION_COUNT).isEqualTo(128);
        assertThat(PartitionLayout.defaults()).isEqualTo(PartitionLayout.of(1024, 128));
        assertThat(PartitionLayout.defaults().firstSegmentOf(1)).isEqualTo(8);
    }

    @Test
    void layoutIsAValue() {
        assertThat(PartitionLayout.of(64, 8)).isEqualTo(PartitionLayout.of(64, 8))
                .hasSameHashCodeAs(PartitionLayout.of(64, 8))
                .isNotEqualTo(PartitionLayout.of(64, 16))
                .isNotEqualTo(PartitionLayout.of(32, 8));
        assertThat(PartitionLayout.of(64, 8)).hasToString("PartitionLayout[segmentCount=64, partitionCount=8]");
    }

    @ParameterizedTest(name = "of({0}, {1})")
    @CsvSource({"0, 1", "-1, 1", "16385, 1", "10, 0", "10, -3", "10, 11", "1, 2"})
    void ofRejectsCountsOutsideOneToSegmentCountToSlotCount(int segmentCount, int partitionCount) {
        assertThatThrownBy(() -> PartitionLayout.of(segmentCount, partitionCount))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Count must be between 1 and");
    }

    @Test
    void indexesOutsideTheLayoutAreRejectedWithContext() {
        PartitionLayout layout = PartitionLayout.of(16, 4);

        assertThatThrownBy(() -> layout.partitionOf(16)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("segment 16 is outside 0..15");
        assertThatThrownBy(() -> layout.partitionOf(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> layout.firstSegmentOf(4)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("partition 4 is outside 0..3");
        assertThatThrownBy(() -> layout.lastSegmentOf(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
