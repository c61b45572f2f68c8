package io.zaris.store;

import java.util.concurrent.CompletableFuture;

/** Outcome of a multi-key write: per-key versions (multi-put) or how many keys existed (multi-delete). */
public record MultiWriteResult(long[] versions, int deleted, CompletableFuture<Void> replicated) {
}
