package io.zaris.replication;

import io.zaris.model.AckMode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.Supplier;

/**
 * The replicas' verdicts on one shipment of a segment's changes, counted as they arrive: this future (also
 * {@link #result()}) completes once every replica shipped to has answered. This is what a SYNC write waits for. It is
 * the future itself rather than one it holds: one object fewer per replicated write.
 *
 * <p>The rule (see {@link AckMode#SYNC}). The shipment succeeds when
 * <ol>
 *   <li>no replica reports a newer epoch ({@code FENCED}: this node has been superseded, and the new owner may
 *       never see the write),</li>
 *   <li>at least {@code required} replicas applied it, and</li>
 *   <li>some replica applied it, or every replica that did not is gone (its connection closed under the
 *       shipment). A replica still there that did not apply it (it timed out, or lacks earlier changes and
 *       must catch up) could be promoted without the write, so the owner alone does not acknowledge it; with
 *       another copy applied it does, and the laggard catches up —</li>
 *   <li>but only once the leader proved, after the verdicts, that it still heads a majority this node belongs
 *       to ({@code majorityCheck}). A replica falls silent when it hangs, and also when this node and the
 *       replica that applied the write were cut off together from the rest: the majority side then promotes
 *       the silent replica, the only copy it can reach, and a write acknowledged here would be lost. A hung
 *       replica's partitions pass the check in one beat's round trip; a cut-off minority's writes fail.</li>
 * </ol>
 * So a crash never holds writes back (the dead replica's connection closes), while a hung replica holds back
 * only partitions where it is the last other copy, until membership excludes it. A success with fewer copies
 * applied than the partition has assigned replicas is reported to {@code reducedRedundancy}.
 *
 * <p>Thread-safe: verdicts arrive on the replication links' event loops. Each counter increment happens
 * before its {@code awaiting} decrement, so whoever takes {@code awaiting} to zero sees every verdict. The counters
 * are volatile fields changed through field updaters rather than four atomic objects: one of these is made per
 * replicated write.
 */
final class ReplicaAcks extends CompletableFuture<Void> {

    private static final AtomicIntegerFieldUpdater<ReplicaAcks> AWAITING =
            AtomicIntegerFieldUpdater.newUpdater(ReplicaAcks.class, "awaiting");
    private static final AtomicIntegerFieldUpdater<ReplicaAcks> APPLIED =
            AtomicIntegerFieldUpdater.newUpdater(ReplicaAcks.class, "applied");
    private static final AtomicIntegerFieldUpdater<ReplicaAcks> REFUSED =
            AtomicIntegerFieldUpdater.newUpdater(ReplicaAcks.class, "refused");
    private static final AtomicIntegerFieldUpdater<ReplicaAcks> FENCED =
            AtomicIntegerFieldUpdater.newUpdater(ReplicaAcks.class, "fenced");

    private final int partition;
    private final int required;
    private final int assigned;
    private final Runnable reducedRedundancy;
    private final Supplier<CompletableFuture<Void>> majorityCheck;
    private final AtomicIntegerArray awaitingVerdicts;
    private volatile int awaiting;
    private volatile int applied;
    private volatile int refused;
    private volatile int fenced;

    /**
     * @param shipped           replicas the changes were shipped to, or wait for until they are live for the segment
     *                          (see {@link SyncWaiters}): exactly this many {@link #onVerdict} calls follow
     * @param required          replicas that must have applied the changes
     * @param assigned          replicas the partition has assigned (present or not)
     * @param reducedRedundancy run once when the shipment succeeds with fewer than {@code assigned} copies applied
     * @param majorityCheck     asked when a connected replica did not apply what another did: completes once the
     *                          leader proved a majority after the question, fails or times out otherwise
     */
    ReplicaAcks(int partition, int shipped, int required, int assigned, Runnable reducedRedundancy,
                Supplier<CompletableFuture<Void>> majorityCheck) {
        this(partition, shipped, 0, required, assigned, reducedRedundancy, majorityCheck);
    }

