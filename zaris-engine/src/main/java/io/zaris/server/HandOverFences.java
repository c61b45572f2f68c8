package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.PartitionRuntime;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.replication.EpochFence;
import io.zaris.replication.HandOverFence;
import io.zaris.replication.Replicator;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the leader's {@code HAND_OVER_FENCE} (see {@link HandOverFence}): only the partition's active owner under
 * exactly the asked epoch (and not fenced by a newer one) puts the fence up; the answer is {@code OK} once the writes
 * it applied before have their replicas' verdicts, {@code OWNERSHIP_CHANGING} when they did not within the settle
 * wait, {@code BAD_REQUEST} when this node is not that owner. Whatever the answer, the leader publishes the hand-over.
 *
 * <p>Stateless beyond references to thread-safe collaborators; runs on the connection's event loop, and the answer
 * is written into {@code out} by whichever thread completes the settle wait, before the returned future completes.
 */
final class HandOverFences {

    private static final Logger log = LoggerFactory.getLogger(HandOverFences.class);

    private final String nodeId;
    private final Supplier<ClusterView> currentView;
    private final EpochFence fence;
    private final Replicator replicator;

    HandOverFences(String nodeId, Supplier<ClusterView> currentView, EpochFence fence, Replicator replicator) {
        this.nodeId = nodeId;
        this.currentView = currentView;
        this.fence = fence;
        this.replicator = replicator;
    }

    /** Puts the fence up when this node may, and returns when {@code out} holds the answer. */
    CompletableFuture<Void> answer(Request.HandOverFence request, ByteBuf out) {
        ClusterView view = currentView.get();
        int partition = request.partition();
        if (view == null || partition < 0 || partition >= view.runtimeMap().partitionCount()) {
            ResponseCodec.writeError(out, request.id(), KvStatus.BAD_REQUEST, "unknown partition " + partition);
            return RequestHandler.DONE;
        }
        PartitionRuntime runtime = view.runtimeMap().get(partition);
        if (!nodeId.equals(runtime.activeNode()) || runtime.epoch() != request.epoch()
                || fence.isStale(partition, runtime.epoch())) {
            ResponseCodec.writeError(out, request.id(), KvStatus.BAD_REQUEST, "node " + nodeId + " is not the active owner"
                    + " of partition " + partition + " under epoch " + request.epoch() + " (its map: " + runtime.activeNode()
                    + " under epoch " + runtime.epoch() + ")");
            return RequestHandler.DONE;
        }
        return replicator.fenceForHandOver(partition, request.epoch()).thenAccept(settled -> {
            if (settled) {
                ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            } else {
                ResponseCodec.writeError(out, request.id(), KvStatus.OWNERSHIP_CHANGING, "node " + nodeId
                        + " fenced partition " + partition + " but its earlier writes did not all have their replicas'"
                        + " verdicts within " + HandOverFence.SETTLE_WAIT);
            }
            log.debug("node {}: partition {} fenced for a hand-over at epoch {} (settled: {})", nodeId, partition,
                    request.epoch(), settled);
        });
    }
}
