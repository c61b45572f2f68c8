package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The leader's two-phase planned changes, decided from values. A heal (to another node or on the same one) or a
 * move's map step gives a partition a new epoch while its active still serves: such a change is not published at
 * once. The leader first asks that active to fence the partition ({@code HandOverFence}: it stops taking writes of
 * the old epoch and waits for the verdicts of the ones it applied), and publishes only then, or after the bounded
 * wait when the node does not confirm. Otherwise a replica can install the new epoch while the active still ships a
 * SYNC write of the old one; the replica refuses it, and the write, applied on the active (and pulled by a new one),
 * fails with an outcome nobody can tell. Pure; {@link FailoverCoordinator} asks and publishes.
 */
final class PlannedHandOvers {

    /**
     * A heal held back until its old active is fenced: the partition's entry before and after, and how the round
     * logs it.
     */
    record Held(PartitionRuntime before, PartitionRuntime after, String change, String detail) {
    }

    private PlannedHandOvers() {
    }

    /**
     * Whether the heal from {@code before} to {@code after} (a new epoch) must fence its old active first: whenever
     * that one still serves, whether the heal hands the partition to another node or keeps it there. An active that
     * no longer serves ships nothing.
     */
    static boolean fenceFirst(PartitionRuntime before, PartitionRuntime after, boolean oldActiveServes) {
        return before.activeNode() != null && oldActiveServes && after.epoch() > before.epoch();
    }

    /**
     * The fences a planned map change needs before it is published: per active owner, each partition that keeps its
     * live active under a new epoch (a move's first step lists new owners), with the epoch whose writes stop. Its
     * replicas install the new epoch in any order, and one that does so before the active refuses the active's
     * writes of the old epoch just the same. Partitions without a live active (a failover decides them) need none.
     */
    static Map<String, Map<Integer, Long>> fencesBeforeRemap(ClusterView held, ClusterView next, Set<String> present) {
        Map<String, Map<Integer, Long>> byNode = new TreeMap<>();
        for (int p = 0; p < held.runtimeMap().partitionCount(); p++) {
            PartitionRuntime before = held.runtimeMap().get(p);
            PartitionRuntime after = next.runtimeMap().get(p);
            if (after.epoch() > before.epoch() && before.activeNode() != null
                    && before.activeNode().equals(after.activeNode()) && held.serves(before.activeNode(), present)) {
                byNode.computeIfAbsent(before.activeNode(), node -> new TreeMap<>()).put(p, before.epoch());
            }
        }
        return byNode;
    }

    /** The fences to ask for: per old active, each of its held partitions with the epoch whose writes stop. */
    static Map<String, Map<Integer, Long>> fencesByNode(Map<Integer, Held> held) {
        Map<String, Map<Integer, Long>> byNode = new TreeMap<>();
        held.forEach((partition, heal) -> byNode.computeIfAbsent(heal.before().activeNode(), node -> new TreeMap<>())
                .put(partition, heal.before().epoch()));
        return byNode;
    }

    /**
     * Whether a held heal still applies to {@code now}, the view current when the fences were answered: the partition
     * is still as the round saw it and the new active is still its primary. If not, nothing is published for it (the
     * old active lifts its fence after its hold) and a later round decides again.
     */
    static boolean stillApplies(ClusterView now, int partition, Held heal) {
        return now.runtimeMap().get(partition).equals(heal.before())
                && heal.after().activeNode().equals(now.partitionMap().primaryOf(partition));
    }

    /** How the round logs a held heal once published: noted when its old active did not confirm the fence. */
    static String logged(Held heal, Set<Integer> fenced, int partition) {
        return fenced.contains(partition) ? heal.change() + " (old active fenced first)"
                : heal.change() + " (old active did not confirm its fence in time)";
    }
}
