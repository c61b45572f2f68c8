package io.zaris.netbed;

import static io.zaris.netbed.PartitionChecks.EXCLUSION_BOUND;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The leader of three nodes is cut off silently (its packets dropped both ways, links up: a firewall or routing
 * partition, the kind that leaves every connection half-open) for 20 s while a client on the host side writes
 * chains of puts with default options and every node is read directly. Each node in its own network namespace with
 * a password; run with the cluster secret and with {@code --allow-insecure}.
 *
 * <p>Before the membership stack was fixed for half-open peers, the two remaining nodes formed a view and split
 * again seconds later, and no leader of a majority existed until the link came back.
 */
@Tag("multi-process")
class LeaderCutIntegrationTests {

    private static final int KEYS = 64;
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
    void theOthersElectANewLeaderAndServeWithinTheEscalationTimeout(BedCluster.Membership membership) throws Exception {
        try (NetworkBed bed = NetworkBed.create(3);
             BedCluster cluster = BedCluster.create(bed, PartitionChecks.logDirectory("leader-cut-" + membership), membership)) {
            cluster.start();
            try (ZarisClient client = cluster.defaultClient()) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                PartitionChecks.awaitSettled(cluster, Duration.ofSeconds(3));
                String victim = client.refreshMap().join().leader();
                assertThat(victim).as("the cluster names its leader").isNotNull();
                List<String> healthy = new ArrayList<>(cluster.nodeIds());
                healthy.remove(victim);
                List<String> keys = new ArrayList<>(PartitionChecks.keysServedBy(client, victim, KEYS / 3));
                keys.addAll(PartitionChecks.keysNotServedBy(client, victim, KEYS - keys.size()));
                CheckedLoad load = CheckedLoad.start(cluster, client, keys);
                KeyWriters writers = load.writers();

                LocalTime cut = LocalTime.now();
                long cutNanos = System.nanoTime();
                writers.faultNow();
                bed.isolate(BedCluster.hostOf(victim));
                writers.faultApplied();
                // nft runs once per namespace: on a loaded machine the cut is complete a second or more after it began
                LocalTime isolated = LocalTime.now();

                AtomicReference<String> newLeader = new AtomicReference<>();
                AtomicLong electedNanos = new AtomicLong();
                await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
                    String named = client.refreshMap().join().leader();
                    if (named != null && !named.equals(victim)) {
                        newLeader.set(named);
                        electedNanos.set(System.nanoTime());
                        return true;
                    }
                    return false;
                });
                double elected = (electedNanos.get() - cutNanos) / 1e9;
                await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100))
                        .until(() -> writers.writtenSinceFault(keys));
                double serving = writers.secondsUntilWritten(keys);
                PartitionChecks.ViewTiming newView = PartitionChecks.secondsUntilViewOfSize(cluster, healthy, 2, cut);

                Thread.sleep(Math.max(0, CUT.toMillis() - (System.nanoTime() - cutNanos) / 1_000_000)); // the scenario
                LocalTime heal = LocalTime.now();
                long healNanos = System.nanoTime();
                bed.heal();
                PartitionChecks.ViewTiming merged = PartitionChecks.secondsUntilViewOfSize(cluster, cluster.nodeIds(), 3, heal);
                double replica = PartitionChecks.secondsUntilReplicaAgain(client, victim, healNanos);
                CheckedLoad.Outcome outcome = load.finish();
                double leaseLapsed = PartitionChecks.secondsUntilLeaseLapsed(cluster, victim, cut, heal);
                double isolating = NodeLog.seconds(cut, isolated);

                System.out.printf("netbed: leader %s cut off silently for %.0f s, %s: the cut took %.2f s to apply; its lease ran out"
                                + " %.2f s after the cut; the others installed their view after %.2f-%.2f s, the client"
                                + " saw %s lead after %.2f s; every key writable after %.2f s (%s; longest gap %.2f s); merged"
                                + " %.2f s after healing; in sync as a replica again %.2f s after healing; %s%n",
                        victim, seconds(CUT), membership, isolating, leaseLapsed, newView.first(), newView.last(), newLeader.get(), elected,
                        serving, PartitionChecks.against(serving, SERVE_TARGET), writers.longestGapSeconds(keys), merged.last(), replica, outcome);
                PartitionChecks.assertStableMajority(cluster, healthy, cut, heal);
                assertThat(newLeader.get()).as("the new leader").isIn(healthy);
                // A leader's own lease ends with its leader lease (one lease after the last beat a majority
                // answered), long before the others exclude it and promote replacements.
                assertThat(leaseLapsed - isolating).as("seconds from the completed cut until the cut leader's lease ran out")
                        .isLessThanOrEqualTo(seconds(LEASE));
                assertThat(leaseLapsed).as("seconds from the cut until the cut leader's lease ran out")
                        .isLessThan(newView.first());
                assertThat(newView.last()).as("seconds until both others installed a view without the cut leader")
                        .isLessThanOrEqualTo(seconds(EXCLUSION_BOUND));
                assertThat(serving).as("seconds until every key took writes again")
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
