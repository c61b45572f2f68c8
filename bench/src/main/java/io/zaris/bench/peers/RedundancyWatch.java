package io.zaris.bench.peers;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;

/**
 * Asks a target, every {@link #PROBE_INTERVAL}, what keeps it from full redundancy, until nothing does or a
 * deadline passes. Before the kill the run waits for it on its own thread ({@link #await}); after the kill it
 * watches from a thread of its own ({@link #watch}) while the load goes on.
 *
 * <p>The time recorded is when the first probe that found nothing short returned: an upper bound, late by at most
 * one probe.
 */
final class RedundancyWatch {

    /** Pause between two probes. */
    static final Duration PROBE_INTERVAL = Duration.ofMillis(250);

    /**
     * @param restoredAfter from the start of the wait (the kill) to full redundancy; empty if not by the deadline
     * @param lastShortfall what the last probe found short (empty once restored)
     */
    record Outcome(Optional<Duration> restoredAfter, String lastShortfall) {
    }

    private final CompletableFuture<Outcome> outcome;

    private RedundancyWatch(CompletableFuture<Outcome> outcome) {
        this.outcome = outcome;
    }

    /**
     * Starts watching on a new daemon thread.
     *
     * @param killNanos     the kill, on {@code clock}: the result is measured from it
     * @param deadlineNanos when to give up
     */
    static RedundancyWatch watch(FailoverTarget target, Victim killed, long killNanos, long deadlineNanos, LongSupplier clock) {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                outcome.complete(await(target, killed, killNanos, deadlineNanos, clock));
            } catch (InterruptedException e) {
                outcome.complete(new Outcome(Optional.empty(), "interrupted"));
            } catch (RuntimeException e) {
                outcome.completeExceptionally(e);
            }
        }, "failover-redundancy-watch");
        thread.setDaemon(true);
        thread.start();
        return new RedundancyWatch(outcome);
    }

    /** Probes on the calling thread until nothing is short (timed from {@code fromNanos}) or the deadline passes. */
    static Outcome await(FailoverTarget target, Victim killed, long fromNanos, long deadlineNanos, LongSupplier clock)
            throws InterruptedException {
        String shortfall = "never asked";
        while (clock.getAsLong() < deadlineNanos) {
            shortfall = target.redundancyShortfall(killed);
            if (shortfall.isEmpty()) {
                return new Outcome(Optional.of(Duration.ofNanos(clock.getAsLong() - fromNanos)), "");
            }
            Thread.sleep(PROBE_INTERVAL.toMillis());
        }
        return new Outcome(Optional.empty(), shortfall);
    }

    /** The watch's answer, once it has one (by the deadline plus one probe). */
    Outcome result() throws InterruptedException {
        try {
            return outcome.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the redundancy watch failed", e.getCause());
        }
    }
}
