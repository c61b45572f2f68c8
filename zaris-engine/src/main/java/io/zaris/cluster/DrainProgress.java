package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A node's own drain: whether it asked to have its partitions moved away, when it last repeated the request, and
 * the future that completes once an adopted view gives it no role. The decisions take the view, the present nodes
 * and the time as values; {@link ClusterMember} sends the requests and feeds it every adopted view.
 *
 * <p>Concurrency: written on the membership events thread only; {@link #isRequested()} and {@link #future()} are read
 * anywhere (a volatile flag, a thread-safe future).
 */
final class DrainProgress {

    /**
     * How often the request is repeated while draining, and also once drained: messages can be lost and leaders
     * change, and a drained node that keeps running stays out of the map only while it keeps asking.
     */
    static final Duration REPEAT_INTERVAL = Duration.ofSeconds(1);

    /** Where a drain stands in one view. */
    enum Outcome {
        /** The view still gives the node a role, and another node is present to take it. */
        PENDING,
        /** The view gives the node no active role and no place in the partition map. */
        DRAINED,
        /** The node still has a role and is alone: nobody can take its partitions. */
        NOBODY_TO_TAKE_OVER
    }

    private volatile boolean requested;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private long lastRequestNanos = Long.MIN_VALUE;

    /** Asks for a drain (again); the next {@link #requestDue} is due at once. Returns whether it is the first ask. */
    boolean request() {
        boolean first = !requested;
        requested = true;
        lastRequestNanos = Long.MIN_VALUE;
        return first;
    }

    boolean isRequested() {
        return requested;
    }

    /** Completes once drained; fails when nobody can take the partitions or the node stops first. */
    CompletableFuture<Void> future() {
        return done;
    }

    /** Whether the request must be sent at {@code nowNanos}; if so, records that it was. */
    boolean requestDue(long nowNanos) {
        if (!requested || (lastRequestNanos != Long.MIN_VALUE
                && nowNanos - lastRequestNanos < REPEAT_INTERVAL.toNanos())) {
            return false;
        }
        lastRequestNanos = nowNanos;
        return true;
    }

    /**
     * Settles the future by {@code held} (nothing while no drain was asked, no view is held or it is settled);
     * returns the outcome it acted on, {@link Outcome#PENDING} when it did nothing.
     */
    Outcome settle(ClusterView held, String nodeId, Set<String> present) {
        if (!requested || done.isDone() || held == null) {
            return Outcome.PENDING;
        }
        Outcome outcome = outcome(held, nodeId, present);
        if (outcome == Outcome.DRAINED) {
            done.complete(null);
        } else if (outcome == Outcome.NOBODY_TO_TAKE_OVER) {
            done.completeExceptionally(new IllegalStateException("node " + nodeId
                    + " cannot drain: no other node is present to take its partitions"));
        }
        return outcome;
    }

    /** The node stops: a drain not finished by now fails. */
    void stopped(String nodeId) {
        done.completeExceptionally(new IllegalStateException("node " + nodeId + " stopped before it was drained"));
    }

    /** Where a drain of {@code nodeId} stands in {@code held}, with {@code present} the nodes membership sees. */
    static Outcome outcome(ClusterView held, String nodeId, Set<String> present) {
        boolean active = false;
        for (PartitionRuntime runtime : held.runtimeMap().partitions()) {
            active |= nodeId.equals(runtime.activeNode());
        }
        if (!active && !held.partitionMap().nodes().contains(nodeId)) {
            return Outcome.DRAINED;
        }
        return present.equals(Set.of(nodeId)) ? Outcome.NOBODY_TO_TAKE_OVER : Outcome.PENDING;
    }
}
