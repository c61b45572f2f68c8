package io.zaris.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.server.ServerProcesses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Faults one after another, as a chaos run deals them: in a 5-process cluster (replication factor 3, SYNC) a
 * node is killed and its copies re-homed, it restarts and waits to be planned back in, and then two other
 * nodes are killed at once. Three of the five processes still run, so the cluster must keep a majority and
 * fail the two over, with no exception reaching the application. (When re-homing a node's copies also took
 * its vote, the survivors counted 2 of 4 voters and refused every write until a killed node came back.)
 */
@Tag("multi-process")
class OverlappingFaultsIntegrationTests {

    private static final int KEYS = 256;
    /** The longest a key may go without an acknowledged write after the first fault: generous (target: about 2 s per crash), while a lost majority leaves keys unwritable until a killed node returns. */
    private static final double GAP_BOUND_SECONDS = 15;

    @Test
    void aRestartedNodeThatWaitsToBePlannedInStillCountsTowardsTheMajority() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "overlapping-faults-logs"))) {
            List<NodeAddress> seeds = processes.start(5, 3);
            try (ZarisClient client = ServerProcesses.defaultClient(seeds)) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                KeyChains chains = new KeyChains(client, KEYS);
                chains.start();
                Thread.sleep(2_000); // the load runs before the first fault

                String leader = client.refreshMap().join().leader();
                List<String> others = processes.nodes().stream().map(ServerProcesses.Node::nodeId)
                        .filter(id -> !id.equals(leader)).toList();
                String returning = others.get(0);
                chains.faultNow();
                processes.node(returning).kill();
                await("the copies of " + returning + " re-homed and every partition healthy again")
                        .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                            ClusterView view = client.refreshMap().join();
                            return !view.partitionMap().nodes().contains(returning) && view.unsettledPartitions() == 0;
                        });
                assertThat(client.refreshMap().join().voters()).as("an evicted node keeps its vote").contains(returning);

                processes.restart(returning);
                await(returning + " back in the cluster").atMost(Duration.ofSeconds(180))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> afterRestart(processes.node(returning).logText()).contains("adopted partition map"));
                ClusterView beforeSecondFault = client.refreshMap().join();
                assertThat(beforeSecondFault.partitionMap().nodes())
                        .as("the returning node is not planned in yet (the join settle delay), so only its kept vote counts")
                        .doesNotContain(returning);

                processes.node(others.get(1)).kill();
                processes.node(others.get(2)).kill();
                Thread.sleep(15_000); // the two crashes are failed over while the load goes on
                chains.stop();

                long lost = chains.lostAcknowledgedWrites();
                System.out.println(chains.summary("kill -9 of " + returning + ", restart, then kill -9 of "
                        + others.get(1) + " and " + others.get(2)) + "; lost " + lost);
                assertThat(chains.exceptions()).as("exceptions the application saw").isEmpty();
                assertThat(lost).as("acknowledged writes lost").isZero();
                assertThat(chains.keysNeverWritableAgain()).as("keys never written again").isZero();
                assertThat(KeyChains.percentile(chains.longestGapSeconds(), 1.0))
                        .as("worst key's longest gap after the first fault, seconds").isLessThan(GAP_BOUND_SECONDS);
            }
        }
    }

    /** The part of a node's log written since its last restart. */
    private static String afterRestart(String log) {
        int marker = log.lastIndexOf(ServerProcesses.RESTART_MARKER);
        return marker < 0 ? log : log.substring(marker);
    }
}
