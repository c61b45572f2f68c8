package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import io.zaris.time.TimeSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Runs an engine request for a Redis command and, while the answer is a refusal {@link MoveWaitPolicy} waits out
 * (the partition is changing hands), runs it again after the policy's delay; the command's future completes with
 * the first other answer, or with the last refusal once the policy's bound has passed.
 *
 * <p>A request answered at once with anything else costs nothing extra: its own future is returned. Only a refused
 * one allocates a waiter. Since the connection replies in command order, a waiting command holds back the replies of
 * the commands pipelined behind it, as a SYNC write waiting for its replicas does.
 *
 * <p>Threads: {@link #run} on connections' event loops; retries on this class's one timer thread, which runs the
 * request again through the node's request path (as {@link BlockedClients} retries pops). {@code waiting} is the
 * only shared state, an atomic count.
 */
final class MoveWaits implements AutoCloseable {

    private final TimeSource time;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "zaris-resp-move-waits");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicInteger waiting = new AtomicInteger();

    MoveWaits(TimeSource time) {
        this.time = time;
    }

    /**
     * @param attempt runs the request once (a new attempt each call)
     * @param refused whether an answer is a refusal to wait out
     */
    CompletableFuture<ByteBuf> run(Supplier<CompletableFuture<ByteBuf>> attempt, Predicate<ByteBuf> refused) {
        return waitOut(attempt.get(), attempt, refused);
    }

    /** {@link #run} when the first attempt was already made (its outcome {@code first}). */
    CompletableFuture<ByteBuf> waitOut(CompletableFuture<ByteBuf> first, Supplier<CompletableFuture<ByteBuf>> attempt,
                                       Predicate<ByteBuf> refused) {
        if (!isRefusal(first, refused)) {
            return first;
        }
        long delay = MoveWaitPolicy.nextDelayNanos(1, 0, waiting.get());
        if (delay == MoveWaitPolicy.ANSWER_NOW) {
            return first;
        }
        waiting.incrementAndGet();
        Waiter waiter = new Waiter(attempt, refused, first.join(), time.nanoTime());
        waiter.schedule(delay);
        return waiter.result;
    }

    /** Commands waiting now. */
    int waiting() {
        return waiting.get();
    }

    private static boolean isRefusal(CompletableFuture<ByteBuf> outcome, Predicate<ByteBuf> refused) {
        return outcome.isDone() && !outcome.isCompletedExceptionally() && refused.test(outcome.join());
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** One waiting command; touched by the timer thread only after {@link #run} scheduled it. */
    private final class Waiter {
        final CompletableFuture<ByteBuf> result = new CompletableFuture<>();
        final Supplier<CompletableFuture<ByteBuf>> attempt;
        final Predicate<ByteBuf> refused;
        final long firstRefusedNanos;
        ByteBuf lastRefusal;
        int attempts = 1;

        Waiter(Supplier<CompletableFuture<ByteBuf>> attempt, Predicate<ByteBuf> refused, ByteBuf refusal,
               long firstRefusedNanos) {
            this.attempt = attempt;
            this.refused = refused;
            this.lastRefusal = refusal;
            this.firstRefusedNanos = firstRefusedNanos;
        }

        void schedule(long delayNanos) {
            try {
                timer.schedule(this::retry, delayNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                finish(lastRefusal);
            }
        }

        /** Timer thread: one more attempt; a refusal schedules the next or, past the bound, is the answer. */
        void retry() {
            CompletableFuture<ByteBuf> outcome;
            try {
                outcome = attempt.get();
            } catch (RuntimeException e) {
                waiting.decrementAndGet();
                result.completeExceptionally(e);
                return;
            }
            attempts++;
            if (!isRefusal(outcome, refused)) {
                waiting.decrementAndGet();
                outcome.whenComplete((payload, failure) -> {
                    if (failure != null) {
                        result.completeExceptionally(failure);
                    } else {
                        result.complete(payload);
                    }
                });
                return;
            }
            lastRefusal = outcome.join();
            // Counted without itself: it already holds a place.
            long delay = MoveWaitPolicy.nextDelayNanos(attempts, time.nanoTime() - firstRefusedNanos, waiting.get() - 1);
            if (delay == MoveWaitPolicy.ANSWER_NOW) {
                finish(lastRefusal);
            } else {
                schedule(delay);
            }
        }

        void finish(ByteBuf refusal) {
            waiting.decrementAndGet();
            result.complete(refusal);
        }
    }
}
