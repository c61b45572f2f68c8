package io.zaris.server;

import io.zaris.model.ClusterView;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.replication.EpochFence;
import io.zaris.replication.ReplicaSegments;
import io.zaris.replication.Replicator;
import io.zaris.replication.TakeoverGate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a node does with each cluster view its membership adopts, told (previous or null, adopted) before the view
 * becomes the one the data path routes by. The decisions are {@link AdoptedRoles} and {@link OwnershipChanges};
 * this class applies them, in an order that matters:
 * <ol>
 *   <li>the epoch fence rises to the view's epochs (and past the roles a restarted process inherited without data);
 *   <li>kept roles are marked complete, and every partition the view hands this node starts its takeover catch-up,
 *       which closes its gate at once: gates close before the replicator sees the view, so nothing is synced over a
 *       fellow replica that may still hold acknowledged writes this node lacks;
 *   <li>a finished catch-up publishes what was inherited to clients, then marks the partition complete;
 *   <li>the replicator adopts the view, and clients are pushed the changed runtime entries.
 * </ol>
 *
 * <p>Concurrency: {@link #accept} runs on the membership events thread, one view at a time. The catch-up
 * completions run on the catch-up's threads; they touch only thread-safe structures (replica segments, the
 * replicator's wake-up) and read the node's current view through the supplier.
 */
final class ViewAdoption implements BiConsumer<ClusterView, ClusterView> {

    /** Publishes a finished takeover of (partition, under the view that started it) to clients; never fails. */
    interface TakeoverPublisher {
        CompletableFuture<Void> publish(int partition, ClusterView adopted);
    }

    private final String nodeId;
    private final EpochFence fence;
    private final TakeoverGate takeoverGate;
    private final ReplicaSegments replicaSegments;
    private final TakeoverCatchUp takeoverCatchUp;
    private final Replicator replicator;
    private final Supplier<Map<Integer, Long>> inheritedActives;
    private final TakeoverPublisher takeoverPublisher;
    private final Consumer<List<RuntimeOwnershipChangedEvent>> clientPush;
    private final Supplier<ClusterView> currentView;

    ViewAdoption(String nodeId, EpochFence fence, TakeoverGate takeoverGate, ReplicaSegments replicaSegments,
                 TakeoverCatchUp takeoverCatchUp, Replicator replicator, Supplier<Map<Integer, Long>> inheritedActives,
                 TakeoverPublisher takeoverPublisher, Consumer<List<RuntimeOwnershipChangedEvent>> clientPush,
                 Supplier<ClusterView> currentView) {
        this.nodeId = nodeId;
        this.fence = fence;
        this.takeoverGate = takeoverGate;
        this.replicaSegments = replicaSegments;
        this.takeoverCatchUp = takeoverCatchUp;
        this.replicator = replicator;
        this.inheritedActives = inheritedActives;
        this.takeoverPublisher = takeoverPublisher;
        this.clientPush = clientPush;
        this.currentView = currentView;
    }

    @Override
    public void accept(ClusterView previous, ClusterView adopted) {
        Map<Integer, Long> inherited = inheritedActives.get();
        long[] epochs = AdoptedRoles.fenceEpochs(adopted, inherited);
        for (int p = 0; p < epochs.length; p++) {
            fence.observe(p, epochs[p]);
        }
        List<Integer> takenOver = OwnershipChanges.takenOverBy(nodeId, previous, adopted);
        AdoptedRoles.keptRolesComplete(nodeId, previous, adopted, takenOver, inherited, takeoverGate::isCatchingUp)
                .forEach((partition, epoch) -> markComplete(adopted.layout(), partition, epoch));
        for (int partition : takenOver) {
            long epoch = adopted.runtimeMap().get(partition).epoch();
            takeoverCatchUp.start(partition, previous, adopted)
                    .thenCompose(caughtUp -> takeoverPublisher.publish(partition, adopted)).thenRun(() -> {
                        markComplete(adopted.layout(), partition,
                                AdoptedRoles.takeoverCompleteEpoch(nodeId, epoch, currentView.get(), partition));
                        replicator.reconcileSoon();
                    });
        }
        replicator.onView(adopted);
        clientPush.accept(OwnershipChanges.between(previous, adopted));
    }

    private void markComplete(PartitionLayout layout, int partition, long epoch) {
        for (int s = layout.firstSegmentOf(partition); s <= layout.lastSegmentOf(partition); s++) {
            replicaSegments.markSynced(s, epoch);
        }
    }
}
