package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.cluster.ClusterMember;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The listener told about an adopted view runs before the view becomes the member's current one: the node
 * closes the takeover gates of the partitions a view hands it in that listener, and its data path routes by
 * the current view, so the other order served requests from a copy that had not caught up yet.
 */
@Tag("in-process-cluster")
class ViewAdoptionOrderIntegrationTests {

    @Test
    void theListenerSeesTheViewBeforeTheDataPathDoes() throws Exception {
        ClusterSettings settings = new ClusterSettings(1, PartitionLayout.of(64, 8), 1);
        try (ClusterMember member = new ClusterMember("solo", new NodeAddress("127.0.0.1", 1), settings,
                new MembershipConfig.InJvm("zaris-order-" + UUID.randomUUID()), ReplicationSettings.defaults(),
                new DataPortProbe("solo", null, null, TimeSource.system()), null, TimeSource.system())) {
            List<Boolean> currentWasStillThePrevious = new CopyOnWriteArrayList<>();
            member.onViewAdopted((previous, adopted) -> currentWasStillThePrevious.add(member.currentView() == previous));
            member.start();
            ClusterView first = member.awaitFirstView(Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(10)).until(() -> !currentWasStillThePrevious.isEmpty());
            assertThat(currentWasStillThePrevious).as("current view while the listener ran was the previous one")
                    .containsOnly(true);
            assertThat(member.currentView().partitionMap().version()).isEqualTo(first.partitionMap().version());
        }
    }

    /**
     * The node reconciles its replication links when this listener runs: a replica that joins gets its link at
     * once instead of at the replicator's next round, in which SYNC writes would be refused for want of it.
     */
    @Test
    void thePresenceListenerRunsWhenAnotherNodeAnnouncesItself() throws Exception {
        ClusterSettings settings = new ClusterSettings(2, PartitionLayout.of(64, 8), 2);
        MembershipConfig membership = new MembershipConfig.InJvm("zaris-presence-" + UUID.randomUUID());
        try (ClusterMember first = new ClusterMember("first", new NodeAddress("127.0.0.1", 1), settings, membership,
                ReplicationSettings.defaults(), new DataPortProbe("first", null, null, TimeSource.system()), null,
                TimeSource.system())) {
            List<Set<String>> seen = new CopyOnWriteArrayList<>();
            first.onPresenceChanged(() -> seen.add(first.presentNodeIds()));
            first.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains(Set.of("first")));
            try (ClusterMember second = new ClusterMember("second", new NodeAddress("127.0.0.1", 2), settings, membership,
                    ReplicationSettings.defaults(), new DataPortProbe("second", null, null, TimeSource.system()), null,
                    TimeSource.system())) {
                second.start();
                await().atMost(Duration.ofSeconds(30)).until(() -> seen.contains(Set.of("first", "second")));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> seen.get(seen.size() - 1).equals(Set.of("first")));
            for (int i = 1; i < seen.size(); i++) {
                assertThat(seen.get(i)).as("told only of changes: %s", seen).isNotEqualTo(seen.get(i - 1));
            }
        }
    }
}
