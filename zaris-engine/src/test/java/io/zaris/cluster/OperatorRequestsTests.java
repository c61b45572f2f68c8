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
import io.zaris.protocol.MalformedRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** An operator's requests on node "a", with a recorded member and explicit times. */
@Tag("unit")
class OperatorRequestsTests {

    private static final long SECOND = 1_000_000_000L;

    private final List<String> events = new ArrayList<>();
    private final FakeMember member = new FakeMember();
    private final OperatorRequests requests = new OperatorRequests("a", member);

    @Test
    void aHandOverIsRefusedUnlessThisNodeIsTheConfirmedLeaderWithAMap() {
        member.held = view("a", "b");
        assertThatThrownBy(() -> requests.handOver(0, "b")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("node a is not the confirmed leader");

        member.mayDecide = true;
        member.held = null;
        assertThatThrownBy(() -> requests.handOver(0, "b")).hasMessageContaining("(or has no map)");
        assertThat(events).isEmpty();
    }

    @Test
    void theLeaderPublishesAHandOverUnderTheNextEpochAndRecordsTheChange() {
        member.mayDecide = true;
        member.held = view("a", "b");

        long epoch = requests.handOver(0, "b");

        assertThat(epoch).isEqualTo(4);
        assertThat(events).containsExactly("publish 0 -> b@4", "recordChange 0");
    }

    @Test
    void aTargetNotAssignedThePartitionIsRefused() {
        member.mayDecide = true;
        member.held = view("a", "b");

        assertThatThrownBy(() -> requests.handOver(0, "z")).hasMessageContaining("node z is not assigned partition 0");
    }

    @Test
    void aDrainIsAskedAtOnceThenAtMostOnceASecondAndSettlesOnceTheMapGivesNoRole() {
        member.held = view("a", "b");

        requests.drain(10 * SECOND);
        requests.repeatDrainRequest(10 * SECOND + SECOND / 2);
        requests.repeatDrainRequest(11 * SECOND);

        assertThat(requests.isDraining()).isTrue();
        assertThat(events).containsExactly("broadcast DRAIN", "broadcast DRAIN");
        assertThat(requests.drainFuture()).isNotDone();

        member.held = view("b", "c");
        requests.checkDrained();

        assertThat(requests.drainFuture()).isCompleted();
    }

    @Test
    void nothingIsSentWhileTheNodeCannotBroadcast() {
        member.canBroadcast = false;
        member.held = view("a", "b");

        requests.drain(10 * SECOND);
        requests.requestRebalance();

        assertThat(events).isEmpty();
        member.canBroadcast = true;
        requests.requestRebalance();
        assertThat(events).containsExactly("broadcast REBALANCE");
    }

    @Test
    void aStopFailsADrainNotYetFinished() {
        member.held = view("a", "b");
        requests.drain(10 * SECOND);

        requests.stopped();

        assertThatThrownBy(() -> requests.drainFuture().join()).hasMessageContaining("node a stopped before it was drained");
    }

    /** One partition owned by {@code owners}, active on the first under epoch 3. */
    private static ClusterView view(String... owners) {
        PartitionMap map = new PartitionMap(1, owners.length, List.of(List.of(owners)));
        RuntimeMap runtime = new RuntimeMap(List.of(new PartitionRuntime(owners[0], 3, PartitionHealth.HEALTHY)));
        return new ClusterView(PartitionLayout.of(1, 1), map, runtime, Map.of(owners[0], new NodeAddress("127.0.0.1", 1)));
    }

    private final class FakeMember implements OperatorRequests.Member {
        boolean mayDecide;
        boolean canBroadcast = true;
        ClusterView held;

        @Override
        public boolean mayDecide() {
            return mayDecide;
        }

        @Override
        public ClusterView held() {
            return held;
        }

        @Override
        public void publish(ClusterView decided) {
            PartitionRuntime runtime = decided.runtimeMap().get(0);
            events.add("publish 0 -> " + runtime.activeNode() + "@" + runtime.epoch());
        }

        @Override
        public void recordChange(int partition) {
            events.add("recordChange " + partition);
        }

        @Override
        public boolean canBroadcast() {
            return canBroadcast;
        }

        @Override
        public void broadcast(byte[] message) {
            try {
                ClusterMessages.PlanRequest request = (ClusterMessages.PlanRequest) ClusterMessages.decode(message);
                assertThat(request.nodeId()).isEqualTo("a");
                events.add("broadcast " + (request.type() == ClusterMessages.DRAIN ? "DRAIN" : "REBALANCE"));
            } catch (MalformedRequestException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public Set<String> presentNodes() {
            return Set.of("a", "b", "c");
        }
    }
}