    /**
     * @param silent replicas not shipped to because their last link closed when they fell silent (see
     *               {@code PeerSilentException}): counted at once as replicas that did not apply the changes
     */
    ReplicaAcks(int partition, int shipped, int silent, int required, int assigned, Runnable reducedRedundancy,
                Supplier<CompletableFuture<Void>> majorityCheck) {
        this(partition, shipped, silent, required, assigned, reducedRedundancy, majorityCheck, null);
    }

    /**
     * @param awaitingVerdicts per partition, the shipments still waiting for a replica's verdict: the caller counted
     *                         this one in before, and it is counted out once every verdict is in ({@code null}: not
     *                         counted). A planned hand-over's fence waits on it (see {@link HandOverFence}).
     */
    ReplicaAcks(int partition, int shipped, int silent, int required, int assigned, Runnable reducedRedundancy,
                Supplier<CompletableFuture<Void>> majorityCheck, AtomicIntegerArray awaitingVerdicts) {
        this.awaitingVerdicts = awaitingVerdicts;
        this.partition = partition;
        this.required = required;
        this.assigned = assigned;
        this.reducedRedundancy = reducedRedundancy;
        this.majorityCheck = majorityCheck;
        this.refused = silent;
        this.awaiting = shipped;
        if (shipped == 0) {
            finish();
        }
    }

    void onVerdict(ReplicaLink.Verdict verdict) {
        if (verdict.applied()) {
            APPLIED.incrementAndGet(this);
        } else if (verdict.fenced()) {
            FENCED.incrementAndGet(this);
        } else if (!verdict.replicaGone()) {
            REFUSED.incrementAndGet(this);
        }
        if (AWAITING.decrementAndGet(this) == 0) {
            finish();
        }
    }

    CompletableFuture<Void> result() {
        return this;
    }

    private void finish() {
        if (awaitingVerdicts != null) {
            awaitingVerdicts.decrementAndGet(partition); // every verdict is in: FENCED or not, it is decided
        }
        int count = applied;
        if (fenced > 0) {
            completeExceptionally(new ReplicationException("a replica of partition " + partition
                    + " knows a newer epoch: this node no longer owns it"));
        } else if (count < required) {
            completeExceptionally(new ReplicationException(count + " of " + required
                    + " required replicas applied the write to partition " + partition));
        } else if (count == 0 && refused > 0) {
            completeExceptionally(new ReplicationException(refused + " connected replica(s) of partition "
                    + partition + " did not apply the write and no other copy did"));
        } else if (refused > 0) {
            majorityCheck.get().whenComplete((confirmed, error) -> {
                if (error == null) {
                    succeed(count);
                } else {
                    completeExceptionally(new ReplicationException(refused + " connected replica(s) of partition "
                            + partition + " did not apply the write and the leader did not confirm that this node still "
                            + "belongs to a majority (" + describe(error) + "): it may be cut off with the copies that did"));
                }
            });
        } else {
            succeed(count);
        }
    }

    /**
     * The rule above for a shipment to one replica, none silent, whose outcome nobody waits for (an ASYNC write):
     * whether it succeeds with fewer copies applied than {@code assigned}, which is all that is counted of it. Without
     * a majority check: with no silent replica, one verdict never asks for it.
     */
    static boolean loneVerdictSucceedsReduced(ReplicaLink.Verdict verdict, int required, int assigned) {
        if (verdict.applied()) {
            return 1 < assigned;
        }
        // A replica that is gone counts neither way: the owner's copy alone succeeds when none is required.
        return verdict.replicaGone() && !verdict.fenced() && required == 0;
    }

    private static String describe(Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause() : error;
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    private void succeed(int appliedCount) {
        if (appliedCount < assigned) {
            reducedRedundancy.run();
        }
        complete(null);
    }
}
