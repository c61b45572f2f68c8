package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.placement.PartitionLayout;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Who computes the first map and when, on a roster of three members addressed by strings. */
@Tag("unit")
class FirstMapTests {

    private static final ClusterSettings SETTINGS = new ClusterSettings(3, PartitionLayout.of(8, 4), 2);

    private final MembershipRoster<String> roster = new MembershipRoster<>();

    @Test
    void theLeaderPlansTheFirstMapOnceEveryExpectedMemberAnnouncedItself() {
        roster.viewChanged(List.of("@a", "@b", "@c"));
        announce("@a", "a", 0);
        announce("@b", "b", 0);
        assertThat(FirstMap.plan(true, null, roster, SETTINGS, "a")).as("c has not announced itself").isNull();

        announce("@c", "c", 0);
        ClusterView first = FirstMap.plan(true, null, roster, SETTINGS, "a");

        assertThat(first.partitionMap().version()).isEqualTo(1);
        assertThat(first.partitionMap().nodes()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(first.leader()).isEqualTo("a");
        assertThat(first.founders()).containsEntry("b", "b-1").hasSize(3);
        assertThat(first.addresses()).containsEntry("c", new NodeAddress("127.0.0.1", 'c'));
        for (int p = 0; p < first.runtimeMap().partitionCount(); p++) {
            assertThat(first.runtimeMap().get(p).epoch()).isEqualTo(1);
            assertThat(first.runtimeMap().get(p).health()).isEqualTo(PartitionHealth.HEALTHY);
        }
    }

    @Test
    void nobodyPlansWhileFewerThanTheConfiguredMembersAreInTheView() {
        roster.viewChanged(List.of("@a", "@b"));
        announce("@a", "a", 0);
        announce("@b", "b", 0);

        assertThat(FirstMap.plan(true, null, roster, SETTINGS, "a")).isNull();
    }

    @Test
    void aMemberOrANodeHoldingAMapOrOneThatDoesNotLeadPlansNothing() {
        roster.viewChanged(List.of("@a", "@b", "@c"));
        announce("@a", "a", 0);
        announce("@b", "b", 0);
        announce("@c", "c", 0);
        ClusterView first = FirstMap.plan(true, null, roster, SETTINGS, "a");

        assertThat(FirstMap.plan(false, null, roster, SETTINGS, "a")).as("not leading").isNull();
        assertThat(FirstMap.plan(true, first, roster, SETTINGS, "a")).as("holds a map").isNull();

        announce("@c", "c", 4);
        assertThat(FirstMap.plan(true, null, roster, SETTINGS, "a")).as("c carries the cluster's lineage").isNull();
    }

    @Test
    void beforeAnyMembershipViewNothingIsPlanned() {
        assertThat(FirstMap.plan(true, null, roster, SETTINGS, "a")).isNull();
    }

    private void announce(String member, String nodeId, long mapVersion) {
        roster.announced(member, new ClusterMessages.NodeHello(nodeId, new NodeAddress("127.0.0.1", nodeId.charAt(0)),
                nodeId + "-1", mapVersion));
    }
}
