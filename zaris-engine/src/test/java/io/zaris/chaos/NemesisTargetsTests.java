package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.chaos.LiveCopies.Partition;
import io.zaris.chaos.Nemesis.Target;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Which node the nemesis hits, on injected cluster states: never a second fault that could take down every live copy
 * of a partition (it is deferred), a single fault as before.
 */
@Tag("unit")
class NemesisTargetsTests {

    private static final List<String> NODES = List.of("n1", "n2", "n3", "n4", "n5");

    /**
     * Seed 120421's partition 23, healed back to n3 before its copy on n2 synced, beside partitions that are fully
     * redundant.
     */
    private static final List<Partition> HEALED_BACK = List.of(
            new Partition(23, List.of("n3", "n4", "n2"), "n3", false),
            new Partition(1, List.of("n1", "n2", "n5"), "n1", true),
            new Partition(2, List.of("n4", "n5", "n1"), "n4", true));

    @Test
    void killingTheBusiestOwnerWhileTheOtherLiveCopyIsCutOffIsDeferred() {
        // n3's packets to its peers are dropped (a one-way partition): killing n4 would leave partition 23 no live copy.
        List<String> healthy = List.of("n1", "n2", "n4", "n5");

        assertThat(Nemesis.chooseFixed("n4", healthy, HEALED_BACK, Set.of("n3"))).isEqualTo(new Target(null, true));
    }

    @Test
    void theSameFaultWithNothingElseImpairedIsStarted() {
        assertThat(Nemesis.chooseFixed("n4", NODES, HEALED_BACK, Set.of())).isEqualTo(new Target("n4", false));
        assertThat(Nemesis.chooseFixed("n3", NODES, HEALED_BACK, Set.of())).isEqualTo(new Target("n3", false));
    }

    @Test
    void aRandomSecondFaultHitsOnlyNodesThatLeaveEveryPartitionALiveCopy() {
        List<String> healthy = List.of("n1", "n2", "n4", "n5");
        Random random = new Random(7);

        for (int i = 0; i < 50; i++) {
            Target target = Nemesis.chooseAny(healthy, HEALED_BACK, Set.of("n3"), random);
            assertThat(target.deferred()).isFalse();
            // n4 and n2 are partition 23's other copies; n1 and n5 hold none of it, and partitions 1 and 2 keep two.
            assertThat(target.node()).isIn("n1", "n5");
        }
    }

    @Test
    void aRandomFaultThatNoNodeAllowsIsDeferred() {
        List<Partition> twoCopiesLeft = List.of(new Partition(0, List.of("n1", "n2", "n3"), "n1", false),
                new Partition(1, List.of("n4", "n5", "n2"), "n4", false));

        // n2 and n3 impaired: n1 is partition 0's last known copy, n4 partition 1's.
        assertThat(Nemesis.chooseAny(List.of("n1", "n4"), twoCopiesLeft, Set.of("n2", "n3"), new Random(1)))
                .isEqualTo(new Target(null, true));
        // n5 is not: partition 1's active n4 holds what it acknowledged.
        assertThat(Nemesis.chooseAny(List.of("n1", "n4", "n5"), twoCopiesLeft, Set.of("n2", "n3"), new Random(1)))
                .isEqualTo(new Target("n5", false));
    }

    @Test
    void aLeaderThatIsNotHealthyIsNoTargetRatherThanADeferral() {
        assertThat(Nemesis.chooseFixed("n3", List.of("n1", "n2"), HEALED_BACK, Set.of("n3")))
                .isEqualTo(new Target(null, false));
        assertThat(Nemesis.chooseFixed(null, NODES, HEALED_BACK, Set.of())).isEqualTo(new Target(null, false));
    }

    @Test
    void anIsolatedMinorityStopsShortOfTheNodeThatWouldTakeAPartitionsLastLiveCopy() {
        // Drawn: n3 then n4, two nodes. n3 alone is a single fault; with n4 too, partition 23 has no live copy left.
        assertThat(Nemesis.minority(List.of("n3", "n4", "n1", "n2", "n5"), 2, HEALED_BACK, Set.of()))
                .containsExactly("n3", "n1");
        assertThat(Nemesis.minority(List.of("n1", "n5", "n3"), 2, HEALED_BACK, Set.of())).containsExactly("n1", "n5");
        assertThat(Nemesis.minority(List.of("n4", "n2"), 2, HEALED_BACK, Set.of("n3"))).isEmpty();
    }
}
