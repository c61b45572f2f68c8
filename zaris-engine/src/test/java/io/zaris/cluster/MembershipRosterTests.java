package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The membership view and its members' hellos, with members addressed by strings ("@a" announces itself as "a"). */
@Tag("unit")
class MembershipRosterTests {

    private final MembershipRoster<String> roster = new MembershipRoster<>();

    @Test
    void beforeTheFirstViewThereIsNoCoordinatorAndNobodyLeads() {
        assertThat(roster.hasView()).isFalse();
        assertThat(roster.coordinator()).isNull();
        assertThat(roster.leads("@a", null, 1)).isFalse();
        assertThat(roster.presentNodes()).isEmpty();
    }

    @Test
    void theOldestMemberCoordinatesAndLeadsOnlyAMajorityOfTheConfiguredSizeWithoutAMap() {
        roster.viewChanged(List.of("@a", "@b"));

        assertThat(roster.coordinator()).isEqualTo("@a");
        assertThat(roster.leads("@a", null, 3)).isTrue();
        assertThat(roster.leads("@b", null, 3)).as("not the coordinator").isFalse();
        assertThat(roster.leads("@a", null, 4)).as("2 of 4 is no majority").isFalse();
    }

    @Test
    void withAMapOnlyAnnouncedVotersCount() {
        roster.viewChanged(List.of("@a", "@b", "@d"));
        ClusterView held = view("a", "b", "c");
        announce("@a", "a", 1);
        assertThat(roster.votersInView(held)).isEqualTo(1);
        assertThat(roster.holdsMajority(held, 99)).as("the map's voters, not the configured size").isFalse();

        announce("@b", "b", 1);
        announce("@d", "d", 0);

        assertThat(roster.votersInView(held)).as("d holds nothing, so it has no vote").isEqualTo(2);
        assertThat(roster.holdsMajority(held, 99)).isTrue();
        assertThat(roster.majorityCoordinatorId(held, 99)).isEqualTo("a");
    }

    @Test
    void aMemberThatLeavesIsForgottenWithItsHello() {
        roster.viewChanged(List.of("@a", "@b"));
        announce("@a", "a", 0);
        announce("@b", "b", 1);
        assertThat(roster.presentNodes()).isEqualTo(Set.of("a", "b"));

        roster.viewChanged(List.of("@a", "@c"));

        assertThat(roster.presentNodes()).isEqualTo(Set.of("a"));
        assertThat(roster.addressOf("b")).isNull();
        assertThat(roster.membersWithoutHello()).isEqualTo(1);
        assertThat(roster.hellosInViewOrder()).as("@c has not announced itself").isNull();
    }

    @Test
    void mapHoldersAreTheOtherMembersThatAnnouncedAMap() {
        roster.viewChanged(List.of("@a", "@b", "@c"));
        announce("@a", "a", 3);
        announce("@b", "b", 0);
        announce("@c", "c", 2);

        assertThat(roster.mapHolders("a")).containsOnlyKeys("c");
        assertThat(roster.addressOf("c")).isEqualTo("@c");
    }

    @Test
    void announcedDataAddressesOverrideTheViewsAndTheMajorityCoordinatorNeedsAHello() {
        roster.viewChanged(List.of("@a", "@b"));
        ClusterView held = view("a", "b");
        announce("@b", "b", 1);
        assertThat(roster.majorityCoordinatorId(null, 2)).as("the coordinator has not announced itself").isNull();

        Map<String, NodeAddress> addresses = roster.mergedAddresses(held);

        assertThat(addresses).containsEntry("a", new NodeAddress("10.0.0.1", 1))
                .containsEntry("b", new NodeAddress("127.0.0.1", 'b'));
    }

    private void announce(String member, String nodeId, long mapVersion) {
        roster.announced(member, new ClusterMessages.NodeHello(nodeId, new NodeAddress("127.0.0.1", nodeId.charAt(0)),
                nodeId + "-1", mapVersion));
    }

    /** A map of one partition owned by {@code nodes}, whose addresses are all stale (10.0.0.x). */
    private static ClusterView view(String... nodes) {
        PartitionMap map = new PartitionMap(1, nodes.length, List.of(List.of(nodes)));
        Map<String, NodeAddress> addresses = new java.util.HashMap<>();
        for (int i = 0; i < nodes.length; i++) {
            addresses.put(nodes[i], new NodeAddress("10.0.0." + (i + 1), 1));
        }
        return new ClusterView(PartitionLayout.of(1, 1), map, RuntimeMap.initial(map, 1), addresses);
    }
}
