package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How pushes, hints and fetched maps combine: nothing older or equal ever replaces what the client holds. */
class ClientViewsTests {

    private static final PartitionLayout LAYOUT = PartitionLayout.of(16, 4);
    private static final NodeAddress A = new NodeAddress("127.0.0.1", 7001);
    private static final NodeAddress B = new NodeAddress("127.0.0.1", 7002);

    private final ClusterView held = view(1, 5);

    @Test
    void aNewerEventReplacesOnlyItsPartition() {
        ClusterView applied = ClientViews.apply(held, event(2, "b", 6, B));

        assertThat(applied.runtimeMap().get(2)).isEqualTo(new PartitionRuntime("b", 6, PartitionHealth.HEALTHY));
        assertThat(applied.runtimeMap().get(1)).isEqualTo(held.runtimeMap().get(1));
        assertThat(applied.partitionMap()).isSameAs(held.partitionMap());
    }

    @Test
    void anEventWithTheSameEpochIsNotApplied() {
        assertThat(ClientViews.apply(held, event(2, "b", 5, B))).isNull();
    }

    @Test
    void aStaleEventIsNotApplied() {
        assertThat(ClientViews.apply(held, event(2, "b", 4, B))).isNull();
    }

    @Test
    void anEventForAPartitionTheViewDoesNotHaveIsNotApplied() {
        assertThat(ClientViews.apply(held, event(LAYOUT.partitionCount(), "b", 9, B))).isNull();
        assertThat(ClientViews.apply(held, event(-1, "b", 9, B))).isNull();
    }

    @Test
    void aNewerEventNamingANewAddressUpdatesIt() {
        NodeAddress moved = new NodeAddress("127.0.0.1", 7999);
        assertThat(ClientViews.apply(held, event(0, "b", 6, moved)).addresses()).containsEntry("b", moved);
    }

    @Test
    void aFetchedMapOfTheSameVersionKeepsTheHigherEpochPerPartition() {
        List<PartitionRuntime> runtimes = new ArrayList<>(held.runtimeMap().partitions());
        runtimes.set(0, new PartitionRuntime("b", 7, PartitionHealth.HEALTHY)); // newer than held
        runtimes.set(1, new PartitionRuntime("b", 4, PartitionHealth.HEALTHY)); // stale
        runtimes.set(2, new PartitionRuntime("b", 5, PartitionHealth.DEGRADED)); // equal epoch
        ClusterView fetched = held.withRuntimeMap(new RuntimeMap(runtimes));

        ClusterView merged = ClientViews.merge(held, fetched);

        assertThat(merged.runtimeMap().get(0).epoch()).isEqualTo(7);
        assertThat(merged.runtimeMap().get(1)).isEqualTo(held.runtimeMap().get(1));
        assertThat(merged.runtimeMap().get(2)).as("an equal epoch keeps what is held").isEqualTo(held.runtimeMap().get(2));
    }

    @Test
    void aFetchedMapOfAnOlderVersionNeverRollsTheViewBack() {
        ClusterView newer = view(2, 1);
        assertThat(ClientViews.merge(newer, view(1, 9))).isSameAs(newer);
        assertThat(ClientViews.merge(view(1, 9), newer)).isSameAs(newer);
    }

    private static RuntimeOwnershipChangedEvent event(int partition, String node, long epoch, NodeAddress address) {
        return new RuntimeOwnershipChangedEvent(partition, new PartitionRuntime(node, epoch, PartitionHealth.HEALTHY), address);
    }

    @Test
    void aMapComputedAnewAfterEveryNodeRestartedReplacesAnOlderClustersHigherVersion() {
        ClusterView before = founded(view(15, 30), "a-1", "b-1");
        ClusterView refounded = founded(view(1, 2), "a-2", "b-2");

        assertThat(ClientViews.refounded(before, refounded)).isTrue();
        assertThat(ClientViews.merge(before, refounded)).isSameAs(refounded);
        assertThat(ClientViews.merge(before, founded(view(1, 2), "a-1", "b-1"))).as("same cluster, older map")
                .isSameAs(before);
        assertThat(ClientViews.refounded(view(15, 30), refounded)).as("founders unknown").isFalse();
    }

    private static ClusterView founded(ClusterView view, String incarnationOfA, String incarnationOfB) {
        return new ClusterView(view.layout(), view.partitionMap(), view.runtimeMap(), view.addresses(), null,
                Map.of("a", incarnationOfA, "b", incarnationOfB));
    }

    private static ClusterView view(long mapVersion, long epoch) {
        List<List<String>> owners = new ArrayList<>();
        List<PartitionRuntime> runtimes = new ArrayList<>();
        for (int p = 0; p < LAYOUT.partitionCount(); p++) {
            owners.add(List.of("a", "b"));
            runtimes.add(new PartitionRuntime("a", epoch, PartitionHealth.HEALTHY));
        }
        return new ClusterView(LAYOUT, new PartitionMap(mapVersion, 2, owners), new RuntimeMap(runtimes),
                Map.of("a", A, "b", B));
    }
}
