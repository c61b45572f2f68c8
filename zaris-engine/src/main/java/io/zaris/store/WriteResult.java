package io.zaris.store;

import io.zaris.model.KvStatus;
import java.util.concurrent.CompletableFuture;

/**
 * Outcome of a single-key write. {@code version} is the new version on {@code OK}, the current version
 * ({@code 0} when absent) on {@code CONFLICT}, and {@code 0} on {@code NOT_FOUND}. {@code replicated}
 * completes when the change is acknowledged as the acknowledgement mode requires (done at once when
 * nothing changed).
 */
public record WriteResult(KvStatus status, long version, CompletableFuture<Void> replicated) {

    static final CompletableFuture<Void> NOTHING_TO_REPLICATE = CompletableFuture.completedFuture(null);

    /** The segment was taken over under a newer epoch; nothing was written. */
    static final WriteResult RETIRED = new WriteResult(KvStatus.OWNERSHIP_CHANGING, 0);

    public WriteResult(KvStatus status, long version) {
        this(status, version, NOTHING_TO_REPLICATE);
    }
}
