package io.zaris.client;

import io.zaris.model.PartitionRuntime;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * Lets a retry wait for the routing table to route a partition differently from how its failed attempt was
 * routed: a push, a poll or a refresh that brings the partition's new owner (or a new epoch) ends the wait at
 * once, instead of the retry sleeping out its whole delay while the answer is already there.
 *
 * <p>Concurrency: waiters register from any thread and are removed by whoever completes them or by the
 * retry when its delay ran out first ({@link #stopWaiting}), so the queue holds at most one waiter per
 * operation waiting to be retried. {@link #published} runs under the client's table lock after each new table;
 * a waiter registered concurrently re-reads the table after adding itself, so a change published between
 * its first look and its registration is never missed.
 */
final class RoutingWatch {

    /** One retry waiting for {@code partition} to be routed other than {@code seen}. */
    static final class Waiter {
        final int partition;
        final Routing seen;
        final CompletableFuture<Void> changed = new CompletableFuture<>();

        private Waiter(int partition, Routing seen) {
            this.partition = partition;
            this.seen = seen;
        }
    }

    /**
     * How a partition was routed: its active owner, epoch, and whether the client had an open connection to
     * that owner (a refresh that opens one changes the routing too). Health alone changes nothing for a retry.
     */
    record Routing(String activeNode, long epoch, boolean connected) {
        static Routing of(RoutingTable table, int partition) {
            PartitionRuntime runtime = table.view().runtimeMap().get(partition);
            return new Routing(runtime.activeNode(), runtime.epoch(), table.liveOwnerOf(partition) != null);
        }
    }

    private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();

    /**
     * A waiter whose future completes once the table routes {@code partition} other than {@code seen}
     * (at once when it already does).
     */
    Waiter changeOf(int partition, Routing seen, Supplier<RoutingTable> table) {
        Waiter waiter = new Waiter(partition, seen);
        if (changed(waiter, table.get())) {
            waiter.changed.complete(null);
            return waiter;
        }
        waiters.add(waiter);
        if (changed(waiter, table.get())) {
            stopWaiting(waiter);
            waiter.changed.complete(null);
        }
        return waiter;
    }

    /** The retry goes ahead (its delay ran out, or the change came): the waiter is dropped. */
    void stopWaiting(Waiter waiter) {
        waiters.remove(waiter);
    }

    /** A new table was published: wakes every waiter whose partition it routes differently. */
    void published(RoutingTable table) {
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter waiter = it.next();
            if (changed(waiter, table)) {
                it.remove();
                waiter.changed.complete(null);
            }
        }
    }

    /** Waiters registered now: for tests and the bound stated above. */
    int waiting() {
        return waiters.size();
    }

    private static boolean changed(Waiter waiter, RoutingTable table) {
        if (table == null || waiter.partition >= table.view().layout().partitionCount()) {
            return false;
        }
        return !Objects.equals(Routing.of(table, waiter.partition), waiter.seen);
    }
}
