package io.zaris.netbed;

import static io.zaris.netbed.PartitionChecks.LEASE;
import static io.zaris.netbed.PartitionChecks.MERGE_BOUND;
import static io.zaris.netbed.PartitionChecks.PATIENCE;
import static io.zaris.netbed.PartitionChecks.SERVE_BOUND;
import static io.zaris.netbed.PartitionChecks.SERVE_TARGET;
import static io.zaris.netbed.PartitionChecks.seconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.server.ServerProcesses;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One node of three, not the leader, loses its link (set down, as a failed cable or switch port) for 20 s while a
 * client on the host side writes chains of puts with default options and every node is read directly; then the
 * link comes back. Three nodes in their own network namespaces, each with its own address and a password; run with
 * the cluster secret (authenticated, encrypted membership, as a production cluster's) and with
 * {@code --allow-insecure}.
 *
 * <p>Before the membership stack was fixed for half-open peers, a cut like this could leave the remaining two
 * nodes suspecting each other and writes to the cut node's keys blocked for minutes, and with the cluster secret on
 * the healed node never merged back ("merge leader rejected merge request").
 */
@Tag("network-bed")
class NonLeaderCutIntegrationTests {

    private static final int KEYS_PER_SIDE = 32;
    private static final Duration CUT = Duration.ofSeconds(20);

    @BeforeAll
    static void requireNamespaces() {
        NetworkBed.assumeAvailable();
    }

    static Stream<BedCluster.Membership> memberships() {
        return BedCluster.Membership.toRun(BedCluster.Membership.CLUSTER_SECRET);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("memberships")
    void theMajorityFailsTheCutNodeOverWithinTheEscalationTimeoutAndMergesItBack(BedCluster.Membership membership) throws Exception {
        try (NetworkBed bed = NetworkBed.create(3);
             BedCluster cluster = BedCluster.create(bed, PartitionChecks.logDirectory("non-leader-cut-" + membership), membership)) {
            cluster.start();
            try (ZarisClient client = cluster.defaultClient()) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                PartitionChecks.awaitSettled(cluster, Duration.ofSeconds(3));
                String leader = client.refreshMap().join().leader();
                assertThat(leader).as("the cluster names its leader").isNotNull();
                List<String> healthy = new ArrayList<>(cluster.nodeIds());
                String victim = healthy.stream().filter(node -> !node.equals(leader)).findFirst().orElseThrow();
                healthy.remove(victim);
                PartitionChecks.SidedKeys sided = PartitionChecks.keysOnBothSides(client, victim, KEYS_PER_SIDE);
                List<String> victimKeys = sided.victims();
                List<String> otherKeys = sided.others();
                List<String> keys = sided.all();
                CheckedLoad load = CheckedLoad.start(cluster, client, keys);
                KeyWriters writers = load.writers();

                LocalTime cut = LocalTime.now();
                long cutNanos = System.nanoTime();
                writers.faultNow();
                bed.cutLink(BedCluster.hostOf(victim));
                writers.faultApplied();
                double cutting = NodeLog.seconds(cut, LocalTime.now()); // a request sent meanwhile may still be granted

                await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100))
                        .until(() -> writers.writtenSinceFault(keys));
                double failover = writers.secondsUntilWritten(victimKeys);
                double othersWritable = writers.secondsUntilWritten(otherKeys);
                PartitionChecks.ViewTiming excluded = PartitionChecks.secondsUntilViewOfSize(cluster, healthy, 2, cut);
                String leaderAfter = client.refreshMap().join().leader();

                Thread.sleep(Math.max(0, CUT.toMillis() - (System.nanoTime() - cutNanos) / 1_000_000)); // the scenario
                LocalTime heal = LocalTime.now();
                long healNanos = System.nanoTime();
                bed.heal();
                PartitionChecks.ViewTiming merged = PartitionChecks.secondsUntilViewOfSize(cluster, cluster.nodeIds(), 3, heal);
                double replica = PartitionChecks.secondsUntilReplicaAgain(client, victim, healNanos);
                CheckedLoad.Outcome outcome = load.finish();
                double leaseLapsed = PartitionChecks.secondsUntilLeaseLapsed(cluster, victim, cut, heal);

                System.out.printf("netbed: link of %s (not the leader) cut for %.0f s, %s: its lease ran out"
                                + " %.2f s after the cut; the majority excluded it after %.2f-%.2f s; its keys writable"
                                + " after %.2f s (%s), the other keys after %.2f s (longest gaps %.2f s / %.2f s); merged"
                                + " %.2f s after healing; in sync as a replica again %.2f s after healing; %s%n",
                        victim, seconds(CUT), membership, leaseLapsed, excluded.first(), excluded.last(), failover,
                        PartitionChecks.against(failover, SERVE_TARGET), othersWritable,
                        writers.longestGapSeconds(victimKeys), writers.longestGapSeconds(otherKeys), merged.last(),
                        replica, outcome);
                PartitionChecks.assertStableMajority(cluster, healthy, cut, heal);
                assertThat(leaderAfter).as("the majority's leader after the cut").isEqualTo(leader);
                assertThat(leaseLapsed).as("seconds from the cut until the cut node's lease ran out")
                        .isLessThanOrEqualTo(cutting + seconds(LEASE)).isLessThan(excluded.first());
                assertThat(excluded.last()).as("seconds until the majority excluded the cut node")
                        // no upper bound: the cut nodes' keys move when the leader suspends them (bounded below), not
                        // when membership excludes them, which a loaded machine delays (12.7 s once in CI)
                        .isGreaterThan(seconds(LEASE));
                assertThat(failover).as("seconds until the cut node's keys took writes on the majority side")
                        .isLessThanOrEqualTo(seconds(SERVE_BOUND));
                assertThat(writers.longestGapSeconds(keys)).as("longest time a key took no write, from the cut to the end")
                        .isLessThanOrEqualTo(seconds(SERVE_BOUND));
                assertThat(merged.last()).as("seconds from healing until every node installed the merged view")
                        .isLessThanOrEqualTo(seconds(MERGE_BOUND));
                outcome.assertClean();
            }
        }
    }
}
