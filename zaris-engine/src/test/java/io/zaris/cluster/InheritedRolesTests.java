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
import org.junit.jupiter.api.Test;

class InheritedRolesTests {

    private static final Map<String, String> ORIGINAL_FOUNDERS = Map.of("a", "a-1", "b", "b-1", "c", "c-1");

    @Test
    void aRestartedProcessInheritsTheActiveRolesOfItsFirstView() {
        ClusterView first = view(ORIGINAL_FOUNDERS, 4, 4, 4);

        assertThat(InheritedRoles.afterAdopting(Map.of(), null, first, "a", "a-2")).containsExactly(Map.entry(0, 4L));
        assertThat(InheritedRoles.afterAdopting(Map.of(), null, first, "a", "a-1")).isEmpty();
    }

    @Test
    void anInheritedRoleEndsWhenItsEpochChanges() {
        ClusterView held = view(ORIGINAL_FOUNDERS, 4, 4, 4);
        ClusterView reassigned = view(ORIGINAL_FOUNDERS, 5, 4, 4);

        assertThat(InheritedRoles.afterAdopting(Map.of(0, 4L), held, held, "a", "a-2")).containsExactly(Map.entry(0, 4L));
        assertThat(InheritedRoles.afterAdopting(Map.of(0, 4L), held, reassigned, "a", "a-2")).isEmpty();
    }

    /**
     * A restarted process that adopted a map it founded itself (computed twice, beside a survivor's) and
     * then the survivor's: the survivor's map names it active for data its store never had.
     */
    @Test
    void switchingToAMapFoundedByOtherProcessesFindsTheInheritedRolesAgain() {
        ClusterView ownFreshMap = view(Map.of("a", "a-2", "b", "b-2", "c", "c-1"), 1, 1, 1);
        ClusterView survivorsMap = view(ORIGINAL_FOUNDERS, 6, 3, 9);

        assertThat(InheritedRoles.startsLineage(ownFreshMap, survivorsMap)).isTrue();
        assertThat(InheritedRoles.afterAdopting(Map.of(), ownFreshMap, survivorsMap, "a", "a-2"))
                .containsExactly(Map.entry(0, 6L));
        assertThat(InheritedRoles.startsLineage(survivorsMap, survivorsMap.withLeader("b"))).isFalse();
    }

    private static ClusterView view(Map<String, String> founders, long epochA, long epochB, long epochC) {
        PartitionMap map = new PartitionMap(1, 2, List.of(List.of("a", "b"), List.of("b", "c"), List.of("c", "a")));
        RuntimeMap runtime = new RuntimeMap(List.of(new PartitionRuntime("a", epochA, PartitionHealth.HEALTHY),
                new PartitionRuntime("b", epochB, PartitionHealth.HEALTHY),
                new PartitionRuntime("c", epochC, PartitionHealth.HEALTHY)));
        return new ClusterView(PartitionLayout.of(3, 3), map, runtime, Map.of("a", new NodeAddress("127.0.0.1", 1),
                "b", new NodeAddress("127.0.0.1", 2), "c", new NodeAddress("127.0.0.1", 3)), "a", founders);
    }
}
