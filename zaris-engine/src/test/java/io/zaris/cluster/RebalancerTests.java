package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The leader's planned moves, with a fake clock: settle delay, drains, rebalance requests and the bound. */
class RebalancerTests {

    private static final long SECOND = 1_000_000_000L;
    private static final ClusterSettings SETTINGS = new ClusterSettings(3, PartitionLayout.of(64, 16), 2,
            Duration.ofSeconds(10), 3);
    private static final PartitionMap THREE = PartitionPlanner.plan(Set.of("a", "b", "c"), 16, 2, null);
    private static final Set<String> FOUR_NODES = Set.of("a", "b", "c", "d");

    @Test
    void aNewcomerGetsPartitionsOnlyAfterTheSettleDelay() {
        Rebalancer rebalancer = new Rebalancer("a", SETTINGS);
        RuntimeMap settled = RuntimeMap.initial(THREE, 1);
        Set<String> present = Set.of("a", "b", "c", "d");
        assertThat(rebalancer.nextMap(THREE, settled, present, 0)).isNull();
        assertThat(rebalancer.nextMap(THREE, settled, present, 9 * SECOND)).isNull();
        PartitionMap next = rebalancer.nextMap(THREE, settled, present, 10 * SECOND);
        assertThat(next).isNotNull();
        assertThat(next.version()).isEqualTo(THREE.version() + 1);
        assertThat(next.nodes()).contains("d");
        assertThat(changed(THREE, next)).as("at most maxConcurrentMoves partitions per step").hasSizeBetween(1, 3);
        assertThat(rebalancer.status().running()).isTrue();
    }

    @Test
    void aRebalanceRequestSkipsTheSettleDelay() {
        Rebalancer rebalancer = new Rebalancer("a", SETTINGS);
        rebalancer.rebalanceRequested("operator");
        assertThat(rebalancer.nextMap(THREE, RuntimeMap.initial(THREE, 1), Set.of("a", "b", "c", "d"), 0)).isNotNull();
    }

    @Test
    void aDrainingNodeIsPlannedOutUntilItsRequestLapses() {
        Rebalancer rebalancer = new Rebalancer("a", SETTINGS);
        rebalancer.drainRequested("c", 0);
        PartitionMap next = rebalancer.nextMap(THREE, RuntimeMap.initial(THREE, 1), Set.of("a", "b", "c"), SECOND);
        assertThat(next).isNotNull();
        for (int p : changed(THREE, next)) {
            assertThat(next.ownersOf(p).subList(0, 2)).as("planned owners of partition %d", p).doesNotContain("c");
        }
        Rebalancer lapsed = new Rebalancer("a", SETTINGS);
        lapsed.drainRequested("c", 0);
        assertThat(lapsed.nextMap(THREE, RuntimeMap.initial(THREE, 1), Set.of("a", "b", "c"),
                Rebalancer.DRAIN_REQUEST_TTL.toNanos() + SECOND)).as("a drain request not repeated").isNull();
    }

    @Test
    void aBalancedMapStaysAsItIs() {
        Rebalancer rebalancer = new Rebalancer("a", SETTINGS);
        rebalancer.rebalanceRequested("operator");
        assertThat(rebalancer.nextMap(THREE, RuntimeMap.initial(THREE, 1), Set.of("a", "b", "c"), 0)).isNull();
        assertThat(rebalancer.status()).isEqualTo(RebalanceStatus.IDLE);
    }

    @Test
    void stepMovesOnlySettledPartitionsAndNeverMoreThanTheBound() {
        PartitionMap four = PartitionPlanner.plan(Set.of("a", "b", "c", "d"), 16, 2, THREE);
        List<PartitionRuntime> runtimes = new ArrayList<>(RuntimeMap.initial(THREE, 1).partitions());
        List<Integer> differing = changed(THREE, four);
        int unsettled = differing.get(0);
        runtimes.set(unsettled, new PartitionRuntime(THREE.primaryOf(unsettled), 2, PartitionHealth.DEGRADED));
        PartitionMap next = Rebalancer.step(THREE, four, new RuntimeMap(runtimes), 3, FOUR_NODES);
        assertThat(changed(THREE, next)).hasSize(2).doesNotContain(unsettled);

        for (int i = 0; i < 3; i++) {
            int p = differing.get(i);
            runtimes.set(p, new PartitionRuntime(THREE.primaryOf(p), 2, PartitionHealth.DEGRADED));
        }
        assertThat(Rebalancer.step(THREE, four, new RuntimeMap(runtimes), 3, FOUR_NODES)).as("three moving: no new move").isNull();
    }

