package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.SegmentDigest;
import io.zaris.model.AckMode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The checker's replica comparison on synthetic copies: equal copies pass, a diverged replica fails the run naming
 * partition, segment and nodes, and a copy nobody could fetch fails it too.
 */
@Tag("unit")
class ReplicaCheckTests {

    private static final List<SegmentDigest> ACTIVE = List.of(new SegmentDigest(16, 3, 40, 0x1234),
            new SegmentDigest(17, 5, 41, 0x5678));
    private final History cleanHistory = new HistoryBuilder(AckMode.SYNC)
            .put(0, "w0-1", "w0:0", 1, 2)
            .readAfterHealing("w0-1", "w0:0", 10, 11)
            .build();

    @Test
    void copiesEqualToTheirActivesPassAndAreCounted() {
        ReplicaCopies copies = new ReplicaCopies(List.of(partition(Map.of("n1", ACTIVE, "n2", ACTIVE, "n3", ACTIVE))));

        Verdict verdict = Checker.check(cleanHistory, copies);

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.segmentCopiesCompared()).isEqualTo(4);
        assertThat(ReplicaCheck.converged(copies)).isTrue();
    }

    @Test
    void aDivergedReplicaFailsTheRunNamingPartitionSegmentAndNodes() {
        // n3 lacks one key of segment 17: same revision, one key fewer, another digest.
        List<SegmentDigest> diverged = List.of(ACTIVE.get(0), new SegmentDigest(17, 4, 41, 0x9abc));
        ReplicaCopies copies = new ReplicaCopies(List.of(partition(Map.of("n1", ACTIVE, "n2", ACTIVE, "n3", diverged))));

        Verdict verdict = Checker.check(cleanHistory, copies);

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.kind()).isEqualTo(Finding.Kind.DIVERGED_REPLICA);
            assertThat(finding.key()).isEqualTo("partition 1 segment 17");
            assertThat(finding.detail()).contains("n1 (active) holds 5 key(s)").contains("n3 holds 4 key(s)");
        });
        assertThat(ReplicaCheck.converged(copies)).isFalse();
    }

    @Test
    void aReplicaWithTheSameKeyCountButOtherContentIsDiverged() {
        List<SegmentDigest> otherValue = List.of(new SegmentDigest(16, 3, 40, 0x1235), ACTIVE.get(1));
        ReplicaCopies copies = new ReplicaCopies(List.of(partition(Map.of("n1", ACTIVE, "n2", otherValue, "n3", ACTIVE))));

        assertThat(Checker.check(cleanHistory, copies).of(Finding.Kind.DIVERGED_REPLICA)).singleElement()
                .satisfies(finding -> assertThat(finding.key()).isEqualTo("partition 1 segment 16"));
    }

    @Test
    void anOwnerThatDidNotAnswerIsAnUncomparedCopyNotAPass() {
        ReplicaCopies copies = new ReplicaCopies(List.of(partition(Map.of("n1", ACTIVE, "n2", ACTIVE))));

        Verdict verdict = Checker.check(cleanHistory, copies);

        assertThat(verdict.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.kind()).isEqualTo(Finding.Kind.UNCOMPARED_REPLICA);
            assertThat(finding.detail()).contains("n3");
        });
    }

    @Test
    void withoutTheActivesCopyTheOtherOwnersAreComparedWithEachOtherAndTheGapIsFlagged() {
        List<SegmentDigest> diverged = List.of(ACTIVE.get(0), new SegmentDigest(17, 5, 41, 1));
        ReplicaCopies copies = new ReplicaCopies(List.of(partition(Map.of("n2", ACTIVE, "n3", diverged))));

        Verdict verdict = Checker.check(cleanHistory, copies);

        assertThat(verdict.of(Finding.Kind.UNCOMPARED_REPLICA)).singleElement()
                .satisfies(finding -> assertThat(finding.detail()).contains("n1"));
        assertThat(verdict.of(Finding.Kind.DIVERGED_REPLICA)).singleElement()
                .satisfies(finding -> assertThat(finding.detail()).contains("n2 holds").contains("n3 holds"));
    }

    @Test
    void aSyntheticHistoryWithoutCopiesComparesNothing() {
        assertThat(Checker.check(cleanHistory).segmentCopiesCompared()).isZero();
    }

    /** Partition 1, active n1, owners n1, n2, n3. */
    private static ReplicaCopies.PartitionCopies partition(Map<String, List<SegmentDigest>> byNode) {
        return new ReplicaCopies.PartitionCopies(1, "n1", List.of("n1", "n2", "n3"), byNode);
    }
}
