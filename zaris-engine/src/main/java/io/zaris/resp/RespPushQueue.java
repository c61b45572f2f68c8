package io.zaris.resp;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection's pushes on their way to its event loop: many producers (writers' threads, the membership events
 * thread, later pub/sub publishers), one consumer (the event loop). Bounded: {@link #offer} refuses past
 * {@code capacity}, and the connection decides what a refusal means ({@link RespConnectionHandler} closes it).
 */
final class RespPushQueue {

    /** Pushes that may wait for a connection's event loop before the connection is closed. */
    static final int MAX_QUEUED = 10_000;

    private final int capacity;
    private final ConcurrentLinkedQueue<RespReply.Push> queue = new ConcurrentLinkedQueue<>();
    /** Pushes offered and not yet polled; counted before the queue changes, so it never undercounts. */
    private final AtomicInteger queued = new AtomicInteger();

    RespPushQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a push queue must hold at least one push, not " + capacity);
        }
        this.capacity = capacity;
    }

    /** Any thread. @return false (nothing queued) when {@code capacity} pushes wait already */
    boolean offer(RespReply.Push push) {
        if (queued.incrementAndGet() > capacity) {
            queued.decrementAndGet();
            return false;
        }
        queue.add(push);
        return true;
    }

    /** The consumer's thread only: the oldest push, or {@code null}. */
    RespReply.Push poll() {
        RespReply.Push push = queue.poll();
        if (push != null) {
            queued.decrementAndGet();
        }
        return push;
    }

    int size() {
        return queued.get();
    }
}
