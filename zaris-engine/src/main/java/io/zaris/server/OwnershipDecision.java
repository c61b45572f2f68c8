package io.zaris.server;

import io.zaris.model.KvStatus;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionMap;

/**
 * Whether this node may answer a key-addressed request, as one pure function of the maps and of what the
 * node knows about the request's partition. It is the only place a request is turned away for being on the
 * wrong node, at the wrong time, or on a node that may not act as an owner right now.
 *
 * <table>
 *   <caption>Decision, first matching row wins</caption>
 *   <tr><th>condition</th><th>verdict</th><th>status</th></tr>
 *   <tr><td>the client routed by a newer epoch than this node's view, or this node has seen a newer epoch
 *       (fenced)</td><td>{@link Verdict#VIEW_BEHIND}</td><td>{@code OWNERSHIP_CHANGING}</td></tr>
 *   <tr><td>partition UNAVAILABLE</td><td>{@link Verdict#NO_OWNER}</td><td>{@code UNAVAILABLE}</td></tr>
 *   <tr><td>active owner, RECOVERING</td><td>{@link Verdict#OWNER_RECOVERING}</td><td>{@code UNAVAILABLE}</td></tr>
 *   <tr><td>active owner, catching up after a failover takeover</td><td>{@link Verdict#CATCHING_UP}</td>
 *       <td>{@code OWNERSHIP_CHANGING}</td></tr>
 *   <tr><td>active owner, catching up in a planned hand-over</td><td>{@link Verdict#HANDING_OVER}</td>
 *       <td>{@code MIGRATING}</td></tr>
 *   <tr><td>active owner without a confirmed owner lease</td><td>{@link Verdict#LEASE_LAPSED}</td>
 *       <td>{@code UNAVAILABLE}</td></tr>
 *   <tr><td>active owner, write, outside the majority</td><td>{@link Verdict#MINORITY_WRITE}</td>
 *       <td>{@code UNAVAILABLE}</td></tr>
 *   <tr><td>active owner otherwise</td><td>{@link Verdict#SERVE}</td><td>{@code OK}</td></tr>
 *   <tr><td>not active, assigned replica, write</td><td>{@link Verdict#REPLICA_WRITE}</td>
 *       <td>{@code REPLICA_WRITE_REJECTED}</td></tr>
 *   <tr><td>not active otherwise</td><td>{@link Verdict#MOVED}</td><td>{@code MOVED}</td></tr>
 * </table>
 *
 * Replicas do not serve reads: a read answered by a replica could miss an acknowledged ASYNC write.
 */
final class OwnershipDecision {

    private OwnershipDecision() {
    }

    /** Where a partition that this node has just become the active owner of stands in its catch-up. */
    public enum CatchUp {
        /** Not catching up: the copy is complete. */
        NONE,
        /** Taken over after a failover: fellow replicas may hold acknowledged writes this copy lacks. */
        AFTER_TAKEOVER,
        /** A planned hand-over: the live previous active may hold acknowledged writes this copy lacks. */
        PLANNED_HAND_OVER
    }

    /**
     * What the node knows about one request and its partition besides the maps. Built per request.
     *
     * @param write       whether the request changes data
     * @param routedEpoch the partition epoch the client routed by (0 when it did not say)
     * @param fenced      this node has seen a newer epoch of the partition than its view holds
     * @param catchUp     the partition's catch-up after this node took it over
     * @param holdsLease  the leader confirmed this node within its owner lease
     * @param inMajority  this node sees a majority of the cluster
     */
    public record Facts(boolean write, long routedEpoch, boolean fenced, CatchUp catchUp, boolean holdsLease,
                        boolean inMajority) {
    }

    /** The decision; each verdict answers with one status, and the reason lets the node say why. */
    public enum Verdict {
        SERVE(KvStatus.OK),
        VIEW_BEHIND(KvStatus.OWNERSHIP_CHANGING),
        NO_OWNER(KvStatus.UNAVAILABLE),
        OWNER_RECOVERING(KvStatus.UNAVAILABLE),
        CATCHING_UP(KvStatus.OWNERSHIP_CHANGING),
        HANDING_OVER(KvStatus.MIGRATING),
        LEASE_LAPSED(KvStatus.UNAVAILABLE),
        MINORITY_WRITE(KvStatus.UNAVAILABLE),
        REPLICA_WRITE(KvStatus.REPLICA_WRITE_REJECTED),
        MOVED(KvStatus.MOVED);

        private final KvStatus status;

        Verdict(KvStatus status) {
            this.status = status;
        }

        /** The status the request is answered with; {@link KvStatus#OK} means serve it. */
        public KvStatus status() {
            return status;
        }
    }

    /**
     * @param self         this node's id
     * @param partitionMap the assigned owners
     * @param runtime      the partition's runtime entry in this node's view
     * @param partition    the partition the request's segment belongs to
     * @param facts        what else the node knows about the request and the partition
     */
    public static Verdict decide(String self, PartitionMap partitionMap, PartitionRuntime runtime, int partition,
                                 Facts facts) {
        if (facts.routedEpoch() > runtime.epoch() || facts.fenced()) {
            // Someone knows a newer epoch than this node's view: nobody here may act on the old one.
            return Verdict.VIEW_BEHIND;
        }
        if (runtime.health() == PartitionHealth.UNAVAILABLE) {
            return Verdict.NO_OWNER;
        }
        if (self.equals(runtime.activeNode())) {
            return decideAsActive(runtime, facts);
        }
        if (facts.write() && partitionMap.isAssigned(partition, self)) {
            return Verdict.REPLICA_WRITE;
        }
        return Verdict.MOVED;
    }

    private static Verdict decideAsActive(PartitionRuntime runtime, Facts facts) {
        if (!runtime.health().isServing()) {
            return Verdict.OWNER_RECOVERING;
        }
        switch (facts.catchUp()) {
            case AFTER_TAKEOVER:
                return Verdict.CATCHING_UP;
            case PLANNED_HAND_OVER:
                return Verdict.HANDING_OVER;
            default:
                break;
        }
        if (!facts.holdsLease()) {
            return Verdict.LEASE_LAPSED;
        }
        if (facts.write() && !facts.inMajority()) {
            return Verdict.MINORITY_WRITE;
        }
        return Verdict.SERVE;
    }
}
