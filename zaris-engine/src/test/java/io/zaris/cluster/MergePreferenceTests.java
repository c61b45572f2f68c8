package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a merge lists first, from a roster whose members are addressed by strings. */
@Tag("unit")
class MergePreferenceTests {

    private final MembershipRoster<String> roster = new MembershipRoster<>();
    private final MergePreference<String> preference = new MergePreference<>();

    @Test
    void aMajorityViewIsListedInOrderWhileTheLeaseHolds() {
        roster.viewChanged(List.of("@b", "@a"));

        preference.refresh(roster, null, 3, "a");

        assertThat(preference.preferred(true)).containsExactly("@b", "@a");
    }

    @Test
    void withoutTheLeaseTheLeaderTheNewestClusterViewNamesIsPreferred() {
        roster.viewChanged(List.of("@a", "@b"));
        announce("@a", "a");
        announce("@b", "b");

        preference.refresh(roster, view("b"), 3, "a");

        assertThat(preference.preferred(false)).containsExactly("@b");
    }

    @Test
    void aMinorityViewPrefersTheNamedLeaderEvenWithTheLease() {
        roster.viewChanged(List.of("@a"));
        announce("@a", "a");

        preference.refresh(roster, view("b"), 3, "a");

        assertThat(preference.preferred(true)).as("b has not announced itself in this view").isEmpty();
    }

    @Test
    void aNodeNeverPrefersItselfAsTheNamedLeader() {
        roster.viewChanged(List.of("@a"));
        announce("@a", "a");

        preference.refresh(roster, view("a"), 3, "a");

        assertThat(preference.preferred(false)).isEmpty();
    }

    @Test
    void aNodeListsItselfLastOnlyWhileItsLeaseDoesNotHold() {
        assertThat(preference.listsItselfLast(false)).as("back from a pause or a cut").isTrue();
        assertThat(preference.listsItselfLast(true)).isFalse();
    }

    private void announce(String member, String nodeId) {
        roster.announced(member, new ClusterMessages.NodeHello(nodeId, new NodeAddress("127.0.0.1", nodeId.charAt(0)),
                nodeId + "-1", 1));
    }

    /** A map of one partition owned by a, b and c, published by {@code leader}. */
    private static ClusterView view(String leader) {
        PartitionMap map = new PartitionMap(1, 3, List.of(List.of("a", "b", "c")));
        return new ClusterView(PartitionLayout.of(1, 1), map, RuntimeMap.initial(map, 1), Map.of()).withLeader(leader);
    }
}
