package io.zaris.server;

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
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class AdoptedRolesTests {

    @Test
    void theFenceRisesToTheViewsEpochsAndPastAnInheritedRole() {
        ClusterView adopted = view(active("a", 4), active("b", 2), active("a", 7), active("c", 1));

        assertThat(AdoptedRoles.fenceEpochs(adopted, Map.of())).containsExactly(4, 2, 7, 1);
        assertThat(AdoptedRoles.fenceEpochs(adopted, Map.of(0, 4L, 2, 7L))).containsExactly(5, 2, 8, 1);
    }

    @Test
    void aFirstMapMarksEveryRoleTheNodeServes() {
        ClusterView first = view(active("a", 1), active("b", 1), active("a", 1),
                new PartitionRuntime("a", 1, PartitionHealth.RECOVERING));

        assertThat(AdoptedRoles.keptRolesComplete("a", null, first, List.of(), Map.of(), p -> false))
                .containsExactly(Map.entry(0, 1L), Map.entry(2, 1L));
    }

    @Test
    void aRoleKeptUnderANewEpochIsMarkedAndAnUnchangedOneIsNot() {
        ClusterView held = view(active("a", 3), active("b", 3), active("a", 3), active("c", 3));
        ClusterView adopted = view(active("a", 4), active("b", 4), active("a", 3), active("c", 3));

        assertThat(AdoptedRoles.keptRolesComplete("a", held, adopted, List.of(), Map.of(), p -> false))
                .containsExactly(Map.entry(0, 4L));
    }

    @Test
    void takenOverInheritedAndCatchingUpRolesWaitForTheirCatchUp() {
        ClusterView held = view(active("b", 3), active("a", 3), active("a", 3), active("c", 3));
        ClusterView adopted = view(active("a", 4), active("a", 4), active("a", 4), active("a", 4));
        Set<Integer> catchingUp = Set.of(2);

        assertThat(AdoptedRoles.keptRolesComplete("a", held, adopted, List.of(0), Map.of(3, 4L), catchingUp::contains))
                .containsExactly(Map.entry(1, 4L));
    }

    @Test
    void aFinishedTakeoverIsMarkedUnderTheNewestEpochTheNodeStillServesBy() {
        ClusterView movedOn = view(active("a", 9), active("b", 9), active("a", 2), active("c", 1));

        assertThat(AdoptedRoles.takeoverCompleteEpoch("a", 5, movedOn, 0)).isEqualTo(9);
        assertThat(AdoptedRoles.takeoverCompleteEpoch("a", 5, movedOn, 1)).isEqualTo(5);
        assertThat(AdoptedRoles.takeoverCompleteEpoch("a", 5, movedOn, 2)).isEqualTo(5);
        assertThat(AdoptedRoles.takeoverCompleteEpoch("a", 5, null, 0)).isEqualTo(5);
    }

    private static PartitionRuntime active(String node, long epoch) {
        return new PartitionRuntime(node, epoch, PartitionHealth.HEALTHY);
    }

    private static ClusterView view(PartitionRuntime... runtimes) {
        PartitionMap map = new PartitionMap(1, 2, List.of(List.of("a", "b"), List.of("b", "a"), List.of("a", "c"),
                List.of("c", "a")));
        return new ClusterView(PartitionLayout.of(4, 4), map, new RuntimeMap(List.of(runtimes)),
                Map.of("a", new NodeAddress("127.0.0.1", 1), "b", new NodeAddress("127.0.0.1", 2),
                        "c", new NodeAddress("127.0.0.1", 3)));
    }
}
