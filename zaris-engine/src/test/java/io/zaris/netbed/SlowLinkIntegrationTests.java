package io.zaris.netbed;

import static io.zaris.netbed.PartitionChecks.PATIENCE;
import static io.zaris.netbed.PartitionChecks.SERVE_BOUND;
import static io.zaris.netbed.PartitionChecks.seconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.server.ServerProcesses;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One node of three, not the leader, keeps its link but the link is congested: it carries at most
 * {@value #KILOBITS_PER_SECOND} kbit/s each way and holds what exceeds that up to {@link #QUEUEING} before dropping
 * it, for {@link #SLOW}, while a client on the host side writes chains of puts to keys of every node with default
 * options. Such a node is neither gone nor healthy: its heartbeats get through late or not at all, and the SYNC
 * writes it replicates wait on it. No key may go without a write for longer than a cut link is allowed
 * ({@link PartitionChecks#SERVE_BOUND}), and nothing acknowledged may be lost or read stale.
 *
 * <p>The kernel of the test machine has no {@code netem}, so latency cannot be added directly; a rate limit adds it
 * the way a saturated link does, growing with the traffic up to the queueing bound.
 */
@Tag("network-bed")
class SlowLinkIntegrationTests {

    private static final int KEYS_PER_SIDE = 32;
    private static final long KILOBITS_PER_SECOND = 16;
    private static final Duration QUEUEING = Duration.ofMillis(2000);
    private static final Duration SLOW = Duration.ofSeconds(20);

    @BeforeAll
    static void requireNamespaces() {
        NetworkBed.assumeAvailable();
    }

    @Test
    void aCongestedLinkOnOneNodeStallsNoKeyForLongerThanACut() throws Exception {
        try (NetworkBed bed = NetworkBed.create(3);
             BedCluster cluster = BedCluster.create(bed, PartitionChecks.logDirectory("slow-link"),
                     BedCluster.Membership.CLUSTER_SECRET)) {
            cluster.start();
            try (ZarisClient client = cluster.defaultClient()) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                PartitionChecks.awaitSettled(cluster, Duration.ofSeconds(3));
                String leader = client.refreshMap().join().leader();
                assertThat(leader).as("the cluster names its leader").isNotNull();
                String victim = cluster.nodeIds().stream().filter(node -> !node.equals(leader)).findFirst().orElseThrow();
                PartitionChecks.SidedKeys sided = PartitionChecks.keysOnBothSides(client, victim, KEYS_PER_SIDE);
                List<String> victimKeys = sided.victims();
                List<String> otherKeys = sided.others();
                List<String> keys = sided.all();
                CheckedLoad load = CheckedLoad.start(cluster, client, keys);
                KeyWriters writers = load.writers();

                long slowNanos = System.nanoTime();
                writers.faultNow();
                bed.throttle(BedCluster.hostOf(victim), KILOBITS_PER_SECOND, QUEUEING);
                writers.faultApplied();
                await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100))
                        .until(() -> writers.writtenSinceFault(keys));
                Thread.sleep(Math.max(0, SLOW.toMillis() - (System.nanoTime() - slowNanos) / 1_000_000)); // the scenario
                long healNanos = System.nanoTime();
                bed.heal();
                PartitionChecks.secondsUntilEveryPartitionHealthy(client, cluster.nodeIds(), healNanos);
                CheckedLoad.Outcome outcome = load.finish();

                System.out.printf("netbed: link of %s (not the leader) throttled to %d kbit/s (queueing up to %d ms) for"
                                + " %.0f s: longest gaps without a write: its keys %.2f s, the other keys %.2f s; %s%n",
                        victim, KILOBITS_PER_SECOND, QUEUEING.toMillis(), seconds(SLOW),
                        writers.longestGapSeconds(victimKeys), writers.longestGapSeconds(otherKeys), outcome);
                assertThat(writers.longestGapSeconds(otherKeys))
                        .as("longest time a key of the other nodes took no write, from the throttling to the end")
                        .isLessThanOrEqualTo(seconds(SERVE_BOUND));
                assertThat(writers.longestGapSeconds(victimKeys))
                        .as("longest time a key of the congested node took no write, from the throttling to the end")
                        .isLessThanOrEqualTo(seconds(SERVE_BOUND));
                outcome.assertClean();
            }
        }
    }
}
