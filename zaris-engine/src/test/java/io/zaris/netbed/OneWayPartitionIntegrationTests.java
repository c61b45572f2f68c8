package io.zaris.netbed;

import static io.zaris.netbed.PartitionChecks.MERGE_BOUND;
import static io.zaris.netbed.PartitionChecks.SERVE_BOUND;
import static io.zaris.netbed.PartitionChecks.SERVE_TARGET;
import static io.zaris.netbed.PartitionChecks.seconds;
import static org.assertj.core.api.Assertions.assertThat;

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
 * One-way partitions among three nodes, each in its own network namespace, while a client on the host side writes
 * chains of puts with default options and every node is read directly: packets in one direction vanish, the other
 * direction works. Failure detection is no longer symmetric: one side hears the other and does not suspect it, the
 * other side does. Whatever membership makes of that, no two nodes may serve one partition (a stale read from any
 * node would show it), no acknowledged write may be lost, and no key may go without a write for longer than the
 * escalation timeout + 2 s (the tests allow the same second of slack as the other partition tests).
 *
 * <p>Each direction runs with one membership setting, to keep the bed suite within minutes; both ran with both
 * while the tests were written (see the network partitions page).
 */
@Tag("network-bed")
class OneWayPartitionIntegrationTests {

    private static final int KEYS = 64;
    private static final Duration FAULT = Duration.ofSeconds(20);

    @BeforeAll
    static void requireNamespaces() {
        NetworkBed.assumeAvailable();
    }

    static Stream<BedCluster.Membership> towardsTheLeader() {
        return BedCluster.Membership.toRun(BedCluster.Membership.INSECURE);
    }

    static Stream<BedCluster.Membership> fromTheLeader() {
        return BedCluster.Membership.toRun(BedCluster.Membership.CLUSTER_SECRET);
    }

    /** The packets of a node that is not the leader no longer reach the leader; the leader's still reach it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("towardsTheLeader")
    void aNodeTheLeaderCannotHearNeverServesBesideItsReplacement(BedCluster.Membership membership) throws Exception {
        run(membership, "one-way-to-leader", (bed, leader, others) -> {
            String victim = others.get(0);
            bed.dropOneWay(BedCluster.hostOf(victim), BedCluster.hostOf(leader));
            return victim + " -> " + leader;
        });
    }

    /** The leader's packets no longer reach the other two; theirs still reach the leader. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fromTheLeader")
    void aLeaderTheOthersCannotHearNeverServesBesideItsReplacement(BedCluster.Membership membership) throws Exception {
        run(membership, "one-way-from-leader", (bed, leader, others) -> {
            for (String other : others) {
                bed.dropOneWay(BedCluster.hostOf(leader), BedCluster.hostOf(other));
            }
            return leader + " -> " + others;
        });
    }

    static Stream<BedCluster.Membership> intoTheLeader() {
        return BedCluster.Membership.toRun(BedCluster.Membership.CLUSTER_SECRET);
    }

    /**
     * The other two nodes' packets no longer reach the leader; the leader's still reach them. The leader hears nobody
     * and can confirm no lease, while the others still hear it: they must stop following it rather than wait with it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("intoTheLeader")
    void aLeaderThatHearsNobodyIsReplacedByTheOthers(BedCluster.Membership membership) throws Exception {
        run(membership, "one-way-into-leader", (bed, leader, others) -> {
            for (String other : others) {
                bed.dropOneWay(BedCluster.hostOf(other), BedCluster.hostOf(leader));
            }
            return others + " -> " + leader;
        });
    }

    /** Applies a one-way fault given the leader and the other nodes; says which way it drops. */
    @FunctionalInterface
    private interface OneWayFault {
        String apply(NetworkBed bed, String leader, List<String> others);
    }

    private static void run(BedCluster.Membership membership, String scenario, OneWayFault fault) throws Exception {
        try (NetworkBed bed = NetworkBed.create(3);
             BedCluster cluster = BedCluster.create(bed, PartitionChecks.logDirectory(scenario + "-" + membership), membership)) {
            cluster.start();
            try (ZarisClient client = cluster.defaultClient()) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                PartitionChecks.awaitSettled(cluster, Duration.ofSeconds(3));
                String leader = client.refreshMap().join().leader();
                assertThat(leader).as("the cluster names its leader").isNotNull();
                List<String> others = new ArrayList<>(cluster.nodeIds());
                others.remove(leader);
                List<String> keys = new ArrayList<>();
                for (String node : cluster.nodeIds()) {
                    keys.addAll(PartitionChecks.keysServedBy(client, node, KEYS / cluster.nodeIds().size()));
                }
                CheckedLoad load = CheckedLoad.start(cluster, client, keys);
                KeyWriters writers = load.writers();

                LocalTime start = LocalTime.now();
                long startNanos = System.nanoTime();
                writers.faultNow();
                String dropped = fault.apply(bed, leader, others);
                writers.faultApplied();
                Thread.sleep(FAULT.toMillis()); // the scenario: the fault lasts this long
                LocalTime heal = LocalTime.now();
                long healNanos = System.nanoTime();
                bed.heal();
                double merged = PartitionChecks.secondsUntilOneViewOfAll(cluster, healNanos);
                double settled = PartitionChecks.secondsUntilEveryPartitionHealthy(client, cluster.nodeIds(), healNanos);
                CheckedLoad.Outcome outcome = load.finish();
                double writable = writers.secondsUntilWritten(keys);

                System.out.printf("netbed: one-way partition %s for %.0f s, %s: views during the fault %s; owner leases"
                                + " lapsed %s; every key written %.2f s after the fault began (%s; longest gap %.2f s);"
                                + " one view of all %.2f s after healing, all healthy again after %.2f s; %s%n",
                        dropped, seconds(FAULT), membership, PartitionChecks.viewsBetween(cluster, start, heal),
                        PartitionChecks.leaseLapses(cluster, start, heal), writable,
                        PartitionChecks.against(writable, SERVE_TARGET), writers.longestGapSeconds(keys), merged, settled, outcome);
                assertThat(writers.longestGapSeconds(keys)).as("longest time a key took no write, from the fault to the end")
                        .isLessThanOrEqualTo(seconds(SERVE_BOUND));
                assertThat(merged).as("seconds from healing until every node held one view of all three")
                        .isLessThanOrEqualTo(seconds(MERGE_BOUND));
                outcome.assertClean();
            }
        }
    }
}
