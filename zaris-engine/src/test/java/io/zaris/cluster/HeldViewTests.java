package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** How a node's held view is replaced, on a roster of members addressed by strings; the hooks are recorded. */
@Tag("unit")
class HeldViewTests {

    private final List<String> events = new ArrayList<>();
    private final MembershipRoster<String> roster = new MembershipRoster<>();
    private final HeldView<String> views = new HeldView<>("a", "a-2", roster, 3, new Recorder());

    @Test
    void theListenerSeesTheViewBeforeItBecomesCurrentAndTheHooksRunInOrder() {
        views.onInstalled((previous, adopted) -> events.add("listener " + previous + " current " + views.current()));

        ClusterView first = view(1, 1, 1, Map.of());
        views.adopt(first);

        assertThat(events).containsExactly("inheritedTracked", "listener null current null", "standingChanged",
                "installed null");
        assertThat(views.current().runtimeMap()).isEqualTo(first.runtimeMap());
        assertThat(views.firstView()).isCompletedWithValue(views.current());
    }

    @Test
    void aStaleViewIsIgnored() {
        views.adopt(view(2, 1, 1, Map.of()));
        events.clear();

        views.adopt(view(1, 5, 5, Map.of()));

        assertThat(events).isEmpty();
        assertThat(views.current().partitionMap().version()).isEqualTo(2);
    }

    @Test
    void aConcurrentViewIsMergedAndBroadcast() {
        views.adopt(view(1, 5, 1, Map.of()));
        events.clear();

        views.adopt(view(1, 1, 7, Map.of()));

        assertThat(views.current().runtimeMap().get(0).epoch()).isEqualTo(5);
        assertThat(views.current().runtimeMap().get(1).epoch()).isEqualTo(7);
        assertThat(events).last().isEqualTo("broadcast view 1 epochs 5,7");
    }

    @Test
    void aPublishedViewIsStampedWithThisLeaderAndTheAnnouncedAddressesAndBroadcastBeforeItIsInstalled() {
        roster.viewChanged(List.of("@b", "@a"));
        roster.announced("@b", new ClusterMessages.NodeHello("b", new NodeAddress("10.0.0.2", 9), "b-1", 0));

        views.publish(view(1, 1, 1, Map.of()));

        assertThat(events.get(0)).isEqualTo("broadcast view 1 epochs 1,1");
        assertThat(views.current().addresses()).containsEntry("b", new NodeAddress("10.0.0.2", 9));
        assertThat(views.current().leader()).as("b coordinates a majority view and announced itself, so it leads")
                .isEqualTo("b");
    }

    @Test
    void activeRolesOfAnEarlierProcessAreInheritedUntilTheirEpochChanges() {
        ClusterView foundedByAnother = view(1, 3, 4, Map.of("a", "a-1", "b", "b-1"));
        views.adopt(foundedByAnother);

        assertThat(views.inheritedActives()).isEqualTo(Map.of(0, 3L));
        assertThat(views.disownRequest()).isNotNull();

        views.adopt(view(1, 9, 4, Map.of("a", "a-1", "b", "b-1")));

        assertThat(views.inheritedActives()).isEmpty();
        assertThat(views.disownRequest()).isNull();
    }

    /** Partition 0 active on a, partition 1 on b, with the given founders (node → incarnation). */
    private static ClusterView view(long version, long epoch0, long epoch1, Map<String, String> founders) {
        PartitionMap map = new PartitionMap(version, 2, List.of(List.of("a", "b"), List.of("b", "a")));
        RuntimeMap runtime = new RuntimeMap(List.of(new PartitionRuntime("a", epoch0, PartitionHealth.HEALTHY),
                new PartitionRuntime("b", epoch1, PartitionHealth.HEALTHY)));
        return new ClusterView(PartitionLayout.of(2, 2), map, runtime, Map.of("a", new NodeAddress("127.0.0.1", 1),
                "b", new NodeAddress("127.0.0.1", 2)), null, founders);
    }

    private final class Recorder implements HeldView.Hooks {
        @Override
        public void broadcast(byte[] message) {
            try {
                ClusterView sent = (ClusterView) ClusterMessages.decode(message);
                events.add("broadcast view " + sent.partitionMap().version() + " epochs "
                        + sent.runtimeMap().get(0).epoch() + "," + sent.runtimeMap().get(1).epoch());
            } catch (MalformedRequestException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public void inheritedTracked() {
            events.add("inheritedTracked");
        }

        @Override
        public void standingChanged() {
            events.add("standingChanged");
        }

        @Override
        public void installed(ClusterView held, ClusterView adopted) {
            events.add("installed " + (held == null ? "null" : held.partitionMap().version()));
        }
    }
}
