package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.PartitionState;
import io.zaris.replication.ReplicationSettings;
import io.zaris.time.FakeTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A failover round whose answers arrive after the suspended active's lease was renewed: the case the failover
 * simulation found (see {@link FailoverSimulationTests}), pinned down without the simulation's scenario generator.
 */
@Tag("unit")
class FailoverRoundLeaseTests {

    private static final PartitionLayout LAYOUT = PartitionLayout.of(4, 2);
    private static final Map<String, NodeAddress> ADDRESSES = Map.of("a", new NodeAddress("127.0.0.1", 1),
            "b", new NodeAddress("127.0.0.1", 2), "c", new NodeAddress("127.0.0.1", 3));

    /** Answers the coordinator is waiting for, completed by the test. */
    private final Map<String, CompletableFuture<Map<Integer, PartitionState>>> pending = new HashMap<>();
    private final List<ClusterView> published = new ArrayList<>();
    private final Set<String> lapsed = new HashSet<>(Set.of("a"));
    private final Set<String> renewed = new HashSet<>(Set.of("b", "c"));

    @Test
    void aSuspendedActiveWhoseLeaseIsRenewedBeforeTheAnswersArriveKeepsItsPartition() {
        FailoverCoordinator leader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 2),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new WaitingProbe(), Runnable::run,
                FakeTime.followingNanos(() -> 1_000_000_000L), lapsed::contains, lapsed::contains, renewed::contains);
        ClusterView suspendedA = new ClusterView(LAYOUT, new PartitionMap(2, 2, List.of(List.of("a", "b"), List.of("c", "b"))),
                new RuntimeMap(List.of(new PartitionRuntime("a", 3, PartitionHealth.HEALTHY),
                        new PartitionRuntime("c", 1, PartitionHealth.HEALTHY))), ADDRESSES)
                .withSuspended(new PartitionMap(2, 2, List.of(List.of("a", "b"), List.of("c", "b"))),
                        new RuntimeMap(List.of(new PartitionRuntime("a", 3, PartitionHealth.HEALTHY),
                                new PartitionRuntime("c", 1, PartitionHealth.HEALTHY))), Set.of("a"));

        leader.reconcile(suspendedA, Set.of("a", "b", "c"), () -> suspendedA, published::add);
        assertThat(pending).as("the round asks the other owner of a's partition").containsKey("b");

        lapsed.clear();
        renewed.add("a"); // "a" resumed and this leader granted it a lease while the round waited
        pending.get("b").complete(Map.of(0, new PartitionState(3, 90, 12, 1)));

        assertThat(published).as("partition 0 is not moved beside an active that holds a lease again")
                .allMatch(view -> view.runtimeMap().get(0).equals(suspendedA.runtimeMap().get(0)));
    }

    private final class WaitingProbe implements PeerProbe {
        @Override
        public CompletableFuture<Boolean> isReachable(NodeAddress address) {
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public CompletableFuture<Map<Integer, PartitionState>> partitionStates(NodeAddress address,
                                                                              Collection<Integer> partitions) {
            String node = ADDRESSES.entrySet().stream().filter(e -> e.getValue().equals(address)).findFirst()
                    .orElseThrow().getKey();
            return pending.computeIfAbsent(node, n -> new CompletableFuture<>());
        }
    }
}
