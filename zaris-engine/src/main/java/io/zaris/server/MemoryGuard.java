package io.zaris.server;

import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.Request;
import io.zaris.replication.EpochFence;
import io.zaris.replication.TakeoverGate;
import io.zaris.store.ActiveSegments;
import io.zaris.store.EvictionPolicy;
import io.zaris.store.MemoryOptions;
import io.zaris.store.MemoryReclaimer;
import io.zaris.store.StoreMemory;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Keeps a node within its memory budget: admits or refuses writes that add data, and runs the periodic
 * expiry and eviction. Only segments of partitions this node actively owns (under an epoch the fence has
 * not superseded) are touched, and only while the node sees a majority — the same conditions under which
 * it accepts client writes — so every removal is a write of the active owner, replicated like any other.
 *
 * <p>Two bounds are kept, because a node holds replica copies it may not evict:
 * <ol>
 *   <li>the node's total (active and replica data) within its budget — over it, the policy evicts from the
 *   node's active partitions, and a write that finds no room is refused with {@code OUT_OF_MEMORY};</li>
 *   <li>once the node is past {@link #PARTITION_CAP_PRESSURE} of its budget, each partition it serves within a
 *   fair share, {@code budget / partitions the node holds} — so the copies it ships to its replicas fit their
 *   budgets too when the cluster's map is balanced. Over the share the policy evicts from that partition only,
 *   and no more than brings the node back under the mark; a write is never refused for this bound alone.
 *   Below the mark a skewed partition grows freely: one hash tag holding most of the data would otherwise be
 *   evicted at a fraction of a percent of the budget while the node is nearly empty.</li>
 * </ol>
 *
 * <p>Threads: {@link #admitWrite} runs on request threads; {@link #maintain} on the node's one memory
 * maintenance thread, which alone uses {@code maintenanceRandom} and the reclaimer's expiry cursor. The
 * active-segment cache is immutable and published through a volatile field: a racing rebuild computes an
 * equal value from the same view.
 */
final class MemoryGuard {

    /** Keys one write evicts at most before it is applied: bounds what a single request pays for reclaim. */
    static final int MAX_EVICTIONS_PER_WRITE = 64;
    /** The share of its budget a node holds before it caps partitions at their fair share. */
    static final double PARTITION_CAP_PRESSURE = 0.75;

    private final String nodeId;
    private final MemoryReclaimer reclaimer;
    private final StoreMemory memory;
    private final Supplier<ClusterView> currentView;
    private final EpochFence fence;
    private final TakeoverGate gate;
    private final BooleanSupplier inMajority;
    private final SplittableRandom maintenanceRandom = new SplittableRandom();
    private volatile Ownership ownership = Ownership.NONE;

    MemoryGuard(String nodeId, MemoryReclaimer reclaimer, StoreMemory memory, Supplier<ClusterView> currentView,
                EpochFence fence, TakeoverGate gate, BooleanSupplier inMajority) {
        this.gate = gate;
        this.nodeId = nodeId;
        this.reclaimer = reclaimer;
        this.memory = memory;
        this.currentView = currentView;
        this.fence = fence;
        this.inMajority = inMajority;
    }

    /**
     * What this node may reclaim under one view: all its active segments, those of each active partition
     * ({@code null} where it is not active), and its fair share per partition.
     */
    record Ownership(ClusterView view, long gateChanges, ActiveSegments all, ActiveSegments[] byPartition,
                     long partitionShareBytes) {

        static final Ownership NONE = new Ownership(null, -1, ActiveSegments.NONE, new ActiveSegments[0], Long.MAX_VALUE);

        ActiveSegments partition(int partition) {
            return partition < byPartition.length ? byPartition[partition] : null;
        }
    }

    /** Writes that make the node hold more: refused when full. Deletes and TTL changes always pass. */
    static boolean addsData(Request request) {
        return request instanceof Request.Put || request instanceof Request.Increment || request instanceof Request.MultiPut
                || request instanceof Request.MultiPutIfAbsent
                || (request instanceof Request.Hash hash && hash.hashOp().addsData());
    }

    /**
     * Called on the active owner before a write to {@code partition} that adds data. Over the node budget the
     * policy evicts up to {@link #MAX_EVICTIONS_PER_WRITE} keys and the write passes if that made room; over
     * the partition's share it evicts from the partition and the write passes.
     *
     * @return {@code OK} or {@code OUT_OF_MEMORY}
     */
    KvStatus admitWrite(int partition) {
        EvictionPolicy policy = reclaimer.options().policy();
        Ownership current = ownership();
        if (reclaimer.overBudget()) {
            int freed = reclaimer.evict(current.all(), MAX_EVICTIONS_PER_WRITE, ThreadLocalRandom.current());
            return policy.admitsWrite(reclaimer.overBudget(), freed > 0) ? KvStatus.OK : KvStatus.OUT_OF_MEMORY;
        }
        ActiveSegments own = current.partition(partition);
        long used = memory.usedBytes();
        long budget = reclaimer.options().maxBytes();
        // Below the mark no partition is capped: the sum over the partition's segments is not worth making per write.
        if (own != null && policy.evicts() && overMark(used, budget) > 0) {
            long excess = partitionExcess(reclaimer.bytesOf(own), current.partitionShareBytes(), used, budget);
            if (excess > 0) {
                reclaimer.evict(own, MAX_EVICTIONS_PER_WRITE, excess, ThreadLocalRandom.current());
            }
        }
        return KvStatus.OK;
    }

    /**
     * Bytes to evict from one partition for the second bound: what it holds over its share, but no more than the
     * node holds over {@link #PARTITION_CAP_PRESSURE} of its budget, and nothing below that mark. Pure.
     */
    static long partitionExcess(long partitionBytes, long shareBytes, long nodeUsedBytes, long budgetBytes) {
        return Math.max(0, Math.min(partitionBytes - shareBytes, overMark(nodeUsedBytes, budgetBytes)));
    }

    /** Bytes the node holds over {@link #PARTITION_CAP_PRESSURE} of its budget (not above it: 0 or less). Pure. */
    static long overMark(long nodeUsedBytes, long budgetBytes) {
        return nodeUsedBytes - (long) (budgetBytes * PARTITION_CAP_PRESSURE);
    }

    /** What a refused write is told. */
    String refusalMessage() {
        MemoryOptions options = reclaimer.options();
        return "node " + nodeId + " is over its memory budget (" + memory.usedBytes() + " of " + options.maxBytes()
                + " bytes used) and policy " + options.policy() + " cannot make room";
    }

    /** Maintenance thread: one run of active expiry, then eviction to both bounds, all bounded per run. */
    void maintain() {
        if (!inMajority.getAsBoolean()) {
            return;
        }
        Ownership current = ownership();
        MemoryOptions options = reclaimer.options();
        reclaimer.expire(current.all(), options.expiryChecksPerRun(), maintenanceRandom);
        int left = options.evictionsPerRun() - reclaimer.evict(current.all(), options.evictionsPerRun(), maintenanceRandom);
        for (ActiveSegments own : current.byPartition()) {
            if (own == null || left <= 0 || !options.policy().evicts()) {
                continue;
            }
            long excess = partitionExcess(reclaimer.bytesOf(own), current.partitionShareBytes(), memory.usedBytes(),
                    options.maxBytes());
            if (excess > 0) {
                left -= reclaimer.evict(own, left, excess, maintenanceRandom);
            }
        }
    }

    /**
     * The segments this node may change, recomputed when the view changes or a takeover gate closes or
     * opens (a partition still catching up after a takeover is not touched).
     */
    Ownership ownership() {
        ClusterView view = currentView.get();
        long gateChanges = gate.changes();
        Ownership cached = ownership;
        if (cached.view() != view || cached.gateChanges() != gateChanges) {
            cached = view == null ? Ownership.NONE
                    : ownershipIn(view, gateChanges, nodeId, fence, gate, reclaimer.options().maxBytes());
            ownership = cached;
        }
        return cached;
    }

    /** What {@code nodeId} may reclaim in {@code view}. */
    static Ownership ownershipIn(ClusterView view, long gateChanges, String nodeId, EpochFence fence, TakeoverGate gate,
                                 long maxBytes) {
        PartitionLayout layout = view.layout();
        ActiveSegments[] byPartition = new ActiveSegments[layout.partitionCount()];
        int[] segments = new int[layout.segmentCount()];
        long[] epochs = new long[layout.segmentCount()];
        int count = 0;
        int held = 0;
        for (int p = 0; p < layout.partitionCount(); p++) {
            if (view.partitionMap().ownersOf(p).contains(nodeId)) {
                held++;
            }
            PartitionRuntime runtime = view.runtimeMap().get(p);
            if (!runtime.isServedBy(nodeId) || fence.isStale(p, runtime.epoch()) || gate.isCatchingUp(p)) {
                continue;
            }
            int first = count;
            for (int s = layout.firstSegmentOf(p); s <= layout.lastSegmentOf(p); s++) {
                segments[count] = s;
                epochs[count++] = runtime.epoch();
            }
            byPartition[p] = new ActiveSegments(Arrays.copyOfRange(segments, first, count), Arrays.copyOfRange(epochs, first, count));
        }
        ActiveSegments all = new ActiveSegments(Arrays.copyOf(segments, count), Arrays.copyOf(epochs, count));
        return new Ownership(view, gateChanges, all, byPartition, maxBytes / Math.max(1, held));
    }
}
