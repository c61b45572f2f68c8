package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
class HandOverTests {

    /** Partition 0 is owned by a (primary) and b, partition 1 by b (primary) and c. */
    private final ClusterView held = new ClusterView(PartitionLayout.of(2, 2),
            new PartitionMap(3, 2, List.of(List.of("a", "b"), List.of("b", "c"))),
            new RuntimeMap(List.of(new PartitionRuntime("b", 7, PartitionHealth.DEGRADED),
                    new PartitionRuntime("b", 4, PartitionHealth.HEALTHY))),
            Map.of("a", new NodeAddress("127.0.0.1", 1), "b", new NodeAddress("127.0.0.1", 2),
                    "c", new NodeAddress("127.0.0.1", 3)));

    @Test
    void handingBackToThePrimaryMakesThePartitionHealthyUnderTheNextEpoch() {
        HandOver.Decision decision = HandOver.decide(held, 0, "a");

        assertThat(decision.before()).isEqualTo(held.runtimeMap().get(0));
        assertThat(decision.after()).isEqualTo(new PartitionRuntime("a", 8, PartitionHealth.HEALTHY));
        assertThat(decision.next().runtimeMap().get(0)).isEqualTo(decision.after());
        assertThat(decision.next().runtimeMap().get(1)).as("other partitions").isEqualTo(held.runtimeMap().get(1));
        assertThat(decision.next().partitionMap()).as("only the runtime map moves").isEqualTo(held.partitionMap());
    }

    @Test
    void handingToAnotherOwnerLeavesThePartitionDegraded() {
        assertThat(HandOver.decide(held, 1, "c").after()).isEqualTo(new PartitionRuntime("c", 5, PartitionHealth.DEGRADED));
    }

    @Test
    void aNodeThatIsNotAssignedThePartitionIsRefusedWithItsOwners() {
        assertThatThrownBy(() -> HandOver.decide(held, 1, "a")).isInstanceOf(IllegalStateException.class)
                .hasMessage("node a is not assigned partition 1 (owners [b, c])");
    }
}
