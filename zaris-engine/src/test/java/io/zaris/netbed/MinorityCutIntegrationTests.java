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
 * Two nodes of five, neither the leader, are cut off together (their packets to and from everyone else dropped
 * silently, links up) for 20 s, while a client on the host side writes chains of puts with default options and every
 * node is read directly. Replication factor 3, so every partition keeps a copy on the majority side. The cut pair
 * still hear each other but are two of five: both stop serving within their lease; the other three keep one view and
 * their leader, fail the pair's partitions over within the escalation timeout + 2 s (with the same second of slack
 * as the other partition tests), and after healing merge with the pair within 10 s and make both replicas again.
 * It runs with the cluster secret only, to keep the bed suite within minutes; both settings ran while the test was
 * written (see the network partitions page).
 */
@Tag("network-bed")
class MinorityCutIntegrationTests {

    private static final int NODES = 5;
    private static final int KEYS_PER_VICTIM = 20;
    private static final int OTHER_KEYS = 24;
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
    void twoOfFiveCutTogetherStopServingAndTheMajorityFailsThemOverAndMergesThemBack(BedCluster.Membership membership)
            throws Exception {
        try (NetworkBed bed = NetworkBed.create(NODES);
             BedCluster cluster = BedCluster.create(bed, PartitionChecks.logDirectory("two-of-five-" + membership), membership,
                     "--replication-factor", "3")) {
            cluster.start();
            try (ZarisClient client = cluster.defaultClient()) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                PartitionChecks.awaitSettled(cluster, Duration.ofSeconds(3));
                String leader = client.refreshMap().join().leader();
                assertThat(leader).as("the cluster names its leader").isNotNull();
                List<String> healthy = new ArrayList<>(cluster.nodeIds());
                List<String> victims = healthy.stream().filter(node -> !node.equals(leader)).limit(2).toList();
                healthy.removeAll(victims);
                List<String> victimKeys = new ArrayList<>();
                for (String victim : victims) {
                    victimKeys.addAll(PartitionChecks.keysServedBy(client, victim, KEYS_PER_VICTIM));
                }
                List<String> otherKeys = new ArrayList<>();
                for (String key : PartitionChecks.keysNotServedBy(client, victims.get(0), OTHER_KEYS * 3)) {
                    if (otherKeys.size() < OTHER_KEYS && !victims.contains(client.ownerOf(key))) {
                        otherKeys.add(key);
                    }
                }
                List<String> keys = new ArrayList<>(victimKeys);
                keys.addAll(otherKeys);
                CheckedLoad load = CheckedLoad.start(cluster, client, keys);
                KeyWriters writers = load.writers();

                LocalTime cut = LocalTime.now();
                long cutNanos = System.nanoTime();
                writers.faultNow();
                bed.isolate(victims.stream().mapToInt(BedCluster::hostOf).toArray());
                writers.faultApplied();
                double isolating = NodeLog.seconds(cut, LocalTime.now()); // nft runs once per namespace

                await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> writers.writtenSinceFault(keys));
                double failover = writers.secondsUntilWritten(victimKeys);
                double othersWritable = writers.secondsUntilWritten(otherKeys);
                PartitionChecks.ViewTiming excluded = PartitionChecks.secondsUntilViewOfSize(cluster, healthy,
                        healthy.size(), cut);
                String leaderAfter = client.refreshMap().join().leader();

                Thread.sleep(Math.max(0, CUT.toMillis() - (System.nanoTime() - cutNanos) / 1_000_000)); // the scenario
                LocalTime heal = LocalTime.now();
                long healNanos = System.nanoTime();
                bed.heal();
                double merged = PartitionChecks.secondsUntilOneViewOfAll(cluster, healNanos);
                double replicas = PartitionChecks.secondsUntilEveryPartitionHealthy(client, victims, healNanos);
                CheckedLoad.Outcome outcome = load.finish();
                List<Double> leaseLapsed = new ArrayList<>();
                for (String victim : victims) {
                    leaseLapsed.add(PartitionChecks.secondsUntilLeaseLapsed(cluster, victim, cut, heal));
                }

                System.out.printf("netbed: %s (not the leader) of five cut off together for %.0f s, %s: their leases ran"
                                + " out %s s after the cut; the other three excluded them after %.2f-%.2f s; their keys"
                                + " writable after %.2f s (%s), the other keys after %.2f s (longest gaps %.2f s / %.2f s);"
                                + " one view of all five %.2f s after healing; both replicas again, every partition"
                                + " healthy, %.2f s after healing; %s%n",
                        victims, seconds(CUT), membership, leaseLapsed, excluded.first(), excluded.last(), failover,
                        PartitionChecks.against(failover, SERVE_TARGET), othersWritable,
                        writers.longestGapSeconds(victimKeys), writers.longestGapSeconds(otherKeys), merged, replicas,
                        outcome);
                PartitionChecks.assertMajorityNeverSplit(cluster, healthy, cut, heal);
                assertThat(leaderAfter).as("the majority's leader after the cut").isEqualTo(leader);
                assertThat(leaseLapsed).as("seconds from the cut until each cut node's lease ran out")
                        .allSatisfy(lapsed -> assertThat(lapsed).isLessThanOrEqualTo(isolating + seconds(LEASE))
                                .isLessThan(excluded.first()));
                assertThat(excluded.last()).as("seconds until the majority excluded the cut pair")
                        // no upper bound: the cut nodes' keys move when the leader suspends them (bounded below), not
                        // when membership excludes them, which a loaded machine delays (12.7 s once in CI)
                        .isGreaterThan(seconds(LEASE));
                assertThat(failover).as("seconds until the cut pair's keys took writes on the majority side")
                        .isLessThanOrEqualTo(seconds(SERVE_BOUND));
                assertThat(writers.longestGapSeconds(keys)).as("longest time a key took no write, from the cut to the end")
                        .isLessThanOrEqualTo(seconds(SERVE_BOUND));
                assertThat(merged).as("seconds from healing until every node held one view of all five")
                        .isLessThanOrEqualTo(seconds(MERGE_BOUND));
                outcome.assertClean();
            }
        }
    }
}
