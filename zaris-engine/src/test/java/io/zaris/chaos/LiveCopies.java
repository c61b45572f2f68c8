package io.zaris.chaos;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The nemesis' rule that keeps a run within what SYNC promises: an acknowledged write survives the loss of any one
 * node while two copies were live when it was acknowledged, so a partition can take <em>one fault at a time on its
 * live copies</em>. A fault that, together with the faults still in effect and the nodes healed but not yet synced
 * again, could take down every live copy of some partition is beyond that promise; the nemesis defers it until it
 * no longer could. Pure: the nemesis passes in what it observed.
 *
 * <p>What the nemesis can know of a partition's copies (a fresh map and every node's readiness probe):
 * <ul>
 *   <li><b>fully redundant</b>: {@code HEALTHY}, and its active owner reports ready, which it does only when its
 *       replication link to every present owner is open and synced under the partition's current epoch. Every owner
 *       not impaired (under a fault, or healed but not yet counted back) holds every acknowledged write;</li>
 *   <li><b>otherwise</b> (degraded, moving, just healed back or failed over, its active not ready or unreachable):
 *       which replicas are synced is unknown. Its acknowledged writes are on its serving active owner and on one
 *       other owner the nemesis cannot name (the replica that confirmed them), so that unnamed copy counts as live
 *       only while no owner besides the active is impaired.</li>
 * </ul>
 * A fault on a set of nodes is within the promise when every partition keeps a live copy outside that set.
 */
final class LiveCopies {

    /**
     * One partition as observed.
     *
     * @param owners         its owners in the partition map, primary first
     * @param servingActive  its active owner if that serves (not {@code RECOVERING} or {@code UNAVAILABLE}), else {@code null}
     * @param fullyRedundant {@code HEALTHY} and its active reported ready (every present copy synced)
     */
    record Partition(int partition, List<String> owners, String servingActive, boolean fullyRedundant) {

        Partition {
            owners = List.copyOf(owners);
        }
    }

    private LiveCopies() {
    }

    /** Every partition of {@code view}, fully redundant when {@code HEALTHY} with an active owner {@code ready} holds for. */
    static List<Partition> observe(ClusterView view, Predicate<String> ready) {
        List<Partition> partitions = new ArrayList<>();
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            PartitionRuntime runtime = view.runtimeMap().get(p);
            String serving = runtime.health().isServing() ? runtime.activeNode() : null;
            boolean full = runtime.health() == PartitionHealth.HEALTHY && serving != null && ready.test(serving);
            partitions.add(new Partition(p, view.partitionMap().ownersOf(p), serving, full));
        }
        return partitions;
    }

    /**
     * The first partition a fault on {@code targets} could leave without a live copy, given the nodes already
     * {@code impaired}; empty when the fault is within the promise. Partitions with no owner among the targets are
     * not judged: the fault takes none of their copies.
     */
    static Optional<Partition> endangered(List<Partition> partitions, Set<String> impaired, Collection<String> targets) {
        Set<String> down = new HashSet<>(impaired);
        down.addAll(targets);
        for (Partition partition : partitions) {
            if (partition.owners().stream().anyMatch(targets::contains) && !keepsALiveCopy(partition, down)) {
                return Optional.of(partition);
            }
        }
        return Optional.empty();
    }

    /** Whether the partition keeps a copy holding every acknowledged write with every node of {@code down} gone. */
    static boolean keepsALiveCopy(Partition partition, Set<String> down) {
        if (partition.fullyRedundant()) {
            return partition.owners().stream().anyMatch(owner -> !down.contains(owner));
        }
        String active = partition.servingActive();
        if (active != null && !down.contains(active)) {
            return true;
        }
        // The replica that confirmed the active's writes is unnamed: it is up only if every other owner is.
        return partition.owners().stream().filter(owner -> !owner.equals(active)).noneMatch(down::contains);
    }

    /** Whether every partition is fully redundant: a node healed back counts as synced again from then on. */
    static boolean allFullyRedundant(List<Partition> partitions) {
        return partitions.stream().allMatch(Partition::fullyRedundant);
    }
}
