package io.zaris.store;

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
     * @return completes when the changes are acknowledged as the node's acknowledgement mode requires
     *         (at once for ASYNC); completes exceptionally when that requirement cannot be met
     */
    CompletableFuture<Void> ship(int segment, List<Change> changes);

    /** Ships nothing (a single-owner layout, or tests). */
    ChangeSink NONE = (segment, changes) -> CompletableFuture.completedFuture(null);
}
