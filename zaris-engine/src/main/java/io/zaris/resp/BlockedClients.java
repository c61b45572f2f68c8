package io.zaris.resp;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The clients of this node blocked in BLPOP, BRPOP, BLMOVE, BLMPOP, BZPOPMIN, BZPOPMAX or BZMPOP, each waiting for
 * an element to pop from one of its keys.
 *
 * <p><b>How a wait ends.</b> A waiter retries its pop (an ordinary LPOP, RPOP, LMOVE, LMPOP or ZMPOP through the
 * node's request path, so ownership, epochs and acknowledgement apply as to any write) when a local write, through
 * either port, inserts an element into one of its keys or scores a member of it ({@link #pushed}), and at least every {@link #RECHECK_MILLIS} whatever
 * happens: that bounds how late it learns that its slot's ownership moved away, which its pop then answers with
 * {@code -MOVED} (a cluster client follows it and blocks again on the new owner). A pop that finds an element, an
 * error, the deadline, or the client gone ends the wait; a deadline that passes while a pop runs waits for that pop,
 * so an element it took is answered, never dropped.
 *
 * <p><b>No lost wake-up.</b> A waiter is registered before its first retry: a push after the registration wakes it, a
 * push before it is found by that retry.
 *
 * <p><b>Bounded.</b> At most {@link #MAX_BLOCKED} clients wait at once; one more is answered with an error at once.
 *
 * <p>Threads: {@link #block} runs on connections' event loops and {@link #pushed} on writers' threads (under a
 * segment's write lock); both only touch the concurrent registry and hand work to the timer. Everything a waiter
 * holds is confined to the single {@code timer} thread, which runs its retries, deadline and rechecks, so no two
 * retries of one waiter overlap.
 */
final class BlockedClients implements AutoCloseable {

    /** Clients that may block on one node at once. */
    static final int MAX_BLOCKED = 10_000;
    /** The longest a blocked client goes without retrying its pop. */
    static final long RECHECK_MILLIS = 1_000;

    /** One retry of a pop: its reply, or {@code null} when there was nothing to pop and the wait goes on. */
    @FunctionalInterface
    interface Attempt {
        CompletableFuture<RespReply> run();
    }

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "zaris-resp-blocked");
        thread.setDaemon(true);
        return thread;
    });
    /** Key → its waiters; a waiter is in the set of each of its keys while it waits. */
    private final Map<ByteBuffer, Set<Waiter>> byKey = new ConcurrentHashMap<>();
    private final Set<Waiter> all = ConcurrentHashMap.newKeySet();
    /** Waiters admitted and not yet finished: the bound is checked and taken in one step. */
    private final AtomicInteger count = new AtomicInteger();

    BlockedClients() {
        timer.scheduleWithFixedDelay(() -> all.forEach(Waiter::retry), RECHECK_MILLIS, RECHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Blocks until {@code attempt} pops something, the timeout passes ({@code 0}: never), or {@code gone} says the
     * client left; the reply is the pop's, or {@code onTimeout}.
     */
    CompletableFuture<RespReply> block(List<byte[]> keys, long timeoutMillis, Attempt attempt, RespReply onTimeout,
                                       BooleanSupplier gone) {
        if (count.incrementAndGet() > MAX_BLOCKED) {
            count.decrementAndGet();
            return CompletableFuture.completedFuture(RespReply.error("ERR too many blocked clients on this node (at most "
                    + MAX_BLOCKED + "); retry later"));
        }
        Waiter waiter = new Waiter(keys, attempt, onTimeout, gone);
        all.add(waiter);
        for (byte[] key : keys) {
            byKey.compute(ByteBuffer.wrap(key), (k, waiters) -> { // atomic with the removal of an emptied set
                Set<Waiter> set = waiters == null ? ConcurrentHashMap.newKeySet() : waiters;
                set.add(waiter);
                return set;
            });
        }
        timer.execute(() -> {
            if (timeoutMillis > 0) {
                waiter.deadline = timer.schedule(waiter::expire, timeoutMillis, TimeUnit.MILLISECONDS);
            }
            waiter.retry();
        });
        return waiter.reply;
    }

    /**
     * A local write inserted an element into the list at {@code key}: its waiters retry. Called by writers under their
     * segment's lock: it only looks the key up and hands the retries to the timer thread.
     */
    void pushed(byte[] key) {
        if (byKey.isEmpty()) {
            return;
        }
        Set<Waiter> waiters = byKey.get(ByteBuffer.wrap(key));
        if (waiters != null) {
            for (Waiter waiter : waiters) {
                try {
                    timer.execute(waiter::retry);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    return; // stopping: every waiter has been answered
                }
            }
        }
    }

    /** Clients blocked now. */
    int blocked() {
        return count.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        for (Waiter waiter : all) {
            waiter.reply.complete(RespReply.error("ERR the node is stopping"));
        }
    }

    /** One blocked client; its mutable fields are confined to the timer thread. */
    private final class Waiter {
        private final List<byte[]> keys;
        private final Attempt attempt;
        private final RespReply onTimeout;
        private final BooleanSupplier gone;
        private final CompletableFuture<RespReply> reply = new CompletableFuture<>();
        private ScheduledFuture<?> deadline;
        private boolean running;
        private boolean again;
        /** The deadline passed while a pop was running: that pop's outcome decides the reply. */
        private boolean expired;

        Waiter(List<byte[]> keys, Attempt attempt, RespReply onTimeout, BooleanSupplier gone) {
            this.keys = keys;
            this.attempt = attempt;
            this.onTimeout = onTimeout;
            this.gone = gone;
        }

        /** Timer thread: retries the pop, or notes to retry once the running one ends. */
        void retry() {
            if (reply.isDone()) {
                return;
            }
            if (gone.getAsBoolean()) {
                finish(onTimeout); // nobody reads it; this drops the waiter
                return;
            }
            if (running) {
                again = true;
                return;
            }
            running = true;
            CompletableFuture<RespReply> outcome;
            try {
                outcome = attempt.run();
            } catch (RuntimeException e) {
                outcome = CompletableFuture.completedFuture(RespReply.error("ERR internal error: " + e));
            }
            outcome.whenComplete((popped, failure) -> timer.execute(() -> {
                running = false;
                if (failure != null) {
                    finish(RespReply.error("ERR internal error: " + failure));
                } else if (popped != null) {
                    finish(popped); // even past the deadline: the element has left the list, so the client gets it
                } else if (expired) {
                    finish(onTimeout);
                } else if (again) {
                    again = false;
                    retry();
                }
            }));
        }

        /** Timer thread: the deadline passed; a pop under way may still have taken an element, so it answers first. */
        void expire() {
            if (running) {
                expired = true;
            } else {
                finish(onTimeout);
            }
        }

        /** Timer thread: ends the wait with {@code answer} (once) and drops the waiter. */
        void finish(RespReply answer) {
            if (!reply.complete(answer)) {
                return;
            }
            if (deadline != null) {
                deadline.cancel(false);
            }
            all.remove(this);
            count.decrementAndGet();
            for (byte[] key : keys) {
                byKey.computeIfPresent(ByteBuffer.wrap(key), (k, waiters) -> {
                    waiters.remove(this);
                    return waiters.isEmpty() ? null : waiters;
                });
            }
        }
    }
}
