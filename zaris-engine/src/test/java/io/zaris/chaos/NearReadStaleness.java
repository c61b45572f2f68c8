package io.zaris.chaos;

import io.zaris.client.ZarisClientOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The staleness the checker allows a read the near cache answered, and what it saw of it.
 *
 * <p>A near-cache read can miss another client's write from the owner's acknowledgement until the invalidation
 * arrives; after a takeover, until this client learns the new epoch (the new owner's ownership push, or the map poll
 * when the push was skipped). A paused owner keeps its connection open and pushes nothing, so the worst case is the
 * poll: one {@link ZarisClientOptions#DEFAULT_MAP_REFRESH_INTERVAL interval} until it starts, and one
 * {@link ZarisClientOptions#DEFAULT_ATTEMPT_TIMEOUT attempt timeout} if it first asks the paused node. {@link #BOUND}
 * is that sum for the clients' default options; a local read staler than it is a finding.
 *
 * <p>Staleness of a local read R that returned the value of write S: R's invocation minus the acknowledgement of
 * the first acknowledged write after S. Used by one thread, during one check.
 */
final class NearReadStaleness {

    /** The staleness bound of a near-cache read under the clients' default options. */
    static final Duration BOUND = ZarisClientOptions.DEFAULT_MAP_REFRESH_INTERVAL
            .plus(ZarisClientOptions.DEFAULT_ATTEMPT_TIMEOUT);

    private final long boundNanos;
    private long localReads;
    private final List<Long> stalenessNanos = new ArrayList<>();

    NearReadStaleness(Duration bound) {
        this.boundNanos = bound.toNanos();
    }

    long boundNanos() {
        return boundNanos;
    }

    /** An answered read the near cache answered. */
    void local() {
        localReads++;
    }

    /** A local read returned a value older than a write acknowledged before it began, {@code nanos} late. */
    void stale(long nanos) {
        stalenessNanos.add(nanos);
    }

    boolean withinBound(long nanos) {
        return nanos <= boundNanos;
    }

    Verdict.NearReads summary() {
        List<Long> sorted = new ArrayList<>(stalenessNanos);
        Collections.sort(sorted);
        long within = sorted.stream().filter(this::withinBound).count();
        long max = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1);
        long p99 = sorted.isEmpty() ? 0 : sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * 0.99) - 1));
        return new Verdict.NearReads(localReads, within, sorted.size() - within, max, p99, boundNanos);
    }
}
