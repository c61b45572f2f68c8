package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.replication.ReplicationSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A degraded partition's active audits the replicas it holds confirmations from. The state injected here is the end
 * of a 30-minute chaos run on separate hosts: the active counted a replica's every segment confirmed, the replica
 * counted two of them not complete, and as nothing re-sent an idle confirmed segment the partition stayed degraded
 * for minutes. Here a replica forgets one segment of a partition that stays degraded (its third owner stopped and is
 * not evicted); the active must find that out and re-send the segment, and count it.
 */
@Tag("in-process-cluster")
class ReplicaAuditIntegrationTests {

    @Test
    void aSegmentTheReplicaNoLongerCountsCompleteIsSentAgain() throws Exception {
        ReplicationSettings replication = ReplicationSettings.defaults().withEvictionDelay(Duration.ofMinutes(10));
        try (InJvmCluster cluster = InJvmCluster.startThree("zaris-audit", 3, replication)) {
            List<ZarisNode> nodes = cluster.nodes();
            ZarisClient client = cluster.seededClient(400);
            ZarisNode stopped = nodes.stream().filter(n -> !n.isLeader()).findFirst().orElseThrow();
            stopped.close();
            List<ZarisNode> left = nodes.stream().filter(n -> n != stopped).toList();

            // A partition the stopped node replicated: its active stays and serves it DEGRADED, confirmed by the other replica.
            int[] found = new int[1];
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                ClusterView view = client.refreshMap().join();
                for (int p = 0; p < view.layout().partitionCount(); p++) {
                    PartitionRuntime runtime = view.runtimeMap().get(p);
                    if (runtime.health() == PartitionHealth.DEGRADED && !stopped.nodeId().equals(runtime.activeNode())
                            && InJvmCluster.node(left, runtime.activeNode()).confirmedReplicas(p) == 1) {
                        found[0] = p;
                        return true;
                    }
                }
                return false;
            });
            int partition = found[0];
            PartitionRuntime runtime = client.clusterView().runtimeMap().get(partition);
            ZarisNode active = InJvmCluster.node(left, runtime.activeNode());
            ZarisNode replica = left.stream().filter(n -> n != active).findFirst().orElseThrow();
            int segment = client.clusterView().layout().firstSegmentOf(partition);
            assertThat(replica.syncedEpochOf(segment)).as("the replica's copy before").isEqualTo(runtime.epoch());

            replica.forgetSynced(segment);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(replica.syncedEpochOf(segment)).as("the replica's copy after").isEqualTo(runtime.epoch());
                assertThat(active.segmentsAuditedOutOfSync()).as("segments the active's audit re-sent").isEqualTo(1);
            });
            assertThat(client.clusterView().runtimeMap().get(partition).epoch()).as("no failover meanwhile")
                    .isEqualTo(runtime.epoch());
        }
    }
}
