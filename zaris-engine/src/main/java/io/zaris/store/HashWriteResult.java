package io.zaris.store;

import io.zaris.model.KvStatus;
import java.util.concurrent.CompletableFuture;

/**
 * Outcome of a hash write: {@code OK} with what the command answers and the revision of its last change (0 when
 * it changed nothing), or {@code OWNERSHIP_CHANGING} when the copy was retired and nothing changed.
 * {@code replicated} completes when the changes are acknowledged as the acknowledgement mode requires.
 */
public record HashWriteResult<R>(KvStatus status, R result, long version, CompletableFuture<Void> replicated) {

    static <R> HashWriteResult<R> retired() {
        return new HashWriteResult<>(KvStatus.OWNERSHIP_CHANGING, null, 0, WriteResult.NOTHING_TO_REPLICATE);
    }
}
