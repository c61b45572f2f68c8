package io.zaris.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Balance, determinism and movement of {@link PartitionPlanner}, over members 1..20, replication factor
 * 1..3 and partition counts {1, 7, 64, 128, 271}.
 *
 * <p>Movement bounds asserted (N = members after the change, r = min(rf, N)):
 * <ul>
 *   <li>adding the N-th node to a map planned for N-1: at most {@code ceil(P*r/N) + r} owner slots and
 *       {@code ceil(P/N) + 1} primaries change. The newcomer can take every slot it needs straight from the
 *       most loaded nodes, one per partition, and the planner moves the fewest slots possible;</li>
 *   <li>removing a node (r unchanged): exactly the slots it held move, one new owner per partition it held,
 *       and no partition it did not hold changes owners. At least that many must move, and the planner's
 *       min-cost flow finds this minimum whenever it is within the balance bounds, which it always is here.
 *       Primary roles change for the partitions it led plus at most {@code ceil(P/N) + r} rebalancing
 *       hand-overs (measured over this matrix; a hand-over moves no data);</li>
 *   <li>growing 1 to 20 and shrinking back one node at a time: the same bounds at every step.</li>
 * </ul>
 */
@Tag("unit")
class PartitionPlannerTests {

    private static final int MAX_MEMBERS = 20;

    static Stream<Arguments> shapes() {
        List<Arguments> shapes = new ArrayList<>();
        for (int partitionCount : new int[] {1, 7, 64, 128, 271}) {
            for (int replicationFactor = 1; replicationFactor <= 3; replicationFactor++) {
                shapes.add(Arguments.of(partitionCount, replicationFactor));
            }
        }
        return shapes.stream();
    }

    @ParameterizedTest(name = "P={0}, rf={1}")
    @MethodSource("shapes")
    void firstMapIsBalancedForEveryClusterSize(int partitionCount, int replicationFactor) {
        for (int n = 1; n <= MAX_MEMBERS; n++) {
            List<String> members = members(n);

            PartitionMap map = PartitionPlanner.plan(members, partitionCount, replicationFactor, null);

            assertWithinBounds(map, members, partitionCount, replicationFactor);
            assertThat(map.version()).isEqualTo(1);
            assertThat(map.replicationFactor()).isEqualTo(replicationFactor);
            int primaryFloor = partitionCount / n;
            assertThat(primaryCounts(map, members).values()).allSatisfy(
                    count -> assertThat(count).isGreaterThanOrEqualTo(primaryFloor));
        }
    }

