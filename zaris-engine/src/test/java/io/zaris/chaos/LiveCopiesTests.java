package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.chaos.LiveCopies.Partition;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The nemesis' promise rule on injected cluster states: a fault that could take down every live copy of a partition,
 * together with the nodes already impaired, is not started; a single fault still is.
 */
@Tag("unit")
class LiveCopiesTests {

    private static final List<String> NODES = List.of("n1", "n2", "n3", "n4", "n5");

    /**
     * Seed 120421 on the bed: partition 23 was healed back to n3 (HEALTHY) before its third copy on n2 synced, so n3
     * was not ready; n3's packets to its peers were then dropped, and killing n4 would leave no live copy.
     */
    @Test
    void theSeed120421DoubleFaultIsNotStarted() {
        List<Partition> copies = LiveCopies.observe(view(Map.of(23, new PartitionRuntime("n3", 40, PartitionHealth.HEALTHY)),
                Map.of(23, List.of("n3", "n4", "n2"))), node -> !node.equals("n3"));

        assertThat(copies.get(23).fullyRedundant()).isFalse();
        assertThat(LiveCopies.keepsALiveCopy(copies.get(23), Set.of("n3", "n4"))).isFalse();
        assertThat(LiveCopies.keepsALiveCopy(copies.get(23), Set.of("n3", "n2"))).isFalse();
        assertThat(LiveCopies.endangered(copies, Set.of("n3"), List.of("n4"))).isPresent();
        // n3's own one-way fault, with nothing else impaired, was a single fault: n4 held what n3 acknowledged.
        assertThat(LiveCopies.endangered(copies, Set.of(), List.of("n3"))).isEmpty();
    }

    @Test
    void aSingleFaultOnAFullyRedundantClusterIsStartedOnAnyNode() {
        List<Partition> copies = LiveCopies.observe(view(Map.of(), Map.of()), node -> true);

        assertThat(LiveCopies.allFullyRedundant(copies)).isTrue();
        for (String node : NODES) {
            assertThat(LiveCopies.endangered(copies, Set.of(), List.of(node))).as(node).isEmpty();
        }
    }

    @Test
    void aSecondFaultIsStartedWhereEveryPartitionKeepsASyncedCopy() {
        // n1's copies were re-homed and synced: every partition is fully redundant without it.
        List<Partition> copies = List.of(new Partition(0, List.of("n2", "n3", "n4"), "n2", true),
                new Partition(1, List.of("n3", "n4", "n5"), "n3", true));

        assertThat(LiveCopies.endangered(copies, Set.of("n1"), List.of("n2"))).isEmpty();
        assertThat(LiveCopies.endangered(copies, Set.of("n1"), List.of("n2", "n3"))).isEmpty();
        assertThat(LiveCopies.endangered(copies, Set.of("n1", "n4"), List.of("n2", "n3")))
                .map(Partition::partition).contains(0);
    }

    @Test
    void theActiveOfAPartitionThatLostAnOwnerIsNotFaultedButItsOtherReplicaMayBe() {
        // n1 was killed: partition 0 failed over to n2 and is DEGRADED; whether n3 synced under n2's epoch is unknown.
        List<Partition> copies = LiveCopies.observe(view(Map.of(0, new PartitionRuntime("n2", 7, PartitionHealth.DEGRADED)),
                Map.of(0, List.of("n1", "n2", "n3"))), node -> true);

        assertThat(copies.get(0).fullyRedundant()).isFalse();
        assertThat(LiveCopies.endangered(copies, Set.of("n1"), List.of("n2"))).map(Partition::partition).contains(0);
        assertThat(LiveCopies.endangered(copies, Set.of("n1"), List.of("n3"))).isEmpty();
    }

    @Test
    void aPartitionWithoutAServingOwnerHasNoCopyToSpare() {
        List<Partition> copies = LiveCopies.observe(view(Map.of(0, new PartitionRuntime("n1", 7, PartitionHealth.RECOVERING)),
                Map.of(0, List.of("n1", "n2", "n3"))), node -> true);

        assertThat(copies.get(0).servingActive()).isNull();
        assertThat(LiveCopies.endangered(copies, Set.of("n5"), List.of("n2"))).map(Partition::partition).contains(0);
        // A fault on none of its owners takes none of its copies.
        assertThat(LiveCopies.endangered(copies, Set.of("n5"), List.of("n4"))).isEmpty();
        // Which owner it recovers from is unknown, so even a single fault on one of them waits.
        assertThat(LiveCopies.endangered(copies, Set.of(), List.of("n2"))).map(Partition::partition).contains(0);
    }

    @Test
    void aMinorityHoldingTheActiveAndAnotherOwnerOfAPartitionNotFullyRedundantIsNotIsolated() {
        List<Partition> copies = List.of(new Partition(0, List.of("n1", "n2", "n3"), "n1", false));

        assertThat(LiveCopies.endangered(copies, Set.of(), List.of("n1", "n2"))).map(Partition::partition).contains(0);
        assertThat(LiveCopies.endangered(copies, Set.of(), List.of("n1", "n4"))).isEmpty();
    }

    @Test
    void aHealthyPartitionWhoseActiveIsNotReadyIsNotFullyRedundant() {
        ClusterView view = view(Map.of(), Map.of());

        assertThat(LiveCopies.observe(view, node -> !node.equals("n2")))
                .filteredOn(partition -> !partition.fullyRedundant())
                .extracting(Partition::servingActive).containsOnly("n2");
    }

    /**
     * A 5-node view of 5 partitions, partition p owned by n(p+1), n(p+2), n(p+3) (wrapping), HEALTHY on its primary
     * under epoch 1, unless {@code owners} and {@code runtimes} say otherwise for a partition (any index below 32).
     */
    private static ClusterView view(Map<Integer, PartitionRuntime> runtimes, Map<Integer, List<String>> owners) {
        int partitions = Math.max(5, 1 + owners.keySet().stream().mapToInt(Integer::intValue).max().orElse(0));
        List<List<String>> ownerLists = new java.util.ArrayList<>();
        List<PartitionRuntime> runtimeList = new java.util.ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            List<String> planned = List.of(NODES.get(p % 5), NODES.get((p + 1) % 5), NODES.get((p + 2) % 5));
            List<String> partitionOwners = owners.getOrDefault(p, planned);
            ownerLists.add(partitionOwners);
            runtimeList.add(runtimes.getOrDefault(p, new PartitionRuntime(partitionOwners.get(0), 1, PartitionHealth.HEALTHY)));
        }
        Map<String, NodeAddress> addresses = new java.util.TreeMap<>();
        for (int i = 0; i < NODES.size(); i++) {
            addresses.put(NODES.get(i), new NodeAddress("127.0.0.1", 7101 + i));
        }
        return new ClusterView(PartitionLayout.of(partitions * 4, partitions), new PartitionMap(3, 3, ownerLists),
                new RuntimeMap(runtimeList), addresses);
    }
}
