package io.zaris.replication;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The replicas' verdicts on one shipment of a segment's changes, counted as they arrive: {@link #result()}
 * completes once every replica shipped to has answered — normally when at least {@code required} of them
 * applied the changes, else with a {@link ReplicationException}. This is what a SYNC write waits for.
 *
 * <p>Replaces a {@code CompletableFuture.allOf} over the verdict futures plus a pass over them, which cost
 * a tree of futures and a stream per write.
 *
 * <p>Thread-safe: verdicts arrive on the replication links' event loops. Each {@code applied} increment
 * happens before its {@code awaiting} decrement, so whoever takes {@code awaiting} to zero sees every
 * applied verdict.
 */
final class ReplicaAcks {

    private final CompletableFuture<Void> result = new CompletableFuture<>();
    private final int partition;
    private final int required;
    private final AtomicInteger awaiting;
    private final AtomicInteger applied = new AtomicInteger();

    /**
     * @param shipped  replicas the changes were shipped to: exactly this many {@link #onVerdict} calls follow
     * @param required replicas that must have applied the changes
     */
    ReplicaAcks(int partition, int shipped, int required) {
        this.partition = partition;
        this.required = required;
        this.awaiting = new AtomicInteger(shipped);
        if (shipped == 0) {
            finish();
        }
    }

    void onVerdict(ReplicaLink.Verdict verdict) {
        if (verdict.applied()) {
            applied.incrementAndGet();
        }
        if (awaiting.decrementAndGet() == 0) {
            finish();
        }
    }

    CompletableFuture<Void> result() {
        return result;
    }

    private void finish() {
        int count = applied.get();
        if (count >= required) {
            result.complete(null);
        } else {
            result.completeExceptionally(new ReplicationException(count + " of " + required
                    + " required replicas applied the write to partition " + partition));
        }
    }
}
