package io.zaris.cluster;

import io.zaris.model.PartitionHealth;
import io.zaris.protocol.PartitionState;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The leader's failover decisions as pure functions of what it knows, so each is unit-tested without a
 * cluster.
 */
final class FailoverDecisions {

    private FailoverDecisions() {
    }

    /**
     * The next epoch of a partition: above both what the runtime map holds and the highest any node
     * reported seeing. Refuses to go backwards (or to wrap around).
     */
    public static long nextEpoch(long current, long highestObserved) {
        long next = Math.max(current, highestObserved) + 1;
        if (next <= current) {
            throw new IllegalStateException("epoch would not increase: current " + current + ", observed " + highestObserved);
        }
        return next;
    }

    /** Who serves a partition whose active owner is gone, and in which health ({@code node} null when nobody). */
    public record Promotion(String node, PartitionHealth health) {
    }

    /**
     * Who serves a partition whose active owner is gone.
     *
     * <p>Candidate: the live assigned owner with the most synced segments, then the highest revision sum, then
     * the most keys, then the earliest in the owner list. Revisions before keys: right after an epoch bump that
     * kept the active (a degrade) no replica is synced under the new epoch yet, and if the active goes then, the
     * replicas are prefixes of one history; the one with the higher revisions applied more of it, whatever
     * deletes and expiries did to the key counts (a 15-minute chaos run promoted the copy with more keys and
     * fewer revisions, whose catch-up could not get the rest, and served stale values for two seconds). Possession proof: if a fresh state of any
     * other live holder — another live owner (one with fewer synced segments can still hold more keys) or a
     * node outside the owner list — shows strictly more keys than the candidate, the candidate comes up
     * {@code RECOVERING} (it pulls from its fellows before serving); otherwise {@code DEGRADED} (serves now).
     * A lone survivor — no other live holder — always serves. No live assigned owner: {@code UNAVAILABLE}.
     * The epoch comes with the change ({@link PartitionTransitions}).
     *
     * @param owners       the partition's assigned owners in preference order
     * @param candidates   states of the live assigned owners (the departed active excluded)
     * @param otherHolders fresh states of live nodes outside the owner list that hold data of the partition
     */
    public static Promotion promote(List<String> owners, Map<String, PartitionState> candidates,
                                    Map<String, PartitionState> otherHolders) {
        Comparator<String> preference = Comparator
                .comparingInt((String node) -> candidates.get(node).syncedSegments())
                .thenComparingLong(node -> candidates.get(node).revisionSum())
                .thenComparingLong(node -> candidates.get(node).keys())
                .thenComparing(node -> -owners.indexOf(node));
        String chosen = owners.stream().filter(candidates::containsKey).max(preference).orElse(null);
        if (chosen == null) {
            return new Promotion(null, PartitionHealth.UNAVAILABLE);
        }
        long chosenKeys = candidates.get(chosen).keys();
        boolean someoneHoldsMore = otherHolders.values().stream().anyMatch(state -> state.keys() > chosenKeys)
                || candidates.entrySet().stream().anyMatch(e -> !e.getKey().equals(chosen) && e.getValue().keys() > chosenKeys);
        return new Promotion(chosen, someoneHoldsMore ? PartitionHealth.RECOVERING : PartitionHealth.DEGRADED);
    }

    /**
     * The owners a promotion of {@code chosen} has to hear from first; empty when it may go ahead this round.
     *
     * <p>A copy that holds none of the partition's history (no revision in any of its segments: an owner the map
     * just added that no active has shipped to yet, or a restarted process) is never promoted while another owner
     * that serves, and so may hold the data, has not answered. Its answer may only be lost or late; the empty copy,
     * once active, would make its emptiness authoritative (its replicas take its snapshot, and its takeover
     * catch-up no longer waits for an owner that has been suspended or has left meanwhile). The round leaves the
     * partition as it is and asks again. An owner that stays silent is suspended when its lease lapses, or leaves
     * the view; then it no longer serves, and the empty copy is a lone survivor and serves what is left.
     *
     * <p>A chosen copy that holds something is not held back: the possession proof and its takeover catch-up
     * compare it with the others. No chosen copy (nobody answered) is not held back either: the partition becomes
     * {@code UNAVAILABLE}, which serves nothing.
     *
     * @param chosen        the candidate {@link #promote} chose, or {@code null}
     * @param candidates    the answers of the live assigned owners, as passed to {@link #promote}
     * @param servingOwners the assigned owners that serve under the view (present and not suspended), the departed
     *                      active excluded
     */
    public static Set<String> holdersToAwait(String chosen, Map<String, PartitionState> candidates,
                                             Collection<String> servingOwners) {
        return holdersToAwait(chosen, candidates, servingOwners, 0);
    }

    /**
     * As {@link #holdersToAwait(String, Map, Collection)}, and an empty chosen copy also waits while
     * {@code unannouncedMembers} members of the membership view have not announced themselves: they are not counted
     * present, so not among the serving owners, yet one may hold the data. After a merge that brought a paused
     * survivor back to two restarted, empty processes, the survivor's hello can arrive after the round (or be lost
     * with the messages sent before the receiver installed the merged view); promoting a restarted process's empty
     * copy then would make it authoritative over the survivor's (a CI run read 40 % of the survivor's keys as absent).
     * Such members are named by their count, as the leader knows no node id for them.
     */
    public static Set<String> holdersToAwait(String chosen, Map<String, PartitionState> candidates,
                                             Collection<String> servingOwners, int unannouncedMembers) {
        if (chosen == null || !holdsNothing(candidates.get(chosen))) {
            return Set.of();
        }
        Set<String> silent = new TreeSet<>(servingOwners);
        silent.removeAll(candidates.keySet());
        silent.remove(chosen);
        if (unannouncedMembers > 0) {
            silent.add(unannouncedMembers + " member(s) of the membership view not announced yet");
        }
        return silent;
    }

