package io.zaris.store;

import io.zaris.model.KvStatus;
import java.util.concurrent.CompletableFuture;

/** Outcome of INCREMENT: the new counter value and version on {@code OK}, a reason on {@code WRONG_TYPE}. */
public record IncrementResult(KvStatus status, long value, long version, String error,
                              CompletableFuture<Void> replicated) {

    static IncrementResult ok(long value, long version, CompletableFuture<Void> replicated) {
        return new IncrementResult(KvStatus.OK, value, version, null, replicated);
    }

    static IncrementResult retired() {
        return new IncrementResult(KvStatus.OWNERSHIP_CHANGING, 0, 0, "the partition was just taken over by another node",
                WriteResult.NOTHING_TO_REPLICATE);
    }

    static IncrementResult wrongType(String error) {
        return new IncrementResult(KvStatus.WRONG_TYPE, 0, 0, error, WriteResult.NOTHING_TO_REPLICATE);
    }
}
