package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.PartitionState;
import io.zaris.replication.ReplicationSettings;
import io.zaris.time.FakeTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The leader's reconcile loop with injected peer answers, a direct executor and a fake clock: what it
 * publishes for a restarted active owner, a lost replica and a lone survivor.
 */
@Tag("unit")
class FailoverCoordinatorTests {

    private static final PartitionLayout LAYOUT = PartitionLayout.of(4, 2);
    private static final Map<String, NodeAddress> ADDRESSES = Map.of("a", new NodeAddress("127.0.0.1", 1),
            "b", new NodeAddress("127.0.0.1", 2), "c", new NodeAddress("127.0.0.1", 3));

    private final Map<String, Map<Integer, PartitionState>> answers = new HashMap<>();
    private final List<ClusterView> published = new ArrayList<>();
    /** Nodes whose data port no longer answers. */
    private final Set<String> crashed = new java.util.HashSet<>();
    /** Nodes whose data port takes its time to answer a probe (a hung process): each answers when its future completes. */
    private final Map<String, CompletableFuture<Boolean>> pendingProbes = new HashMap<>();
    /** Nodes asked for their partition states, in order. */
    private final List<String> askedForStates = new java.util.ArrayList<>();
    private long now = 1_000_000_000L;
    /** Evicts after 30 s, so the tests of promotion and degrading see no re-homing. */
    private final FailoverCoordinator coordinator = new FailoverCoordinator("c",
            new ClusterSettings(3, LAYOUT, 2), ReplicationSettings.defaults().withHealCooldown(Duration.ofSeconds(5))
                    .withEvictionDelay(Duration.ofSeconds(30)),
            new FakeProbe(), Runnable::run, FakeTime.followingNanos(() -> now));
    /** The default settings: a missing node's copies are re-homed as soon as its partitions failed over. */
    private final FailoverCoordinator defaultLeader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 2),
            ReplicationSettings.defaults(), new FakeProbe(), Runnable::run, FakeTime.followingNanos(() -> now));

    @Test
    void aCrashedActiveIsReplacedFirstAndItsCopiesAreReHomedInTheNextRound() {
        ClusterView view = aViewWhoseActiveACrashed();
        defaultLeader.reconcile(view, Set.of("b", "c"), () -> view, published::add);

        assertThat(published).hasSize(1);
        ClusterView failedOver = published.get(0);
        assertThat(failedOver.partitionMap()).isEqualTo(view.partitionMap()); // promotion only, no new map yet
        assertThat(failedOver.runtimeMap().get(0)).isEqualTo(new PartitionRuntime("b", 4, PartitionHealth.DEGRADED));
        assertThat(failedOver.runtimeMap().get(1)).isEqualTo(new PartitionRuntime("c", 2, PartitionHealth.DEGRADED));

        defaultLeader.reconcile(failedOver, Set.of("b", "c"), () -> failedOver, published::add);
        assertThat(published).hasSize(2);
        ClusterView rehomed = published.get(1);
        assertThat(rehomed.partitionMap().version()).isEqualTo(view.partitionMap().version() + 1);
        for (int p = 0; p < 2; p++) {
            // every partition that lost a copy has a replacement replica, and its serving active is kept
            assertThat(rehomed.partitionMap().ownersOf(p)).containsExactlyInAnyOrder("b", "c");
            assertThat(rehomed.runtimeMap().get(p).activeNode()).isEqualTo(failedOver.runtimeMap().get(p).activeNode());
            assertThat(rehomed.runtimeMap().get(p).health()).isEqualTo(PartitionHealth.DEGRADED);
            assertThat(rehomed.runtimeMap().get(p).epoch()).isGreaterThan(failedOver.runtimeMap().get(p).epoch());
        }
    }

    @Test
    void aLostReplicaIsDecidedWithoutWaitingForTheProbeOfAHungActiveAndTheFailoverOnceItAnswers() {
        // "a" left the view, hung: its data port takes the probe's whole timeout to say nothing
        ClusterView view = aViewWhoseActiveACrashed();
        CompletableFuture<Boolean> probeOfA = new CompletableFuture<>();
        pendingProbes.put("a", probeOfA);

        defaultLeader.reconcile(view, Set.of("b", "c"), () -> published.isEmpty() ? view : published.get(published.size() - 1),
                published::add);

        assertThat(published).as("partition 1 only lost its replica a: decided at once").hasSize(1);
        assertThat(published.get(0).runtimeMap().get(1)).isEqualTo(new PartitionRuntime("c", 2, PartitionHealth.DEGRADED));
        assertThat(published.get(0).runtimeMap().get(0)).as("a's own partition waits for the probe")
                .isEqualTo(view.runtimeMap().get(0));
        defaultLeader.reconcile(published.get(0), Set.of("b", "c"), () -> published.get(published.size() - 1),
                published::add);
        assertThat(published).as("no other round starts while the probe is out").hasSize(1);

        probeOfA.complete(false);

        assertThat(published).hasSize(2);
        assertThat(published.get(1).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("b", 4, PartitionHealth.DEGRADED));
        assertThat(published.get(1).runtimeMap().get(1)).isEqualTo(published.get(0).runtimeMap().get(1));
    }

    @Test
    void anEvictedNodeKeepsItsVoteWhilePresentAndLosesItOnlyAfterTheRetentionAbsent() {
        ClusterView view = aViewWhoseActiveACrashed();
        defaultLeader.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        ClusterView failedOver = published.get(0);
        defaultLeader.reconcile(failedOver, Set.of("b", "c"), () -> failedOver, published::add);
        ClusterView rehomed = published.get(1);
        assertThat(rehomed.partitionMap().nodes()).doesNotContain("a");
        assertThat(rehomed.voters()).as("re-homing copies does not change who votes").containsExactly("a", "b", "c");

        crashed.remove("a"); // "a" restarts and comes back; the map does not name it yet
        now += VoterRetention.ABSENT_VOTER_RETENTION.toNanos() * 2;
        int before = published.size();
        ClusterView settled = settle(rehomed, Set.of("a", "b", "c"));
        assertThat(settled.voters()).as("present: it keeps its vote").contains("a");

        crashed.add("a"); // and goes again
        settled = settle(settled, Set.of("b", "c"));
        assertThat(settled.voters()).as("just gone: still counted").contains("a");
        now += VoterRetention.ABSENT_VOTER_RETENTION.toNanos() - 1;
        settled = settle(settled, Set.of("b", "c"));
        assertThat(settled.voters()).contains("a");

        long version = settled.partitionMap().version();
        now += 1;
        ClusterView trimmed = settle(settled, Set.of("b", "c"));
        assertThat(trimmed.voters()).as("absent for the whole retention").containsExactly("b", "c");
        assertThat(trimmed.partitionMap().version()).isEqualTo(version + 1);
        assertThat(trimmed.partitionMap().owners()).isEqualTo(settled.partitionMap().owners());
        assertThat(trimmed.runtimeMap()).isEqualTo(settled.runtimeMap());
        assertThat(published.size()).isGreaterThan(before);
    }

    /**
     * Partition 0 active on "a" with "b" its replica, partition 1 active on "c" with "a" its replica; "a" crashed
     * (its data port no longer answers) and the others answer with their copies' state.
     */
    private ClusterView aViewWhoseActiveACrashed() {
        answers.put("b", Map.of(0, new PartitionState(3, 90, 12, 2)));
        answers.put("c", Map.of(1, new PartitionState(1, 40, 6, 2)));
        crashed.add("a");
        return view(List.of(List.of("a", "b"), List.of("c", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
    }

    private ClusterView aViewWhoseActiveLeftBeforeItsNewOwnerGotAnything() {
        crashed.add("a");
        return view(List.of(List.of("a", "c", "b"), List.of("c", "b")),
                new PartitionRuntime("a", 2, PartitionHealth.DEGRADED), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
    }

    /** Runs rounds of the default leader over the views it publishes until it publishes nothing more. */
    private ClusterView settle(ClusterView start, Set<String> present) {
        ClusterView held = start;
        for (int round = 0; round < 20; round++) {
            int before = published.size();
            ClusterView current = held;
            defaultLeader.reconcile(current, present, () -> current, published::add);
            if (published.size() == before) {
                return held;
            }
            held = published.get(published.size() - 1);
        }
        throw new AssertionError("the leader kept publishing: " + published.subList(published.size() - 3, published.size()));
    }

    @Test
    void aDepartedActiveWhoseDataPortAnswersKeepsItsPartitionUnlessItsOwnerLeaseSurelyRanOut() {
        ClusterView view = view(List.of(List.of("a", "b"), List.of("c", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        answers.put("b", Map.of(0, new PartitionState(3, 90, 12, 2)));
        answers.put("c", Map.of(1, new PartitionState(1, 40, 6, 2)));
        // "a" left the membership view, but its data port still answers the probe
        coordinator.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        assertThat(published).as("a reachable node that may still hold its lease keeps partition 0")
                .allMatch(v -> v.runtimeMap().get(0).equals(view.runtimeMap().get(0)));

        Set<String> lapsed = Set.of("a");
        FailoverCoordinator knowsTheLeaseRanOut = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 2),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new FakeProbe(), Runnable::run,
                FakeTime.followingNanos(() -> now), lapsed::contains);
        published.clear();
        knowsTheLeaseRanOut.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        assertThat(published).hasSize(1);
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("b", 4, PartitionHealth.DEGRADED));
    }

    @Test
    void aMemberWithoutALeaseIsSuspendedThenLosesItsActivePartitionsAndIsResumedWhenItRenews() {
        // "a" is still in the membership view (its link flaps, or it hangs), but has had no lease for a lease and
        // more: it refuses everything it serves
        Set<String> lapsed = new java.util.HashSet<>(Set.of("a"));
        Set<String> renewed = new java.util.HashSet<>(Set.of("b", "c"));
        FailoverCoordinator leader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 2),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new FakeProbe(), Runnable::run,
                FakeTime.followingNanos(() -> now), lapsed::contains, lapsed::contains, renewed::contains);
        ClusterView view = view(List.of(List.of("a", "b"), List.of("c", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        answers.put("a", Map.of(0, new PartitionState(3, 95, 13, 2)));
        answers.put("b", Map.of(0, new PartitionState(3, 90, 12, 2)));
        answers.put("c", Map.of(1, new PartitionState(1, 40, 6, 2)));
        Set<String> all = Set.of("a", "b", "c");

        leader.reconcile(view, all, () -> view, published::add);
        assertThat(published).hasSize(1);
        ClusterView suspended = published.get(0);
        assertThat(suspended.suspended()).containsExactly("a");
        assertThat(suspended.partitionMap().version()).as("ordered like a map change").isEqualTo(2);
        assertThat(suspended.runtimeMap()).isEqualTo(view.runtimeMap());

        askedForStates.clear();
        leader.reconcile(suspended, all, () -> suspended, published::add);
        assertThat(published).hasSize(2);
        assertThat(askedForStates).as("a suspended owner cannot be promoted, and a silent one would hold the round")
                .doesNotContain("a");
        ClusterView failedOver = published.get(1);
        assertThat(failedOver.runtimeMap().get(0)).as("not given back to the suspended node, which holds more keys")
                .isEqualTo(new PartitionRuntime("b", 4, PartitionHealth.DEGRADED));
        assertThat(failedOver.runtimeMap().get(1)).as("partition 1 serves on without waiting for its replica")
                .isEqualTo(new PartitionRuntime("c", 2, PartitionHealth.DEGRADED));
        assertThat(failedOver.suspended()).containsExactly("a");

        now += Duration.ofSeconds(10).toNanos();
        published.clear();
        leader.reconcile(failedOver, all, () -> failedOver, published::add);
        assertThat(published).as("no heal back while it is suspended").isEmpty();

        lapsed.clear();
        renewed.add("a"); // the leader confirmed its lease again
        leader.reconcile(failedOver, all, () -> failedOver, published::add);
        assertThat(published).hasSize(1);
        ClusterView resumed = published.get(0);
        assertThat(resumed.suspended()).isEmpty();
        assertThat(resumed.runtimeMap()).isEqualTo(failedOver.runtimeMap());

        answers.put("a", Map.of(0, new PartitionState(4, 90, 12, 2), 1, new PartitionState(2, 40, 6, 2)));
        answers.put("b", Map.of(0, new PartitionState(4, 90, 12, 2, 1)));
        answers.put("c", Map.of(1, new PartitionState(2, 40, 6, 2, 1)));
        now += ReplicationSettings.DEFAULT_HEAL_COOLDOWN.toNanos() - 1;
        leader.reconcile(resumed, all, () -> resumed, published::add);
        assertThat(published).as("nothing heals to a resumed node within a heal cooldown: its link may flap again").hasSize(1);

        now += 1;
        leader.reconcile(resumed, all, () -> resumed, published::add);
        // both heals wait for their actives' fences (b's and c's), then leave in one view
        assertThat(published).hasSize(2);
        assertThat(published.get(1).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("a", 5, PartitionHealth.HEALTHY));
        assertThat(published.get(1).runtimeMap().get(1)).isEqualTo(new PartitionRuntime("c", 3, PartitionHealth.HEALTHY));
    }

    @Test
    void aSuspendedMemberIsResumedOnlyOnceItsLeaseHeldForAWholeLease() {
        // "a" is on a flapping link: it renews in each short up-time and loses its lease in the next outage. Resumed
        // at its first renewal, it would be a replica every SYNC write waits for in the next outage.
        Set<String> lapsed = new java.util.HashSet<>(Set.of("a"));
        Set<String> renewed = new java.util.HashSet<>(Set.of("b", "c"));
        Set<String> steady = new java.util.HashSet<>(Set.of("b", "c"));
        FailoverCoordinator leader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 2),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new FakeProbe(), Runnable::run,
                FakeTime.followingNanos(() -> now), lapsed::contains, lapsed::contains, renewed::contains,
                steady::contains);
        ClusterView view = view(List.of(List.of("a", "b"), List.of("c", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        answers.put("b", Map.of(0, new PartitionState(3, 90, 12, 2)));
        answers.put("c", Map.of(1, new PartitionState(1, 40, 6, 2)));
        Set<String> all = Set.of("a", "b", "c");
        leader.reconcile(view, all, () -> view, published::add);
        ClusterView suspended = published.get(published.size() - 1);
        assertThat(suspended.suspended()).containsExactly("a");

        lapsed.clear();
        renewed.add("a"); // its link is up again, for now
        leader.reconcile(suspended, all, () -> suspended, published::add);
        ClusterView held = published.get(published.size() - 1);
        assertThat(held.suspended()).as("renewed, but not yet for a whole lease").containsExactly("a");

        steady.add("a");
        ClusterView current = held;
        leader.reconcile(current, all, () -> current, published::add);
        assertThat(published.get(published.size() - 1).suspended()).isEmpty();
    }

    @Test
    void aNodeBackInTheViewGetsNoHealWithinACooldownOfItsReturn() {
        // "a" left the view (a flapping link can take it out and back in a few seconds) and comes back: its
        // partition must not be handed back the moment it returns, only after a whole heal cooldown.
        Set<String> none = Set.of();
        FailoverCoordinator leader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 2),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new FakeProbe(), Runnable::run,
                FakeTime.followingNanos(() -> now), none::contains, none::contains, node -> true);
        ClusterView view = view(List.of(List.of("a", "b"), List.of("c", "b")),
                new PartitionRuntime("b", 4, PartitionHealth.DEGRADED), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        answers.put("a", Map.of(0, new PartitionState(4, 90, 12, 2)));
        answers.put("b", Map.of(0, new PartitionState(4, 90, 12, 2, 1), 1, new PartitionState(1, 40, 6, 2)));
        answers.put("c", Map.of(1, new PartitionState(1, 40, 6, 2, 1)));
        leader.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        now += Duration.ofSeconds(10).toNanos();

        leader.reconcile(view, Set.of("a", "b", "c"), () -> view, published::add);
        assertThat(published).as("nothing heals to a node just back in the view").isEmpty();

        now += ReplicationSettings.DEFAULT_HEAL_COOLDOWN.toNanos();
        leader.reconcile(view, Set.of("a", "b", "c"), () -> view, published::add);
        assertThat(published).hasSize(1);
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("a", 5, PartitionHealth.HEALTHY));
    }

    @Test
    void nothingHealsToAnOwnerWhoseLeaseThisLeaderKnowsRanOut() {
        // "a" was resumed in an up window of a flapping link and has served a whole cooldown since, but its link
        // went down again: its last grant is more than a lease old, though not yet long enough to suspend it.
        Set<String> lapsed = new java.util.HashSet<>(Set.of("a"));
        Set<String> none = Set.of();
        FailoverCoordinator leader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 2),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new FakeProbe(), Runnable::run,
                FakeTime.followingNanos(() -> now), lapsed::contains, none::contains, node -> true);
        ClusterView view = view(List.of(List.of("a", "b"), List.of("c", "b")),
                new PartitionRuntime("b", 4, PartitionHealth.DEGRADED), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        answers.put("a", Map.of(0, new PartitionState(4, 90, 12, 2)));
        answers.put("b", Map.of(0, new PartitionState(4, 90, 12, 2, 1), 1, new PartitionState(1, 40, 6, 2)));
        answers.put("c", Map.of(1, new PartitionState(1, 40, 6, 2, 1)));
        Set<String> all = Set.of("a", "b", "c");
        now += ReplicationSettings.DEFAULT_HEAL_COOLDOWN.toNanos() * 2;

        leader.reconcile(view, all, () -> view, published::add);
        assertThat(published).as("partition 0 stays on b, which serves it").isEmpty();

        lapsed.clear(); // a renewed: its lease holds again
        leader.reconcile(view, all, () -> view, published::add);
        assertThat(published).hasSize(1);
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("a", 5, PartitionHealth.HEALTHY));
    }

    @Test
    void aSuspendedMemberKeepsAPartitionNoOtherOwnerCanServe() {
        Set<String> lapsed = Set.of("a", "b");
        FailoverCoordinator leader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 2),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new FakeProbe(), Runnable::run,
                FakeTime.followingNanos(() -> now), lapsed::contains, lapsed::contains, node -> false);
        ClusterView view = view(List.of(List.of("a", "b"), List.of("c", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        ClusterView held = view;
        for (int round = 0; round < 3; round++) {
            ClusterView current = held;
            leader.reconcile(current, Set.of("a", "b", "c"), () -> current, published::add);
            held = published.isEmpty() ? held : published.get(published.size() - 1);
        }
        assertThat(held.suspended()).containsExactly("a", "b");
        assertThat(held.runtimeMap().get(0)).as("moving partition 0 gains nothing: its other owner is suspended too")
                .isEqualTo(view.runtimeMap().get(0));
    }

    @Test
    void anIncompleteCopyIsNotPromotedWhileSuspendedOwnersHoldWritesItLacks() {
        // The shape of a chaos run that lost acknowledged writes: right after a healed partition the leader suspended
        // the active "a" and the replica "b" for a moment, and the only serving owner, "c", was still catching up
        // (no segment synced): promoted, it made its older copy authoritative, and a and b took its snapshot.
        Set<String> lapsed = new java.util.HashSet<>(Set.of("a", "b"));
        Set<String> renewed = new java.util.HashSet<>(Set.of("c"));
        FailoverCoordinator leader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 3),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new FakeProbe(), Runnable::run,
                FakeTime.followingNanos(() -> now), lapsed::contains, lapsed::contains, renewed::contains);
        ClusterView view = new ClusterView(LAYOUT, new PartitionMap(1, 3, List.of(List.of("a", "b", "c"),
                List.of("c", "a", "b"))), new RuntimeMap(List.of(new PartitionRuntime("a", 7, PartitionHealth.DEGRADED),
                new PartitionRuntime("c", 3, PartitionHealth.HEALTHY))), ADDRESSES);
        answers.put("a", Map.of(0, new PartitionState(7, 120, 14, 2)));
        answers.put("b", Map.of(0, new PartitionState(7, 118, 14, 2)));
        answers.put("c", Map.of(0, new PartitionState(7, 95, 12, 0), 1, new PartitionState(3, 40, 6, 2)));
        Set<String> all = Set.of("a", "b", "c");

        ClusterView held = view;
        for (int round = 0; round < 4; round++) {
            ClusterView current = held;
            leader.reconcile(current, all, () -> current, published::add);
            held = published.isEmpty() ? held : published.get(published.size() - 1);
            now += Duration.ofMillis(500).toNanos();
        }
        assertThat(held.suspended()).containsExactly("a", "b");
        assertThat(held.runtimeMap().get(0).activeNode()).as("c has 0 of 2 segments synced; a and b may hold more")
                .isEqualTo("a");

        lapsed.clear();
        renewed.addAll(Set.of("a", "b"));
        ClusterView suspended = held;
        leader.reconcile(suspended, all, () -> suspended, published::add);
        ClusterView resumed = published.get(published.size() - 1);
        assertThat(resumed.suspended()).isEmpty();
        assertThat(resumed.runtimeMap().get(0)).as("a serves its partition again, with every write it acknowledged")
                .isEqualTo(view.runtimeMap().get(0));
    }

    @Test
    void anIncompleteCopyIsPromotedOnceTheSuspendedOwnersLeftTheView() {
        Set<String> lapsed = Set.of("a", "b");
        FailoverCoordinator leader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 3),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new FakeProbe(), Runnable::run,
                FakeTime.followingNanos(() -> now), lapsed::contains, lapsed::contains, node -> node.equals("c"));
        ClusterView view = new ClusterView(LAYOUT, new PartitionMap(1, 3, List.of(List.of("a", "b", "c"),
                List.of("c", "a", "b"))), new RuntimeMap(List.of(new PartitionRuntime("a", 7, PartitionHealth.DEGRADED),
                new PartitionRuntime("c", 3, PartitionHealth.HEALTHY))), ADDRESSES).withSuspended(
                new PartitionMap(2, 3, List.of(List.of("a", "b", "c"), List.of("c", "a", "b"))),
                new RuntimeMap(List.of(new PartitionRuntime("a", 7, PartitionHealth.DEGRADED),
                        new PartitionRuntime("c", 3, PartitionHealth.HEALTHY))), Set.of("a", "b"));
        answers.put("c", Map.of(0, new PartitionState(7, 95, 12, 0), 1, new PartitionState(3, 40, 6, 2)));

        ClusterView held = view;
        for (int round = 0; round < 3; round++) {
            ClusterView current = held;
            leader.reconcile(current, Set.of("c"), () -> current, published::add);
            held = published.isEmpty() ? held : published.get(published.size() - 1);
        }
        assertThat(held.suspended()).as("resumed: they left the view").isEmpty();
        assertThat(held.runtimeMap().get(0)).as("the best copy left serves what is left")
                .isEqualTo(new PartitionRuntime("c", 8, PartitionHealth.DEGRADED));
    }

    @Test
    void aCandidateThatHasNotSeenTheCurrentEpochCountsNoSyncedSegments() {
        // "b" missed the epoch bump (it was suspended and cut off): its copy looks complete under epoch 3 only
        ClusterView view = view(List.of(List.of("a", "b", "c"), List.of("c", "a")),
                new PartitionRuntime("a", 4, PartitionHealth.DEGRADED), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        answers.put("b", Map.of(0, new PartitionState(3, 90, 12, 2)));
        answers.put("c", Map.of(0, new PartitionState(4, 80, 11, 2), 1, new PartitionState(1, 40, 6, 2)));
        crashed.add("a");
        coordinator.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        assertThat(published).isNotEmpty();
        assertThat(published.get(0).runtimeMap().get(0).activeNode()).isEqualTo("c");
    }

    @Test
    void aRestartedActiveThatDisownsItsPartitionIsReplacedByTheReplicaWithTheData() {
        ClusterView view = view(List.of(List.of("a", "b"), List.of("b", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("b", 1, PartitionHealth.HEALTHY));
        answers.put("a", Map.of(0, new PartitionState(4, 0, 0, 0))); // restarted: fenced its old epoch, holds nothing
        answers.put("b", Map.of(0, new PartitionState(3, 90, 12, 2)));
        coordinator.disown("a", Map.of(0, 3L), view);
        coordinator.reconcile(view, Set.of("a", "b", "c"), () -> view, published::add);
        assertThat(published).hasSize(1);
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("b", 5, PartitionHealth.DEGRADED));
        assertThat(published.get(0).runtimeMap().get(1)).isEqualTo(view.runtimeMap().get(1));
    }

    @Test
    void aRestartedActiveIsNotPromotedWhileTheReplicaWithTheDataHasNotAnsweredYet() {
        ClusterView view = view(List.of(List.of("a", "b"), List.of("b", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("b", 1, PartitionHealth.HEALTHY));
        answers.put("a", Map.of(0, new PartitionState(4, 0, 0, 0))); // restarted, empty; "b" is a member but silent
        coordinator.disown("a", Map.of(0, 3L), view);
        coordinator.reconcile(view, Set.of("a", "b", "c"), () -> view, published::add);
        assertThat(published).as("the empty store must not be made authoritative").isEmpty();

        answers.put("b", Map.of(0, new PartitionState(3, 90, 12, 2))); // the next round hears the replica
        coordinator.reconcile(view, Set.of("a", "b", "c"), () -> view, published::add);
        assertThat(published).hasSize(1);
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("b", 5, PartitionHealth.DEGRADED));
    }

    @Test
    void aRestartedActiveIsNotPromotedWhileAMemberOfTheViewHasNotAnnouncedItself() {
        // after a merge, the paused survivor "b" holding the data is a member whose hello has not arrived: not present
        ClusterView view = view(List.of(List.of("a", "b"), List.of("b", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("b", 1, PartitionHealth.HEALTHY));
        answers.put("a", Map.of(0, new PartitionState(4, 0, 0, 0))); // restarted: fenced its old epoch, holds nothing
        coordinator.disown("a", Map.of(0, 3L), view);
        coordinator.reconcile(view, Set.of("a", "c"), 1, () -> view, published::add);
        assertThat(published).as("the empty store must not be made authoritative").isEmpty();

        answers.put("b", Map.of(0, new PartitionState(3, 90, 12, 2))); // its hello arrived: present, and it answers
        coordinator.reconcile(view, Set.of("a", "b", "c"), 0, () -> view, published::add);
        assertThat(published).isNotEmpty();
        assertThat(published.get(published.size() - 1).runtimeMap().get(0).activeNode()).isEqualTo("b");
    }

    @Test
    void anEmptyNewOwnerIsNotPromotedWhileTheOwnerHoldingTheDataHasNotAnswered() {
        // a drain re-mapped partition 0 to [a, c, b]: "c" is new and empty, "a" (the active) is gone, "b" holds the
        // data but its answer is lost
        ClusterView view = aViewWhoseActiveLeftBeforeItsNewOwnerGotAnything();
        answers.put("c", Map.of(0, new PartitionState(2, 0, 0, 0)));
        coordinator.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        assertThat(published).as("the empty copy must not become the only serving one").isEmpty();

        answers.put("b", Map.of(0, new PartitionState(2, 90, 12, 0))); // the next round hears the holder
        coordinator.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        assertThat(published).hasSize(1);
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("b", 3, PartitionHealth.DEGRADED));
    }

    @Test
    void anEmptyNewOwnerServesOnceTheOwnerHoldingTheDataIsGone() {
        ClusterView view = aViewWhoseActiveLeftBeforeItsNewOwnerGotAnything();
        answers.put("c", Map.of(0, new PartitionState(2, 0, 0, 0)));
        coordinator.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        assertThat(published).isEmpty();

        coordinator.reconcile(view, Set.of("c"), () -> view, published::add); // "b" left the view: "c" is a lone survivor
        assertThat(published).isNotEmpty();
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("c", 3, PartitionHealth.DEGRADED));
    }

    @Test
    void aDisownOfAnEpochThatAlreadyMovedOnIsIgnored() {
        ClusterView view = view(List.of(List.of("a", "b"), List.of("b", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("b", 1, PartitionHealth.HEALTHY));
        coordinator.disown("a", Map.of(0, 2L), view);
        coordinator.disown("b", Map.of(0, 3L), view);
        coordinator.reconcile(view, Set.of("a", "b", "c"), () -> view, published::add);
        assertThat(published).isEmpty();
    }

    @Test
    void aRestartedLoneSurvivorServesItsPartitionUnderANewEpoch() {
        ClusterView view = view(List.of(List.of("a", "b"), List.of("b", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("b", 1, PartitionHealth.HEALTHY));
        answers.put("a", Map.of(0, new PartitionState(4, 0, 0, 0)));
        coordinator.disown("a", Map.of(0, 3L), view);
        coordinator.reconcile(view, Set.of("a", "c"), () -> view, published::add);
        assertThat(published.get(published.size() - 1).runtimeMap().get(0))
                .isEqualTo(new PartitionRuntime("a", 5, PartitionHealth.DEGRADED));
    }

    @Test
    void aHealthyPartitionThatLosesAReplicaIsMarkedDegradedOnTheSameActive() {
        ClusterView view = view(List.of(List.of("a", "b"), List.of("c", "a")),
                new PartitionRuntime("a", 2, PartitionHealth.HEALTHY), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        answers.put("a", Map.of(0, new PartitionState(2, 10, 5, 2)));
        coordinator.reconcile(view, Set.of("a", "c"), () -> view, published::add);
        assertThat(published).hasSize(1);
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("a", 3, PartitionHealth.DEGRADED));
        assertThat(published.get(0).runtimeMap().get(1)).isEqualTo(view.runtimeMap().get(1));
    }

    @Test
    void aRestartedActiveThatLostAReplicaIsNotGivenANewEpochOnItsEmptyStore() {
        ClusterView view = view(List.of(List.of("a", "b"), List.of("c", "a")),
                new PartitionRuntime("a", 3, PartitionHealth.HEALTHY), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        answers.put("a", Map.of(0, new PartitionState(4, 0, 0, 0))); // fenced its inherited epoch 3
        coordinator.reconcile(view, Set.of("a", "c"), () -> view, published::add);
        assertThat(published).isEmpty();
    }

    @Test
    void absencesSeenInAnEarlierLeadershipDoNotCountTowardsEviction() {
        FailoverCoordinator leader = new FailoverCoordinator("c", new ClusterSettings(3, LAYOUT, 2),
                ReplicationSettings.defaults().withEvictionDelay(Duration.ofSeconds(30)), new FakeProbe(), Runnable::run,
                FakeTime.followingNanos(() -> now));
        ClusterView view = view(List.of(List.of("b", "a"), List.of("c", "a")),
                new PartitionRuntime("b", 1, PartitionHealth.HEALTHY), new PartitionRuntime("c", 1, PartitionHealth.HEALTHY));
        leader.reconcile(view, Set.of("b", "c"), () -> view, published::add); // "a" is seen missing
        leader.forgetAbsences(); // another node leads for a while; "a" may have come back meanwhile
        now += Duration.ofSeconds(31).toNanos();
        leader.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        assertThat(published).noneMatch(v -> v.partitionMap().version() > view.partitionMap().version());

        now += Duration.ofSeconds(31).toNanos(); // missing for the whole delay of this leadership: evicted
        leader.reconcile(view, Set.of("b", "c"), () -> view, published::add);
        assertThat(published).anyMatch(v -> v.partitionMap().version() == view.partitionMap().version() + 1
                && !v.partitionMap().nodes().contains("a"));
    }

    private static String nodeAt(NodeAddress address) {
        return ADDRESSES.entrySet().stream().filter(e -> e.getValue().equals(address)).findFirst().orElseThrow().getKey();
    }

    private static ClusterView view(List<List<String>> owners, PartitionRuntime p0, PartitionRuntime p1) {
        return new ClusterView(LAYOUT, new PartitionMap(1, 2, owners), new RuntimeMap(List.of(p0, p1)), ADDRESSES);
    }

    /** Answers from {@link #answers}; every node's data port is reachable but those in {@link #crashed}. */
    private final class FakeProbe implements PeerProbe {
        @Override
        public CompletableFuture<Boolean> isReachable(NodeAddress address) {
            CompletableFuture<Boolean> pending = pendingProbes.get(nodeAt(address));
            return pending != null ? pending : CompletableFuture.completedFuture(!crashed.contains(nodeAt(address)));
        }

        @Override
        public CompletableFuture<Map<Integer, PartitionState>> partitionStates(NodeAddress address,
                                                                                  Collection<Integer> partitions) {
            askedForStates.add(nodeAt(address));
            Map<Integer, PartitionState> states = new HashMap<>(answers.getOrDefault(nodeAt(address), Map.of()));
            states.keySet().retainAll(partitions);
            return CompletableFuture.completedFuture(states);
        }

        @Override
        public CompletableFuture<Set<Integer>> fenceForHandOver(NodeAddress address, Map<Integer, Long> epochs) {
            fencesAsked.put(nodeAt(address), epochs);
            return fenceAnswer;
        }
    }

    /** Old active → the partitions and epochs the leader asked it to fence before a hand-over. */
    private final Map<String, Map<Integer, Long>> fencesAsked = new HashMap<>();
    /** What every old active answers to a fence; completed by each test that needs it. */
    private CompletableFuture<Set<Integer>> fenceAnswer = CompletableFuture.completedFuture(Set.of());

    /** Partition 0 DEGRADED on b, which hands it back to its primary a; every copy in sync; partition 1 healthy on c. */
    private ClusterView aViewReadyToHandPartitionZeroBackToA() {
        answers.put("a", Map.of(0, new PartitionState(4, 90, 12, 2)));
        answers.put("b", Map.of(0, new PartitionState(4, 90, 12, 2, 1)));
        return view(List.of(List.of("a", "b"), List.of("c", "a")), new PartitionRuntime("b", 4, PartitionHealth.DEGRADED),
                new PartitionRuntime("c", 2, PartitionHealth.HEALTHY));
    }

    @Test
    void aPlannedHandOverIsPublishedOnlyOnceTheOldActiveAnsweredItsFence() {
        ClusterView view = aViewReadyToHandPartitionZeroBackToA();
        fenceAnswer = new CompletableFuture<>();

        coordinator.reconcile(view, Set.of("a", "b", "c"), () -> view, published::add);

        assertThat(fencesAsked).isEqualTo(Map.of("b", Map.of(0, 4L)));
        assertThat(published).as("nothing published while b may still ship writes of epoch 4").isEmpty();
        coordinator.reconcile(view, Set.of("a", "b", "c"), () -> view, published::add);
        assertThat(published).as("no other round starts while the fence is out").isEmpty();

        fenceAnswer.complete(Set.of(0));

        assertThat(published).hasSize(1);
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("a", 5, PartitionHealth.HEALTHY));
        assertThat(published.get(0).runtimeMap().get(1)).isEqualTo(view.runtimeMap().get(1));
    }

    @Test
    void aPlannedHandOverWhoseOldActiveDoesNotConfirmIsPublishedAnyway() {
        ClusterView view = aViewReadyToHandPartitionZeroBackToA();
        fenceAnswer = new CompletableFuture<>();
        coordinator.reconcile(view, Set.of("a", "b", "c"), () -> view, published::add);

        fenceAnswer.complete(Set.of()); // the probe's bound ran out, or b refused

        assertThat(published).hasSize(1);
        assertThat(published.get(0).runtimeMap().get(0)).isEqualTo(new PartitionRuntime("a", 5, PartitionHealth.HEALTHY));
    }

    @Test
    void aPlannedHandOverOvertakenByAnotherChangeWhileItsFenceWasOutIsDropped() {
        ClusterView view = aViewReadyToHandPartitionZeroBackToA();
        ClusterView[] latest = {view};
        fenceAnswer = new CompletableFuture<>();
        coordinator.reconcile(view, Set.of("a", "b", "c"), () -> latest[0], published::add);

        latest[0] = view(view.partitionMap().owners(), new PartitionRuntime("b", 6, PartitionHealth.DEGRADED),
                view.runtimeMap().get(1));
        fenceAnswer.complete(Set.of(0));

        assertThat(published).as("partition 0 changed meanwhile; a later round decides again").isEmpty();
    }

    @Test
    void aHealFencesItsActiveWhereverItGoesUnlessThatActiveNoLongerServes() {
        PartitionRuntime onB = new PartitionRuntime("b", 4, PartitionHealth.DEGRADED);
        assertThat(PlannedHandOvers.fenceFirst(onB, new PartitionRuntime("a", 5, PartitionHealth.HEALTHY), true)).isTrue();
        assertThat(PlannedHandOvers.fenceFirst(onB, new PartitionRuntime("b", 5, PartitionHealth.HEALTHY), true))
                .as("the active stays under a new epoch: its replicas may install it first").isTrue();
        assertThat(PlannedHandOvers.fenceFirst(onB, new PartitionRuntime("a", 5, PartitionHealth.HEALTHY), false))
                .as("the old active does not serve: nothing to fence").isFalse();
        assertThat(PlannedHandOvers.fenceFirst(new PartitionRuntime(null, 4, PartitionHealth.UNAVAILABLE),
                new PartitionRuntime("a", 5, PartitionHealth.HEALTHY), true)).isFalse();
    }

    @Test
    void onlyAHealthyPartitionOnItsNewPrimaryShedsOwnersWithoutANewEpoch() {
        PartitionRuntime healthyOnC = new PartitionRuntime("c", 7, PartitionHealth.HEALTHY);
        Set<String> all = Set.of("a", "b", "c");

        assertThat(FailoverCoordinator.sheddingOnly(healthyOnC, List.of("c", "b", "a"), List.of("c", "b"), all)).isTrue();
        assertThat(FailoverCoordinator.sheddingOnly(new PartitionRuntime("c", 7, PartitionHealth.DEGRADED),
                List.of("c", "b", "a"), List.of("c", "b"), all)).as("still syncing").isFalse();
        assertThat(FailoverCoordinator.sheddingOnly(healthyOnC, List.of("a", "b"), List.of("c", "b"), all))
                .as("a new owner").isFalse();
        assertThat(FailoverCoordinator.sheddingOnly(healthyOnC, List.of("c", "b", "a"), List.of("b", "c"), all))
                .as("another primary").isFalse();
        assertThat(FailoverCoordinator.sheddingOnly(healthyOnC, List.of("c", "b", "a"), List.of("c", "b"),
                Set.of("a", "b"))).as("the active vanished").isFalse();
    }

    @Test
    void anEvictionKeepsThePreviousOwnersThatArePresentAfterThePlannedOnes() {
        // partition 0 was moving to [d, b] from [a, c]; b is evicted and the planner picks [d, a]
        PartitionMap previous = new PartitionMap(4, 2, List.of(List.of("d", "b", "a", "c"), List.of("a", "c")));
        PartitionMap planned = new PartitionMap(5, 2, List.of(List.of("d", "a"), List.of("a", "c")));

        PartitionMap next = FailoverCoordinator.keepingLiveHolders(previous, planned, Set.of("a", "c", "d"));

        assertThat(next.version()).isEqualTo(5);
        assertThat(next.ownersOf(0)).containsExactly("d", "a", "c");
        assertThat(next.ownersOf(1)).containsExactly("a", "c");
    }
}