    @ParameterizedTest(name = "P={0}, rf={1}")
    @MethodSource("shapes")
    void planDependsOnlyOnTheSetOfMembers(int partitionCount, int replicationFactor) {
        Random random = new Random(partitionCount * 31L + replicationFactor);
        for (int n : new int[] {1, 2, 3, 5, 8, 13, 20}) {
            List<String> members = members(n);
            PartitionMap expected = PartitionPlanner.plan(members, partitionCount, replicationFactor, null);
            PartitionMap previous = PartitionPlanner.plan(members(n + 1), partitionCount, replicationFactor, null);
            PartitionMap expectedNext = PartitionPlanner.plan(members, partitionCount, replicationFactor, previous);

            for (int round = 0; round < 3; round++) {
                List<String> shuffled = new ArrayList<>(members);
                Collections.shuffle(shuffled, random);
                assertThat(PartitionPlanner.plan(shuffled, partitionCount, replicationFactor, null)).isEqualTo(expected);
                assertThat(PartitionPlanner.plan(shuffled, partitionCount, replicationFactor, previous))
                        .isEqualTo(expectedNext);
            }
            assertThat(PartitionPlanner.plan(new HashSet<>(members), partitionCount, replicationFactor, null))
                    .isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "P={0}, rf={1}")
    @MethodSource("shapes")
    void addingTheNthNodeMovesAboutOneNodesShare(int partitionCount, int replicationFactor) {
        for (int n = 2; n <= MAX_MEMBERS; n++) {
            PartitionMap before = PartitionPlanner.plan(members(n - 1), partitionCount, replicationFactor, null);

            PartitionMap after = PartitionPlanner.plan(members(n), partitionCount, replicationFactor, before);

            int copies = Math.min(replicationFactor, n);
            assertWithinBounds(after, members(n), partitionCount, replicationFactor);
            assertThat(after.version()).isEqualTo(2);
            assertThat(movedSlots(before, after)).as("moved owner slots, n=%d", n)
                    .isLessThanOrEqualTo(ceilDiv(partitionCount * copies, n) + copies);
            assertThat(changedPrimaries(before, after)).as("changed primaries, n=%d", n)
                    .isLessThanOrEqualTo(ceilDiv(partitionCount, n) + 1);
        }
    }

    @ParameterizedTest(name = "P={0}, rf={1}")
    @MethodSource("shapes")
    void removingANodeMovesOnlyTheSlotsItHeld(int partitionCount, int replicationFactor) {
        for (int n = 2; n <= MAX_MEMBERS; n++) {
            PartitionMap before = PartitionPlanner.plan(members(n), partitionCount, replicationFactor, null);
            for (String leaving : members(n)) {
                List<String> remaining = new ArrayList<>(members(n));
                remaining.remove(leaving);

                PartitionMap after = PartitionPlanner.plan(remaining, partitionCount, replicationFactor, before);

                assertWithinBounds(after, remaining, partitionCount, replicationFactor);
                assertMovedOnlyWhatTheLeaverHeld(before, after, leaving, remaining.size());
            }
        }
    }

    @ParameterizedTest(name = "P={0}, rf={1}")
    @MethodSource("shapes")
    void growingAndShrinkingOneNodeAtATimeStaysWithinTheSameBounds(int partitionCount, int replicationFactor) {
        PartitionMap map = PartitionPlanner.plan(members(1), partitionCount, replicationFactor, null);
        for (int n = 2; n <= MAX_MEMBERS; n++) {
            PartitionMap next = PartitionPlanner.plan(members(n), partitionCount, replicationFactor, map);
            int copies = Math.min(replicationFactor, n);
            assertWithinBounds(next, members(n), partitionCount, replicationFactor);
            assertThat(next.version()).isEqualTo(map.version() + 1);
            assertThat(movedSlots(map, next)).isLessThanOrEqualTo(ceilDiv(partitionCount * copies, n) + copies);
            assertThat(changedPrimaries(map, next)).isLessThanOrEqualTo(ceilDiv(partitionCount, n) + 1);
            map = next;
        }
        for (int n = MAX_MEMBERS; n >= 2; n--) {
            List<String> remaining = members(n - 1);
            PartitionMap next = PartitionPlanner.plan(remaining, partitionCount, replicationFactor, map);
            assertWithinBounds(next, remaining, partitionCount, replicationFactor);
            assertMovedOnlyWhatTheLeaverHeld(map, next, members(n).get(n - 1), n - 1);
            map = next;
        }
    }

    @Test
    void unchangedMembershipKeepsEveryAssignmentAndBumpsTheVersion() {
        PartitionMap first = PartitionPlanner.plan(members(5), 128, 3, null);

        PartitionMap second = PartitionPlanner.plan(members(5), 128, 3, first);

        assertThat(second.owners()).isEqualTo(first.owners());
        assertThat(second.version()).isEqualTo(2);
        assertThat(PartitionPlanner.plan(members(5), 128, 3, second).version()).isEqualTo(3);
    }

    @Test
    void replicationFactorAboveMemberCountPutsEveryMemberOnEveryPartition() {
        PartitionMap map = PartitionPlanner.plan(members(2), 16, 3, null);

        assertThat(map.owners()).allSatisfy(owners -> assertThat(owners).containsExactlyInAnyOrderElementsOf(members(2)));
        assertThat(map.replicationFactor()).isEqualTo(3);
    }

    @Test
    void raisingTheReplicationFactorKeepsEveryCopyAndAddsOnePerPartition() {
        PartitionMap two = PartitionPlanner.plan(members(6), 64, 2, null);

        PartitionMap three = PartitionPlanner.plan(members(6), 64, 3, two);

        assertWithinBounds(three, members(6), 64, 3);
        assertThat(movedSlots(two, three)).isEqualTo(64);
        for (int p = 0; p < 64; p++) {
            assertThat(three.ownersOf(p)).containsAll(two.ownersOf(p));
            assertThat(three.primaryOf(p)).isEqualTo(two.primaryOf(p));
        }
    }

    @Test
    void loweringTheReplicationFactorMovesNothing() {
        PartitionMap three = PartitionPlanner.plan(members(6), 64, 3, null);

        PartitionMap two = PartitionPlanner.plan(members(6), 64, 2, three);

        assertWithinBounds(two, members(6), 64, 2);
        assertThat(movedSlots(three, two)).isZero();
    }

    @Test
    void aNodesReplicasSpreadOverSeveralPeers() {
        for (int n = 3; n <= MAX_MEMBERS; n++) {
            PartitionMap map = PartitionPlanner.plan(members(n), 128, 2, null);
            for (String node : members(n)) {
                Set<String> peers = new TreeSet<>();
                for (int p = 0; p < map.partitionCount(); p++) {
                    if (map.primaryOf(p).equals(node)) {
                        peers.add(map.ownersOf(p).get(1));
                    }
                }
                assertThat(peers).as("replica holders of %s's partitions, n=%d", node, n)
                        .hasSizeGreaterThanOrEqualTo(Math.min(n - 1, 2));
            }
        }
    }

    @Test
    void losingEveryOwnerOfAPartitionStillAssignsIt() {
        PartitionMap before = PartitionPlanner.plan(members(4), 8, 1, null);

        PartitionMap after = PartitionPlanner.plan(List.of("node-00", "node-01"), 8, 1, before);

        assertWithinBounds(after, List.of("node-00", "node-01"), 8, 1);
        for (int p = 0; p < 8; p++) {
            if (Set.of("node-00", "node-01").contains(before.primaryOf(p))) {
                assertThat(after.primaryOf(p)).isEqualTo(before.primaryOf(p));
            }
        }
    }

    @Test
    void randomSequencesOfJoinsAndLeavesStayBalancedAndDeterministic() {
        Random random = new Random(20261130L);
        for (int run = 0; run < 150; run++) {
            int partitionCount = 1 + random.nextInt(300);
            int replicationFactor = 1 + random.nextInt(4);
            List<Integer> steps = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(12); i < n; i++) {
                steps.add(random.nextInt(100));
            }
            checkJoinsAndLeaves(partitionCount, replicationFactor, steps);
        }
    }

