package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ViewOrderingTests {

    @Test
    void higherMapVersionWins() {
        assertThat(ViewOrdering.isAtLeastAsNew(view(2, 1, 1), view(1, 5, 5))).isTrue();
        assertThat(ViewOrdering.isAtLeastAsNew(view(1, 5, 5), view(2, 1, 1))).isFalse();
    }

    @Test
    void sameVersionIsAcceptedOnlyWithoutAnyEpochGoingBackwards() {
        assertThat(ViewOrdering.isAtLeastAsNew(view(1, 1, 1), view(1, 1, 1))).isTrue();
        assertThat(ViewOrdering.isAtLeastAsNew(view(1, 2, 1), view(1, 1, 1))).isTrue();
        assertThat(ViewOrdering.isAtLeastAsNew(view(1, 2, 1), view(1, 1, 2))).isFalse();
    }

    @Test
    void viewsNewerInDifferentPartitionsMergeToTheNewestEntryOfEach() {
        RuntimeMap merged = ViewOrdering.merge(view(1, 5, 1), view(1, 1, 7));
        assertThat(merged.get(0).epoch()).isEqualTo(5);
        assertThat(merged.get(1).epoch()).isEqualTo(7);
        assertThat(ViewOrdering.merge(view(1, 1, 7), view(1, 5, 1))).isEqualTo(merged);
    }

    @Test
    void anEqualEpochWithDifferentActivesMergesTheSameWayOnEveryNode() {
        ClusterView onA = withRuntime(view(1, 3, 3), new PartitionRuntime("b", 3, PartitionHealth.DEGRADED));
        ClusterView onB = withRuntime(view(1, 3, 3), new PartitionRuntime("c", 3, PartitionHealth.DEGRADED));
        assertThat(ViewOrdering.merge(onA, onB)).isEqualTo(ViewOrdering.merge(onB, onA));
        assertThat(ViewOrdering.merge(onA, onB).get(0).activeNode()).isEqualTo("b");
    }

    @Test
    void viewsOfDifferentMapVersionsDoNotMerge() {
        assertThat(ViewOrdering.merge(view(1, 5, 1), view(2, 1, 7))).isNull();
    }

    @Test
    void aViewAtLeastAsNewIsAdoptedWholeAndAnyViewWhenNoneIsHeld() {
        assertThat(ViewOrdering.adoption(null, view(1, 1, 1))).isEqualTo(new ViewOrdering.Adoption(view(1, 1, 1), false));
        assertThat(ViewOrdering.adoption(view(1, 1, 1), view(2, 1, 1)))
                .isEqualTo(new ViewOrdering.Adoption(view(2, 1, 1), false));
    }

    @Test
    void aConcurrentViewIsMergedAndFlaggedForRebroadcast() {
        ViewOrdering.Adoption adoption = ViewOrdering.adoption(view(1, 5, 1), view(1, 1, 7));

        assertThat(adoption.merged()).isTrue();
        assertThat(adoption.view().runtimeMap()).isEqualTo(ViewOrdering.merge(view(1, 5, 1), view(1, 1, 7)));
    }

    @Test
    void aStaleViewIsIgnored() {
        assertThat(ViewOrdering.adoption(view(2, 1, 1), view(1, 9, 9))).as("older map version").isNull();
        assertThat(ViewOrdering.adoption(view(1, 5, 7), view(1, 1, 7))).as("older in one, equal in the other").isNull();
    }

    @Test
    void changedPartitionsCountsTheEntriesThatDiffer() {
        assertThat(ViewOrdering.changedPartitions(view(1, 1, 1).runtimeMap(), view(1, 2, 1).runtimeMap())).isEqualTo(1);
        assertThat(ViewOrdering.changedPartitions(view(1, 1, 1).runtimeMap(), view(1, 1, 1).runtimeMap())).isZero();
    }

    private static ClusterView withRuntime(ClusterView view, PartitionRuntime partition0) {
        return view.withRuntimeMap(new RuntimeMap(List.of(partition0, view.runtimeMap().get(1))));
    }

    private static ClusterView view(long version, long epoch0, long epoch1) {
        PartitionMap map = new PartitionMap(version, 1, List.of(List.of("a"), List.of("b")));
        RuntimeMap runtime = new RuntimeMap(List.of(new PartitionRuntime("a", epoch0, PartitionHealth.HEALTHY),
                new PartitionRuntime("b", epoch1, PartitionHealth.HEALTHY)));
        return new ClusterView(PartitionLayout.of(2, 2), map, runtime,
                Map.of("a", new NodeAddress("127.0.0.1", 1), "b", new NodeAddress("127.0.0.1", 2)));
    }
}
