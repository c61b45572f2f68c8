package io.zaris.bench.peers;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;

/**
 * Asks a target, every {@link #PROBE_INTERVAL}, whether it is fully redundant, until it says yes or a deadline
 * passes. Before the kill the run waits for it in its own thread ({@link #await(FailoverTarget, Victim, long, long,
 * LongSupplier)}); after the kill it watches from a thread of its own ({@link #watch}) while the load goes on.
 *
 * <p>The time recorded is when the first probe that said yes returned: an upper bound, late by at most one probe.
 */
final class RedundancyWatch {

    /** Pause between two probes. */
    static final Duration PROBE_INTERVAL = Duration.ofMillis(250);

    private final CompletableFuture<Optional<Duration>> restored;

    private RedundancyWatch(CompletableFuture<Optional<Duration>> restored) {
        this.restored = restored;
    }

    /**
     * Starts watching on a new daemon thread.
     *
     * @param killNanos     the kill, on {@code clock}: the result is measured from it
     * @param deadlineNanos when to give up
     */
    static RedundancyWatch watch(FailoverTarget target, Victim killed, long killNanos, long deadlineNanos, LongSupplier clock) {
        CompletableFuture<Optional<Duration>> restored = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                restored.complete(await(target, killed, killNanos, deadlineNanos, clock));
            } catch (InterruptedException e) {
                restored.complete(Optional.empty());
            } catch (RuntimeException e) {
                restored.completeExceptionally(e);
            }
        }, "failover-redundancy-watch");
        thread.setDaemon(true);
        thread.start();
        return new RedundancyWatch(restored);
    }

    /** Probes on the calling thread; the time from {@code fromNanos} to the first yes, empty if none came by the deadline. */
    static Optional<Duration> await(FailoverTarget target, Victim killed, long fromNanos, long deadlineNanos, LongSupplier clock)
            throws InterruptedException {
        while (clock.getAsLong() < deadlineNanos) {
            if (target.fullyRedundant(killed)) {
                return Optional.of(Duration.ofNanos(clock.getAsLong() - fromNanos));
            }
            Thread.sleep(PROBE_INTERVAL.toMillis());
        }
        return Optional.empty();
    }

    /** The watch's answer, once it has one (by the deadline plus one probe). */
    Optional<Duration> result() throws InterruptedException {
        try {
            return restored.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the redundancy watch failed", e.getCause());
        }
    }
}
