package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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

    private static ClusterView view(long version, long epoch0, long epoch1) {
        PartitionMap map = new PartitionMap(version, 1, List.of(List.of("a"), List.of("b")));
        RuntimeMap runtime = new RuntimeMap(List.of(new PartitionRuntime("a", epoch0, PartitionHealth.HEALTHY),
                new PartitionRuntime("b", epoch1, PartitionHealth.HEALTHY)));
        return new ClusterView(PartitionLayout.of(2, 2), map, runtime,
                Map.of("a", new NodeAddress("127.0.0.1", 1), "b", new NodeAddress("127.0.0.1", 2)));
    }
}