    @Test
    void aMoveKeepsThePreviousOwnersUntilThePartitionIsHealthyOnItsNewPrimary() {
        PartitionMap four = PartitionPlanner.plan(FOUR_NODES, 16, 2, THREE);
        List<Integer> moving = changed(THREE, four);

        PartitionMap grown = Rebalancer.step(THREE, four, RuntimeMap.initial(THREE, 1), 16, FOUR_NODES);

        List<PartitionRuntime> runtimes = new ArrayList<>(RuntimeMap.initial(THREE, 1).partitions());
        for (int p : moving) {
            assertThat(grown.ownersOf(p).subList(0, 2)).as("partition %d: planned owners first", p)
                    .isEqualTo(four.ownersOf(p));
            assertThat(grown.ownersOf(p)).as("partition %d: previous owners kept", p).containsAll(THREE.ownersOf(p));
            runtimes.set(p, new PartitionRuntime(THREE.primaryOf(p), 2, PartitionHealth.DEGRADED));
        }
        assertThat(Rebalancer.step(grown, four, new RuntimeMap(runtimes), 16, FOUR_NODES))
                .as("nothing sheds while the new owners sync").isNull();

        for (int p : moving) {
            runtimes.set(p, new PartitionRuntime(four.primaryOf(p), 3, PartitionHealth.HEALTHY));
        }
        PartitionMap shed = Rebalancer.step(grown, four, new RuntimeMap(runtimes), 1, FOUR_NODES);
        assertThat(shed.owners()).as("healthy on the new primaries: the previous owners go, all at once (dropping "
                + "owners moves nothing, so the bound does not apply)").isEqualTo(four.owners());
    }

    @Test
    void aPlanChangedMidMoveNeverListsMoreThanTwiceTheReplicationFactorNorDropsTheServingOwner() {
        assertThat(Rebalancer.movedOwners(List.of("a", "b"), List.of("c", "b"), 2)).containsExactly("c", "b", "a");
        assertThat(Rebalancer.movedOwners(List.of("c", "b", "a"), List.of("c", "b"), 2)).containsExactly("c", "b");
        assertThat(Rebalancer.movedOwners(List.of("c", "b", "a", "e"), List.of("d", "f"), 2))
                .containsExactly("d", "f", "c", "b");
        assertThat(Rebalancer.movedOwners(List.of("a", "b"), List.of("c"), 1)).containsExactly("c", "a");
    }

    /**
     * The leader that replaced a paused node continued a rebalance the paused leader had begun: its map still
     * called the paused node's partitions healthy, and moving them dropped their live replica.
     */
    @Test
    void partitionsOfAnAbsentNodeDoNotMoveNorMoveToIt() {
        PartitionMap four = PartitionPlanner.plan(FOUR_NODES, 16, 2, THREE);
        RuntimeMap settled = RuntimeMap.initial(THREE, 1);
        Set<String> withoutA = Set.of("b", "c", "d");

        PartitionMap next = Rebalancer.step(THREE, four, settled, 16, withoutA);

        assertThat(next).as("some partitions move without a").isNotNull();
        for (int p : changed(THREE, four)) {
            boolean involvesA = THREE.ownersOf(p).contains("a") || four.ownersOf(p).contains("a");
            List<String> expectedFirst = involvesA ? THREE.ownersOf(p) : four.ownersOf(p);
            assertThat(next.ownersOf(p).subList(0, 2)).as("partition %d", p).isEqualTo(expectedFirst);
            if (involvesA) {
                assertThat(next.ownersOf(p)).as("partition %d", p).isEqualTo(THREE.ownersOf(p));
            }
        }
        PartitionMap withoutAAndD = Rebalancer.step(THREE, four, settled, 16, Set.of("b", "c"));
        if (withoutAAndD != null) {
            for (int p : changed(THREE, withoutAAndD)) {
                assertThat(THREE.ownersOf(p)).as("partition %d", p).containsOnly("b", "c");
                assertThat(four.ownersOf(p)).as("partition %d", p).containsOnly("b", "c");
            }
        }
    }

    private static List<Integer> changed(PartitionMap before, PartitionMap after) {
        List<Integer> partitions = new ArrayList<>();
        for (int p = 0; p < before.partitionCount(); p++) {
            if (!before.ownersOf(p).equals(after.ownersOf(p))) {
                partitions.add(p);
            }
        }
        return partitions;
    }
}
