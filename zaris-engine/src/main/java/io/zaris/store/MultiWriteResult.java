package io.zaris.store;

import io.zaris.model.KvStatus;
import java.util.concurrent.CompletableFuture;

/**
 * Outcome of a multi-key write: per-key versions (multi-put) or how many keys existed (multi-delete).
 * {@code status} is {@code OK}, {@code CONFLICT} when a conditional multi-put found a key present, or
 * {@code OWNERSHIP_CHANGING} when the segment was taken over under a newer epoch; in both cases nothing was
 * written ({@code versions} is empty and {@code replicated} is already done).
 */
public record MultiWriteResult(KvStatus status, long[] versions, int deleted, CompletableFuture<Void> replicated) {

    static MultiWriteResult written(long[] versions, CompletableFuture<Void> replicated) {
        return new MultiWriteResult(KvStatus.OK, versions, 0, replicated);
    }

    static MultiWriteResult deleted(int deleted, CompletableFuture<Void> replicated) {
        return new MultiWriteResult(KvStatus.OK, new long[0], deleted, replicated);
    }

    /** The segment was taken over under a newer epoch; nothing was written. */
    static MultiWriteResult retired() {
        return new MultiWriteResult(KvStatus.OWNERSHIP_CHANGING, new long[0], 0, WriteResult.NOTHING_TO_REPLICATE);
    }

    static MultiWriteResult conflict() {
        return new MultiWriteResult(KvStatus.CONFLICT, new long[0], 0, WriteResult.NOTHING_TO_REPLICATE);
    }
}
