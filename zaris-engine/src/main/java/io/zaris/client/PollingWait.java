package io.zaris.client;

import io.zaris.time.TimeSource;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The wait of the client's blocking list operations ({@link ZarisClient#listBlockingPop}, its form on several keys and
 * {@link ZarisClient#listBlockingMove}). The native protocol has no request that waits on the node, so a wait runs a
 * <em>look</em> (ordinary operations, routed and retried by the client, answering {@code null} while there is nothing
 * to take) again and again, spaced by {@link PopPollDelay}, until one finds something or the timeout passes.
 *
 * <p>Rules: a look under way when the timeout passes is waited for, so what it took is returned, never dropped; a look
 * that fails ends the wait with its failure; a look that cannot even start (the client closed) ends it with that; a
 * pause the timer fails (the client closed while waiting) ends it too.
 *
 * <p>Threads: a wait's state is only its arguments and its result future. Each look starts after the previous one
 * ended, on the thread that completed it (a network thread) or the timer's, so no two looks of one wait overlap and
 * nothing is shared; this class holds only its clock and its timer, both thread-safe.
 */
final class PollingWait {

    private final TimeSource time;
    /** Completes after the given nanoseconds, or fails once the client closed ({@link RequestExecutor#after}). */
    private final LongFunction<CompletableFuture<Void>> pause;

    PollingWait(TimeSource time, LongFunction<CompletableFuture<Void>> pause) {
        this.time = time;
        this.pause = pause;
    }

    /** Runs {@code look} until it answers non-null (the result) or {@code timeoutNanos} pass ({@code null}). */
    <T> CompletableFuture<T> until(long timeoutNanos, Supplier<CompletableFuture<T>> look) {
        CompletableFuture<T> result = new CompletableFuture<>();
        lookAgain(look, time.nanoTime() + timeoutNanos, 0, result);
        return result;
    }

    private <T> void lookAgain(Supplier<CompletableFuture<T>> look, long deadline, long previousDelay,
                               CompletableFuture<T> result) {
        CompletableFuture<T> attempt;
        try {
            attempt = look.get();
        } catch (RuntimeException e) { // the client closed: thrown here, it would vanish inside the timer's task
            result.completeExceptionally(e);
            return;
        }
        attempt.whenComplete((found, error) -> {
            if (error != null) {
                result.completeExceptionally(ClientFailures.unwrap(error));
                return;
            }
            if (found != null) {
                result.complete(found);
                return;
            }
            long delay = PopPollDelay.next(previousDelay, deadline - time.nanoTime());
            if (delay == PopPollDelay.OVER) {
                result.complete(null);
                return;
            }
            pause.apply(delay).whenComplete((ignored, closedFirst) -> {
                if (closedFirst != null) {
                    result.completeExceptionally(ClientFailures.unwrap(closedFirst));
                } else {
                    lookAgain(look, deadline, delay, result);
                }
            });
        });
    }
}
