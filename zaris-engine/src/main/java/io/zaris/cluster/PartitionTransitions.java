package io.zaris.cluster;

import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import java.util.EnumSet;
import java.util.Set;

/**
 * The one place a partition's runtime entry changes: every writer (the leader's failover round, a map
 * recomputation, an operator's hand-over) names the trigger, and the change is checked against this table and
 * given its epoch here. Pure; an illegal change throws {@link IllegalStateException} with the full context.
 *
 * <table>
 *   <caption>Legal changes</caption>
 *   <tr><th>trigger</th><th>from</th><th>to</th><th>active owner</th></tr>
 *   <tr><td>{@link Trigger#PROMOTE}: the active owner is gone (crashed, excluded, restarted empty)</td>
 *       <td>any</td><td>DEGRADED (serves now), RECOVERING (pulls from a fuller copy first), UNAVAILABLE (no live
 *       owner)</td><td>the chosen owner; none when UNAVAILABLE</td></tr>
 *   <tr><td>{@link Trigger#LOSE_REPLICA}: an assigned replica is gone</td><td>HEALTHY</td><td>DEGRADED</td>
 *       <td>unchanged</td></tr>
 *   <tr><td>{@link Trigger#RECOVERED}: the recovering owner pulled what its fellows held</td><td>RECOVERING</td>
 *       <td>DEGRADED</td><td>unchanged</td></tr>
 *   <tr><td>{@link Trigger#HEAL}: every owner present and in sync, after the cooldown</td><td>DEGRADED</td>
 *       <td>HEALTHY</td><td>the preferred primary</td></tr>
 *   <tr><td>{@link Trigger#REMAP}: a new partition map changed the owners</td><td>any</td><td>DEGRADED (a live
 *       active keeps serving and syncs the new owners), UNAVAILABLE (no live active: a failover round picks)</td>
 *       <td>unchanged, or none</td></tr>
 *   <tr><td>{@link Trigger#HAND_OVER}: an operator moves the partition to an assigned owner</td><td>any</td>
 *       <td>HEALTHY (to the primary), DEGRADED (to another owner)</td><td>the target</td></tr>
 * </table>
 *
 * <p><b>Epoch rule.</b> Every change gets {@code max(current epoch, highest epoch any node reported) + 1}
 * ({@link FailoverDecisions#nextEpoch}): epochs never go back, and a node fenced at a higher epoch by a view
 * that lost a merge still accepts the new one. A serving health always names an active owner, and UNAVAILABLE
 * never does.
 */
final class PartitionTransitions {

    /** Why a partition's runtime entry changes; each allows the changes of its row in the table above. */
    public enum Trigger {
        PROMOTE(EnumSet.allOf(PartitionHealth.class),
                EnumSet.of(PartitionHealth.DEGRADED, PartitionHealth.RECOVERING, PartitionHealth.UNAVAILABLE)),
        LOSE_REPLICA(EnumSet.of(PartitionHealth.HEALTHY), EnumSet.of(PartitionHealth.DEGRADED)),
        RECOVERED(EnumSet.of(PartitionHealth.RECOVERING), EnumSet.of(PartitionHealth.DEGRADED)),
        HEAL(EnumSet.of(PartitionHealth.DEGRADED), EnumSet.of(PartitionHealth.HEALTHY)),
        REMAP(EnumSet.allOf(PartitionHealth.class), EnumSet.of(PartitionHealth.DEGRADED, PartitionHealth.UNAVAILABLE)),
        HAND_OVER(EnumSet.allOf(PartitionHealth.class), EnumSet.of(PartitionHealth.HEALTHY, PartitionHealth.DEGRADED));

        private final Set<PartitionHealth> from;
        private final Set<PartitionHealth> to;

        Trigger(Set<PartitionHealth> from, Set<PartitionHealth> to) {
            this.from = from;
            this.to = to;
        }

        /** Whether this trigger may take a partition from {@code from} to {@code to}. */
        public boolean allows(PartitionHealth from, PartitionHealth to) {
            return this.from.contains(from) && this.to.contains(to);
        }
    }

    private PartitionTransitions() {
    }

    /**
     * The entry that follows {@code from} on {@code trigger}: {@code active} serving as {@code to}, under the next
     * epoch.
     *
     * @param highestObserved the highest epoch of the partition any node reported (0 when none asked)
     * @throws IllegalStateException when the table does not allow the change, or the owner does not fit the health
     */
    public static PartitionRuntime change(int partition, PartitionRuntime from, Trigger trigger, String active,
                                          PartitionHealth to, long highestObserved) {
        boolean ownerFits = to == PartitionHealth.UNAVAILABLE ? active == null : active != null;
        if (!trigger.allows(from.health(), to) || !ownerFits) {
            throw new IllegalStateException("partition " + partition + ": " + trigger + " cannot change " + from.health()
                    + " on " + from.activeNode() + " (epoch " + from.epoch() + ") to " + to + " on " + active);
        }
        return new PartitionRuntime(active, FailoverDecisions.nextEpoch(from.epoch(), highestObserved), to);
    }
}
