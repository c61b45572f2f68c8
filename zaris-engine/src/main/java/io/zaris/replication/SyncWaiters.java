package io.zaris.replication;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Shipments waiting for a replica that is not live yet for their segment: a serving member whose replication link is
 * opening, or open without the segment's snapshot so far. Each waiter stands for one shipment's verdict from that
 * replica, which {@link ReplicaAcks} counts like the verdict of a shipped change. It is completed, whichever comes
 * first, with the replica's answer to the first snapshot of the segment taken after the shipment, or to the log tail
 * that brings a carried-over copy up to date ({@link #settle}), as not shipped once the link cannot be had ({@link #release}), or by its owner at its deadline.
 *
 * <p>Why a snapshot settles exactly the shipments before it: a waiter joins in {@code Replicator#ship}, under the
 * segment's write lock, after the store applied the change; a snapshot is read under the same lock, and its consumer
 * takes the waiters there ({@link #settle}). So every waiter a snapshot takes was registered for a change the
 * snapshot holds, and a shipment registered after it waits for the next one.
 *
 * <p>Threads: waiters join and are taken for a snapshot under the segment's lock (request threads, the replication
 * thread); {@link #release} runs on the replication thread or a link's event loop, and deadlines complete waiters on
 * the replication thread. The queues are concurrent, each waiter leaves its queue once, and a waiter is a future:
 * whoever completes it first decides, later completions are no-ops.
 *
 * <p>Bounded: a waiter is completed at its deadline at the latest, and completed waiters at the head of a queue are
 * dropped whenever another joins it. Deadlines are the write's time plus one fixed ack timeout, registered in lock
 * order, so the completed ones gather at the head: a queue holds about the shipments of its segment from the last
 * ack timeout that are still unacknowledged, as many as writes waiting for their acknowledgement.
 */
final class SyncWaiters {

    private final int segmentCount;
    /** Per replica node, per segment: the waiters, oldest first; a segment's queue is made by its first waiter. */
    private final Map<String, AtomicReferenceArray<Queue<CompletableFuture<ReplicaLink.Verdict>>>> byPeer =
            new ConcurrentHashMap<>();

    SyncWaiters(int segmentCount) {
        this.segmentCount = segmentCount;
    }

    /**
     * A shipment of {@code segment} waits for {@code peer}: completes with the peer's verdict as described above.
     * Under the segment's lock (which is why the segment's queue is made without a compare-and-set).
     */
    CompletableFuture<ReplicaLink.Verdict> join(String peer, int segment) {
        AtomicReferenceArray<Queue<CompletableFuture<ReplicaLink.Verdict>>> segments =
                byPeer.computeIfAbsent(peer, ignored -> new AtomicReferenceArray<>(segmentCount));
        Queue<CompletableFuture<ReplicaLink.Verdict>> queue = segments.get(segment);
        if (queue == null) {
            queue = new ConcurrentLinkedQueue<>();
            segments.set(segment, queue);
        }
        for (CompletableFuture<ReplicaLink.Verdict> head = queue.peek(); head != null && head.isDone(); head = queue.peek()) {
            queue.remove(head); // expired at its deadline: nothing else still holds it here
        }
        CompletableFuture<ReplicaLink.Verdict> waiter = new CompletableFuture<>();
        queue.add(waiter);
        return waiter;
    }

    /** Whether some shipment of {@code segment} waits for {@code peer} (completed ones not yet dropped included). */
    boolean waits(String peer, int segment) {
        AtomicReferenceArray<Queue<CompletableFuture<ReplicaLink.Verdict>>> segments = byPeer.get(peer);
        Queue<CompletableFuture<ReplicaLink.Verdict>> queue = segments == null ? null : segments.get(segment);
        return queue != null && !queue.isEmpty();
    }

    /**
     * Under the segment's lock, where a snapshot of it for {@code peer} (or the tail after a copy {@code peer} carried
     * over) was just read: every waiter so far takes the verdict {@code snapshotVerdict} completes with.
     */
    void settle(String peer, int segment, CompletableFuture<ReplicaLink.Verdict> snapshotVerdict) {
        AtomicReferenceArray<Queue<CompletableFuture<ReplicaLink.Verdict>>> segments = byPeer.get(peer);
        Queue<CompletableFuture<ReplicaLink.Verdict>> queue = segments == null ? null : segments.get(segment);
        if (queue == null) {
            return;
        }
        for (CompletableFuture<ReplicaLink.Verdict> waiter = queue.poll(); waiter != null; waiter = queue.poll()) {
            if (!waiter.isDone()) {
                snapshotVerdict.thenAccept(waiter::complete);
            }
        }
    }

    /** Every waiter for {@code peer}, of any segment, is completed with {@code verdict} now. Any thread. */
    void release(String peer, ReplicaLink.Verdict verdict) {
        AtomicReferenceArray<Queue<CompletableFuture<ReplicaLink.Verdict>>> segments = byPeer.get(peer);
        if (segments == null) {
            return;
        }
        for (int segment = 0; segment < segmentCount; segment++) {
            Queue<CompletableFuture<ReplicaLink.Verdict>> queue = segments.get(segment);
            if (queue == null) {
                continue;
            }
            for (CompletableFuture<ReplicaLink.Verdict> waiter = queue.poll(); waiter != null; waiter = queue.poll()) {
                waiter.complete(verdict);
            }
        }
    }

    /** Replica nodes some shipment waits for, or waited for (their queues stay, empty, once made). */
    Iterable<String> peers() {
        return byPeer.keySet();
    }
}
