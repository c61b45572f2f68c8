package io.zaris.client;

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
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A retry waiting for its partition to be routed elsewhere: woken by the table that does it, and only by it. */
class RoutingWatchTests {

    private static final PartitionLayout LAYOUT = PartitionLayout.of(2, 2);
    private static final Map<String, NodeAddress> ADDRESSES = Map.of("a", new NodeAddress("127.0.0.1", 1),
            "b", new NodeAddress("127.0.0.1", 2));

    private final RoutingWatch watch = new RoutingWatch();
    private final AtomicReference<RoutingTable> table = new AtomicReference<>(table(
            new PartitionRuntime("a", 1, PartitionHealth.HEALTHY), new PartitionRuntime("b", 1, PartitionHealth.HEALTHY)));

    @Test
    void aNewOwnerOfThePartitionWakesTheWaiter() {
        RoutingWatch.Waiter waiter = watch.changeOf(0, RoutingWatch.Routing.of(table.get(), 0), table::get);
        assertThat(waiter.changed).isNotDone();

        publish(table(new PartitionRuntime("b", 2, PartitionHealth.DEGRADED), new PartitionRuntime("b", 1, PartitionHealth.HEALTHY)));

        assertThat(waiter.changed).isCompleted();
        assertThat(watch.waiting()).isZero();
    }

    @Test
    void aChangeOfAnotherPartitionOrOfHealthAloneLeavesTheWaiterWaiting() {
        RoutingWatch.Waiter waiter = watch.changeOf(0, RoutingWatch.Routing.of(table.get(), 0), table::get);

        publish(table(new PartitionRuntime("a", 1, PartitionHealth.DEGRADED), new PartitionRuntime("a", 2, PartitionHealth.DEGRADED)));

        assertThat(waiter.changed).isNotDone();
        watch.stopWaiting(waiter);
        assertThat(watch.waiting()).isZero();
    }

    @Test
    void aWaiterForARoutingAlreadyReplacedIsDoneAtOnce() {
        RoutingWatch.Routing old = RoutingWatch.Routing.of(table.get(), 0);
        table.set(table(new PartitionRuntime("b", 3, PartitionHealth.DEGRADED), new PartitionRuntime("b", 1, PartitionHealth.HEALTHY)));

        assertThat(watch.changeOf(0, old, table::get).changed).isCompleted();
        assertThat(watch.waiting()).isZero();
    }

    private void publish(RoutingTable next) {
        table.set(next);
        watch.published(next);
    }

    private static RoutingTable table(PartitionRuntime p0, PartitionRuntime p1) {
        ClusterView view = new ClusterView(LAYOUT, new PartitionMap(1, 2, List.of(List.of("a", "b"), List.of("b", "a"))),
                new RuntimeMap(List.of(p0, p1)), ADDRESSES);
        return RoutingTable.build(view, Map.of());
    }
}