    private static void checkJoinsAndLeaves(int partitionCount, int replicationFactor, List<Integer> steps) {
        List<String> members = new ArrayList<>(List.of("seed-a"));
        int nextId = 0;
        PartitionMap map = PartitionPlanner.plan(members, partitionCount, replicationFactor, null);
        for (int step : steps) {
            boolean join = members.size() == 1 || (step % 2 == 0 && members.size() < 24);
            if (join) {
                members.add("joiner-" + nextId++);
            } else {
                members.remove(step % members.size());
            }
            PartitionMap next = PartitionPlanner.plan(members, partitionCount, replicationFactor, map);
            List<String> reversed = new ArrayList<>(members);
            Collections.reverse(reversed);

            assertWithinBounds(next, members, partitionCount, replicationFactor);
            assertThat(next.version()).isEqualTo(map.version() + 1);
            assertThat(PartitionPlanner.plan(reversed, partitionCount, replicationFactor, map)).isEqualTo(next);
            if (join) {
                int copies = Math.min(replicationFactor, members.size());
                assertThat(movedSlots(map, next))
                        .isLessThanOrEqualTo(ceilDiv(partitionCount * copies, members.size()) + copies);
            }
            map = next;
        }
    }

    @Test
    void rejectsEmptyMembers() {
        assertThatThrownBy(() -> PartitionPlanner.plan(List.of(), 8, 1, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("members must not be empty");
        assertThatThrownBy(() -> PartitionPlanner.plan(null, 8, 1, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsBlankNullAndDuplicateMemberIds() {
        assertThatThrownBy(() -> PartitionPlanner.plan(List.of("a", " "), 8, 1, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
        assertThatThrownBy(() -> PartitionPlanner.plan(Arrays.asList("a", null), 8, 1, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null");
        assertThatThrownBy(() -> PartitionPlanner.plan(List.of("a", "b", "a"), 8, 1, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("member a is listed twice");
    }

    @Test
    void rejectsNonPositiveCounts() {
        assertThatThrownBy(() -> PartitionPlanner.plan(members(2), 0, 1, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("partitionCount must be >= 1 but was 0");
        assertThatThrownBy(() -> PartitionPlanner.plan(members(2), 8, 0, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("replicationFactor must be >= 1 but was 0");
    }

    @Test
    void rejectsAPreviousMapWithAnotherPartitionCount() {
        PartitionMap previous = PartitionPlanner.plan(members(2), 8, 1, null);

        assertThatThrownBy(() -> PartitionPlanner.plan(members(2), 16, 1, previous))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("previous map has 8 partitions but partitionCount is 16");
    }

    @Nested
    class PartitionMapValue {

        @Test
        void exposesOwnersPrimariesAndNodes() {
            PartitionMap map = new PartitionMap(7, 2, List.of(List.of("b", "a"), List.of("c")));

            assertThat(map.version()).isEqualTo(7);
            assertThat(map.replicationFactor()).isEqualTo(2);
            assertThat(map.partitionCount()).isEqualTo(2);
            assertThat(map.ownersOf(0)).containsExactly("b", "a");
            assertThat(map.primaryOf(1)).isEqualTo("c");
            assertThat(map.isAssigned(0, "a")).isTrue();
            assertThat(map.isAssigned(1, "a")).isFalse();
            assertThat(map.nodes()).containsExactly("a", "b", "c");
            assertThat(map).hasToString("PartitionMap[version=7, replicationFactor=2, partitions=2, nodes=[a, b, c]]");
        }

        @Test
        void copiesItsInputDeeplyAndIsUnmodifiable() {
            List<String> partition = new ArrayList<>(List.of("a", "b"));
            List<List<String>> owners = new ArrayList<>(List.of(partition));

            PartitionMap map = new PartitionMap(1, 2, owners);
            partition.set(0, "z");
            owners.add(List.of("c"));

            assertThat(map.owners()).containsExactly(List.of("a", "b"));
            assertThatThrownBy(() -> map.owners().add(List.of("x"))).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> map.ownersOf(0).add("x")).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> map.nodes().add("x")).isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void isAValue() {
            PartitionMap map = new PartitionMap(1, 2, List.of(List.of("a", "b")));

            assertThat(map).isEqualTo(new PartitionMap(1, 2, List.of(List.of("a", "b"))))
                    .hasSameHashCodeAs(new PartitionMap(1, 2, List.of(List.of("a", "b"))))
                    .isNotEqualTo(new PartitionMap(2, 2, List.of(List.of("a", "b"))))
                    .isNotEqualTo(new PartitionMap(1, 3, List.of(List.of("a", "b"))))
                    .isNotEqualTo(new PartitionMap(1, 2, List.of(List.of("b", "a"))));
        }

        @Test
        void rejectsInvalidContent() {
            assertThatThrownBy(() -> new PartitionMap(0, 1, List.of(List.of("a"))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("version must be >= 1 but was 0");
            assertThatThrownBy(() -> new PartitionMap(1, 0, List.of(List.of("a"))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replicationFactor");
            assertThatThrownBy(() -> new PartitionMap(1, 1, List.of()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one partition");
            assertThatThrownBy(() -> new PartitionMap(1, 1, List.of(List.of("a"), List.of())))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("partition 1 has no owners");
            assertThatThrownBy(() -> new PartitionMap(1, 1, List.of(List.of("a", "b", "c"))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("partition 0 has 3 owners but the replication factor is 1 (at most twice that while moving)");
            assertThat(new PartitionMap(1, 1, List.of(List.of("b", "a"))).ownersOf(0)).as("a move from a to b")
                    .containsExactly("b", "a");
            assertThatThrownBy(() -> new PartitionMap(1, 2, List.of(List.of("a", "a"))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("partition 0 lists owner a twice");
            assertThatThrownBy(() -> new PartitionMap(1, 2, List.of(Arrays.asList("a", null))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null or blank");
            assertThatThrownBy(() -> new PartitionMap(1, 2, List.of(List.of(""))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null or blank");
        }

        @Test
        void rejectsPartitionIndexesOutsideTheMap() {
            PartitionMap map = new PartitionMap(1, 1, List.of(List.of("a")));

            assertThatThrownBy(() -> map.ownersOf(1)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessage("partition 1 is outside 0..0");
            assertThatThrownBy(() -> map.primaryOf(-1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> map.isAssigned(5, "a")).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    private static void assertWithinBounds(PartitionMap map, Collection<String> members, int partitionCount,
            int replicationFactor) {
        int n = members.size();
        int copies = Math.min(replicationFactor, n);
        assertThat(map.partitionCount()).isEqualTo(partitionCount);
        Map<String, Integer> load = new HashMap<>();
        for (List<String> owners : map.owners()) {
            assertThat(owners).hasSize(copies).doesNotHaveDuplicates();
            assertThat(members).containsAll(owners);
            owners.forEach(owner -> load.merge(owner, 1, Integer::sum));
        }
        int slots = partitionCount * copies;
        for (String member : members) {
            assertThat(load.getOrDefault(member, 0)).as("owner slots of %s", member)
                    .isBetween(slots / n, ceilDiv(slots, n));
        }
        assertThat(primaryCounts(map, members).values()).allSatisfy(
                count -> assertThat(count).isLessThanOrEqualTo(ceilDiv(partitionCount, n)));
    }

    /** Exactly the leaver's slots are refilled, each by one new owner, and nothing else changes owners. */
    private static void assertMovedOnlyWhatTheLeaverHeld(PartitionMap before, PartitionMap after, String leaving,
            int remaining) {
        int held = 0;
        int led = 0;
        for (int p = 0; p < before.partitionCount(); p++) {
            List<String> survivors = new ArrayList<>(before.ownersOf(p));
            if (survivors.remove(leaving)) {
                held++;
                led += before.primaryOf(p).equals(leaving) ? 1 : 0;
                assertThat(after.ownersOf(p)).containsAll(survivors.subList(0, Math.min(survivors.size(),
                        after.ownersOf(p).size())));
            } else if (survivors.size() == after.ownersOf(p).size()) {
                assertThat(after.ownersOf(p)).containsExactlyInAnyOrderElementsOf(survivors);
            }
        }
        int copies = after.ownersOf(0).size();
        if (copies == before.ownersOf(0).size()) {
            assertThat(movedSlots(before, after)).as("moved owner slots when %s leaves", leaving).isEqualTo(held);
        } else {
            assertThat(movedSlots(before, after)).isZero();
        }
        assertThat(changedPrimaries(before, after)).as("changed primaries when %s leaves", leaving)
                .isLessThanOrEqualTo(led + ceilDiv(before.partitionCount(), remaining) + copies);
    }

    private static Map<String, Integer> primaryCounts(PartitionMap map, Collection<String> members) {
        Map<String, Integer> counts = new HashMap<>();
        members.forEach(member -> counts.put(member, 0));
        for (int p = 0; p < map.partitionCount(); p++) {
            counts.merge(map.primaryOf(p), 1, Integer::sum);
        }
        return counts;
    }

    /** Owner slots of {@code after} that {@code before} did not have: copies of data to make. */
    private static int movedSlots(PartitionMap before, PartitionMap after) {
        int moved = 0;
        for (int p = 0; p < after.partitionCount(); p++) {
            Set<String> previous = new LinkedHashSet<>(before.ownersOf(p));
            for (String owner : after.ownersOf(p)) {
                moved += previous.contains(owner) ? 0 : 1;
            }
        }
        return moved;
    }

    private static int changedPrimaries(PartitionMap before, PartitionMap after) {
        int changed = 0;
        for (int p = 0; p < after.partitionCount(); p++) {
            changed += before.primaryOf(p).equals(after.primaryOf(p)) ? 0 : 1;
        }
        return changed;
    }

    private static List<String> members(int count) {
        List<String> members = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            members.add(String.format("node-%02d", i));
        }
        return members;
    }

    private static int ceilDiv(int dividend, int divisor) {
        return (dividend + divisor - 1) / divisor;
    }
}
