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
import org.junit.jupiter.api.Test;

class NodeReadinessTests {

    @Test
    void readyNeedsAMapAMajorityServingActivePartitionsAndSyncedLinks() {
        ClusterView view = view(new PartitionRuntime("n1", 1, PartitionHealth.HEALTHY),
                new PartitionRuntime("n2", 1, PartitionHealth.DEGRADED));
        assertThat(NodeReadiness.evaluate("n1", null, true, p -> false, true))
                .isEqualTo(new NodeReadiness(false, "no partition map yet"));
        assertThat(NodeReadiness.evaluate("n1", view, false, p -> false, true).ready()).isFalse();
        assertThat(NodeReadiness.evaluate("n1", view, true, p -> p == 0, true))
                .isEqualTo(new NodeReadiness(false, "0 partitions recovering, 1 catching up"));
        assertThat(NodeReadiness.evaluate("n1", view, true, p -> false, false).ready()).isFalse();
        assertThat(NodeReadiness.evaluate("n1", view, true, p -> false, true)).isEqualTo(NodeReadiness.READY);
        // another node's partition catching up is not this node's concern
        assertThat(NodeReadiness.evaluate("n1", view, true, p -> p == 1, true)).isEqualTo(NodeReadiness.READY);
    }

    @Test
    void aRecoveringActivePartitionIsNotReadyAndANodeWithoutRolesIs() {
        ClusterView view = view(new PartitionRuntime("n1", 2, PartitionHealth.RECOVERING),
                new PartitionRuntime("n2", 1, PartitionHealth.HEALTHY));
        assertThat(NodeReadiness.evaluate("n1", view, true, p -> false, true))
                .isEqualTo(new NodeReadiness(false, "1 partitions recovering, 0 catching up"));
        assertThat(NodeReadiness.evaluate("n3", view, true, p -> false, true)).isEqualTo(NodeReadiness.READY);
    }

    private static ClusterView view(PartitionRuntime... runtimes) {
        PartitionLayout layout = PartitionLayout.of(2, 2);
        PartitionMap owners = new PartitionMap(1, 2, List.of(List.of("n1", "n2"), List.of("n2", "n1")));
        return new ClusterView(layout, owners, new RuntimeMap(List.of(runtimes)),
                Map.of("n1", new NodeAddress("127.0.0.1", 7101), "n2", new NodeAddress("127.0.0.1", 7102)));
    }
}