    /**
     * The suspended owners a promotion of {@code chosen} has to wait for; empty when it may go ahead.
     *
     * <p>A suspended member serves nothing, but it keeps what it held when its lease lapsed. A chosen copy that is
     * complete under the partition's current epoch (every segment synced) received every change its active shipped,
     * and its takeover catch-up pulls the rest from the fellows that serve. A copy that is not complete (a replica
     * that was still catching up, or one the active stopped shipping to) may lack writes the active acknowledged with
     * another replica's copy: if that replica, or the active itself, is a suspended member, it still holds them, and
     * promoting the incomplete copy would make it authoritative: the suspended copies take its snapshot once they
     * serve again, and the writes are gone. A chaos run on the network bed lost 709 acknowledged updates that way,
     * when a leader suspended two owners for a moment after a healed partition.
     *
     * <p>So the promotion waits until each such owner renews its lease (it serves again, and is a candidate) or leaves
     * the membership view (its copy is gone with it, and the incomplete copy is the best that is left). No chosen copy
     * is not held back: the partition becomes {@code UNAVAILABLE}, which serves nothing.
     *
     * @param chosen          the candidate {@link #promote} chose, or {@code null}
     * @param candidates      the answers of the serving owners, as passed to {@link #promote}
     * @param segments        how many segments the partition has
     * @param suspendedOwners the partition's owners and its departed active that are present but suspended
     */
    public static Set<String> suspendedHoldersToAwait(String chosen, Map<String, PartitionState> candidates, int segments,
                                                      Collection<String> suspendedOwners) {
        if (chosen == null || candidates.get(chosen).syncedSegments() >= segments) {
            return Set.of();
        }
        Set<String> awaited = new TreeSet<>(suspendedOwners);
        awaited.remove(chosen);
        return awaited;
    }

    /**
     * Whether a copy holds none of its partition's history. Revisions are the history's own numbering: a replica
     * takes the active's revisions with every change and snapshot, and only a copy that never received anything
     * (or dropped everything) has none. A partition no one ever wrote to reports this from every copy.
     */
    public static boolean holdsNothing(PartitionState state) {
        return state.revisionSum() == 0 && state.keys() == 0;
    }

    /**
     * What a restarted process holds of a partition its previous process was active for: nothing, whatever it
     * answered. Keeps the epoch it reported (the next epoch must be above it).
     */
    public static PartitionState restartedEmpty(PartitionState answered) {
        return new PartitionState(answered.highestEpoch(), 0, 0, 0, 0);
    }

    /**
     * Whether a non-healthy partition may return to {@code HEALTHY} on its preferred primary; see
     * {@link #healBlocker}.
     */
    public static boolean readyToHeal(List<String> owners, Map<String, PartitionState> states, int segmentsPerPartition,
                                      long currentEpoch, String active, long stableForNanos, long cooldownNanos) {
        return healBlocker(owners, states, segmentsPerPartition, currentEpoch, active, stableForNanos, cooldownNanos) == null;
    }

    /**
     * What keeps a non-healthy partition from returning to {@code HEALTHY} on its preferred primary, or
     * {@code null} when nothing does. It may heal when every assigned owner answered, knows the partition's
     * current epoch (a node that has not caught up with the view — say, just resumed from a pause — may
     * believe stale segments complete) and reports every segment synced; the active owner confirms that
     * every replica applied everything it shipped; and the partition has been stable for the cooldown (so a
     * flapping node cannot cause a storm of epoch bumps).
     */
    public static String healBlocker(List<String> owners, Map<String, PartitionState> states, int segmentsPerPartition,
                                     long currentEpoch, String active, long stableForNanos, long cooldownNanos) {
        if (stableForNanos < cooldownNanos) {
            return "cooling down";
        }
        // A replica's own view of being in sync can be stale (snapshots buffered while it was paused); the
        // active owner knows whether every change it shipped was applied.
        PartitionState activeState = states.get(active);
        // after an eviction the active may serve a partition it is no longer assigned: all owners are replicas
        int replicas = owners.contains(active) ? owners.size() - 1 : owners.size();
        if (activeState == null) {
            return "active " + active + " did not answer";
        }
        if (activeState.confirmedReplicas() < replicas) {
            return "active " + active + " confirms " + activeState.confirmedReplicas() + " of " + replicas + " replicas"
                    + (activeState.highestEpoch() > currentEpoch ? " (it knows epoch " + activeState.highestEpoch() + ")" : "");
        }
        for (String owner : owners) {
            PartitionState state = states.get(owner);
            if (state == null) {
                return "owner " + owner + " did not answer";
            }
            if (state.highestEpoch() < currentEpoch) {
                return "owner " + owner + " has not seen epoch " + currentEpoch + " (knows " + state.highestEpoch() + ")";
            }
            if (state.syncedSegments() < segmentsPerPartition) {
                return "owner " + owner + " has " + state.syncedSegments() + " of " + segmentsPerPartition + " segments synced";
            }
        }
        return null;
    }
}
