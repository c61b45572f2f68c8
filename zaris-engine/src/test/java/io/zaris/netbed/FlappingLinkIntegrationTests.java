package io.zaris.netbed;

import static io.zaris.netbed.PartitionChecks.MERGE_BOUND;
import static io.zaris.netbed.PartitionChecks.SERVE_BOUND;
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
 * The link of a node that is not the leader flaps: down for {@link #DOWN}, up for {@link #UP}, {@value #CYCLES}
 * times, while a client on the host side writes chains of puts with default options and every node is read
 * directly. Each outage outlasts the owner lease but not the escalation timeout, so the node loses its lease every
 * time and may or may not be excluded, and its connections (and the membership transport's reaper) see silence,
 * resets and reconnects over and over. No two nodes may serve one partition, no acknowledged write may be lost, and
 * no key may go without a write for longer than the escalation timeout + 2 s (with the same second of slack as the
 * other partition tests). The suite runs it with the cluster secret; {@code -Dzaris.netbed.all-settings=true} adds the
 * run without. When the gap bound is missed while the machine is overloaded ({@link MachineLoad#overloaded}), the
 * scenario runs once more on a fresh bed and the second attempt is judged; both are printed.
 */
@Tag("network-bed")
class FlappingLinkIntegrationTests {

    private static final Duration DOWN = Duration.ofSeconds(6);
    private static final Duration UP = Duration.ofSeconds(2);
    private static final int CYCLES = 4;
    private static final int KEYS = 64;

    @BeforeAll
    static void requireNamespaces() {
        NetworkBed.assumeAvailable();
    }

    static Stream<BedCluster.Membership> memberships() {
        return BedCluster.Membership.toRun(BedCluster.Membership.CLUSTER_SECRET);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("memberships")
    void aFlappingLinkNeverLeavesTwoOwnersOrAKeyUnwritableBeyondTheBound(BedCluster.Membership membership)
            throws Exception {
        Attempt attempt = flap(membership);
        if (attempt.longestGap() > seconds(SERVE_BOUND) && MachineLoad.overloaded(attempt.load())) {
            // A bound on wall-clock gaps says nothing about the cluster when the machine could not run it: at a load
            // of 35 on two cores the leader's events thread stalled for 2.8 s and its own lease lapsed (13.43 s).
            // Once, and only then, the scenario runs again on a fresh bed; both figures are printed.
            System.out.printf("netbed: flapping link, first attempt %.2f s > %.0f s bound at load %.1f on %d cores "
                    + "(overloaded): running it once more%n", attempt.longestGap(), seconds(SERVE_BOUND), attempt.load(),
                    MachineLoad.cores());
            attempt = flap(membership);
        }
        assertThat(attempt.longestGap()).as("longest time a key took no write, from the first outage to the end (load %.1f)",
                attempt.load()).isLessThanOrEqualTo(seconds(SERVE_BOUND));
        assertThat(attempt.merged()).as("seconds from the end of the last outage until every node held one view of all three")
                .isLessThanOrEqualTo(seconds(MERGE_BOUND));
        attempt.outcome().assertClean();
    }

    /** What one run of the scenario measured, and the machine's load average at its end. */
    private record Attempt(double longestGap, double merged, CheckedLoad.Outcome outcome, double load) {
    }

    private static Attempt flap(BedCluster.Membership membership) throws Exception {
        try (NetworkBed bed = NetworkBed.create(3);
             BedCluster cluster = BedCluster.create(bed, PartitionChecks.logDirectory("flapping-" + membership), membership)) {
            cluster.start();
            try (ZarisClient client = cluster.defaultClient()) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                PartitionChecks.awaitSettled(cluster, Duration.ofSeconds(3));
                String leader = client.refreshMap().join().leader();
                assertThat(leader).as("the cluster names its leader").isNotNull();
                String victim = cluster.nodeIds().stream().filter(node -> !node.equals(leader)).findFirst().orElseThrow();
                List<String> victimKeys = PartitionChecks.keysServedBy(client, victim, KEYS / 2);
                List<String> keys = new ArrayList<>(victimKeys);
                keys.addAll(PartitionChecks.keysNotServedBy(client, victim, KEYS / 2));
                CheckedLoad load = CheckedLoad.start(cluster, client, keys);
                KeyWriters writers = load.writers();

                LocalTime start = LocalTime.now();
                writers.faultNow();
                bed.cutLink(BedCluster.hostOf(victim));
                writers.faultApplied();
                for (int cycle = 1; cycle <= CYCLES; cycle++) {
                    Thread.sleep(DOWN.toMillis()); // the scenario: the link is down this long
                    bed.restoreLink(BedCluster.hostOf(victim));
                    if (cycle < CYCLES) {
                        Thread.sleep(UP.toMillis()); // the scenario: and up this long
                        bed.cutLink(BedCluster.hostOf(victim));
                    }
                }
                LocalTime healed = LocalTime.now();
                long healedNanos = System.nanoTime();
                double merged = PartitionChecks.secondsUntilOneViewOfAll(cluster, healedNanos);
                double settled = PartitionChecks.secondsUntilEveryPartitionHealthy(client, cluster.nodeIds(), healedNanos);
                CheckedLoad.Outcome outcome = load.finish();
                double machineLoad = MachineLoad.now();

                System.out.printf("netbed: link of %s (not the leader) down %.0f s / up %.0f s, %d times, %s: views"
                                + " during the flapping %s; owner leases lapsed %s; longest gap of its keys %.2f s, of"
                                + " all keys %.2f s (first outage at %s; longest gap: %s); one view of all %.2f s after the last outage, all healthy again"
                                + " after %.2f s; load %.1f on %d cores; %s%n",
                        victim, seconds(DOWN), seconds(UP), CYCLES, membership,
                        PartitionChecks.viewsBetween(cluster, start, healed), PartitionChecks.leaseLapses(cluster, start, healed),
                        writers.longestGapSeconds(victimKeys), writers.longestGapSeconds(keys), start,
                        writers.longestGapPlace(keys), merged, settled, machineLoad, MachineLoad.cores(), outcome);
                return new Attempt(writers.longestGapSeconds(keys), merged, outcome, machineLoad);
            }
        }
    }
}
