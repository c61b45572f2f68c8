package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.cluster.ClusterMember;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.ClusterView;
import io.zaris.cluster.MembershipConfig;
import io.zaris.cluster.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The listener told about an adopted view runs before the view becomes the member's current one: the node
 * closes the takeover gates of the partitions a view hands it in that listener, and its data path routes by
 * the current view, so the other order served requests from a copy that had not caught up yet.
 */
class ViewAdoptionOrderIntegrationTests {

    @Test
    void theListenerSeesTheViewBeforeTheDataPathDoes() throws Exception {
        ClusterSettings settings = new ClusterSettings(1, PartitionLayout.of(64, 8), 1);
        try (ClusterMember member = new ClusterMember("solo", new NodeAddress("127.0.0.1", 1), settings,
                new MembershipConfig.InJvm("zaris-order-" + UUID.randomUUID()), ReplicationSettings.defaults(),
                new DataPortProbe("solo", null, null))) {
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
}
