package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.placement.SegmentMapper;
import io.zaris.replication.ReplicationSettings;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A stopping node closes its replication before its data port. A write that reaches it in between must be refused
 * before it is applied ({@code OWNERSHIP_CHANGING}, which a client retries on the next owner), not applied and then
 * answered {@code UNACKNOWLEDGED}: for an increment that outcome is unknown to the application, as a Spring test of
 * a stopped owner saw once.
 */
@Tag("in-process-cluster")
class StoppingOwnerIntegrationTests {

    @Test
    void aWriteReachingAnOwnerWhoseReplicationClosedIsRefusedUnapplied() throws Exception {
        try (InJvmCluster cluster = InJvmCluster.startThree("zaris-stopping", 2, ReplicationSettings.defaults())) {
            ZarisClient client = cluster.seededClient(0);
            String key = "counter";
            assertThat(client.increment(key, 1).join()).isEqualTo(1);
            ClusterView view = client.refreshMap().join();
            String owner = view.runtimeOfSegment(new SegmentMapper(view.layout().segmentCount())
                    .segmentOf(key.getBytes(StandardCharsets.UTF_8))).activeNode();

            InJvmCluster.node(cluster.nodes(), owner).replicator().close(); // the stop's first half

            assertThatThrownBy(() -> client.increment(key, 1).join())
                    .isInstanceOf(CompletionException.class)
                    .cause().isInstanceOfSatisfying(ZarisStatusException.class,
                            refused -> assertThat(refused.status()).isEqualTo(KvStatus.OWNERSHIP_CHANGING));
            assertThat(client.get(key).join().map(value -> new String(value.value(), StandardCharsets.UTF_8)))
                    .as("the refused increment was not applied").contains("1");
        }
    }
}
