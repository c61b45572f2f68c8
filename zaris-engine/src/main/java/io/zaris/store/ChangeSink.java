package io.zaris.store;

import io.zaris.model.AckMode;
import io.zaris.model.Change;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where a segment's changes go as they happen (replication). Called under the segment's write lock, in
 * revision order, so whatever the sink enqueues leaves in that order. Must not block.
 */
@FunctionalInterface
public interface ChangeSink {

    /**
     * Ships changes whose writer waits as the node's acknowledgement mode says.
     *
     * @return completes when the changes are acknowledged as the node's acknowledgement mode requires
     *         (at once for ASYNC); completes exceptionally when that requirement cannot be met
     */
    CompletableFuture<Void> ship(int segment, List<Change> changes);

    /**
     * Ships changes whose writer waits as {@code ack} says, whatever the node's mode: a write that asked for a mode of
     * its own, or a removal the node made by itself ({@link AckMode#ASYNC}: nobody waits for it). A sink that does not
     * tell the modes apart ships them as {@link #ship(int, List)} does.
     */
    default CompletableFuture<Void> ship(int segment, List<Change> changes, AckMode ack) {
        return ship(segment, changes);
    }

    /**
     * This sink, with {@code observer} shown every shipment first (under the segment's lock, on the writer's thread);
     * the writer's acknowledgement mode is handed on as it came.
     */
    default ChangeSink after(Observer observer) {
        ChangeSink next = this;
        return new ChangeSink() {
            @Override
            public CompletableFuture<Void> ship(int segment, List<Change> changes) {
                observer.observe(segment, changes);
                return next.ship(segment, changes);
            }

            @Override
            public CompletableFuture<Void> ship(int segment, List<Change> changes, AckMode ack) {
                observer.observe(segment, changes);
                return next.ship(segment, changes, ack);
            }
        };
    }

    /** Sees a segment's changes before they are shipped; must not block (it runs under the segment's lock). */
    @FunctionalInterface
    interface Observer {
        void observe(int segment, List<Change> changes);
    }

    /** Ships nothing (a single-owner layout, or tests). */
    ChangeSink NONE = (segment, changes) -> CompletableFuture.completedFuture(null);
}
