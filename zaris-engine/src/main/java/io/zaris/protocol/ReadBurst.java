package io.zaris.protocol;

import java.util.ArrayList;

/**
 * What one socket read brought, handled on one thread: flushes asked for while it is handled run once, when it ends.
 *
 * <p>A SYNC write asks for its replication link's open batch to leave at once ({@code Replicator.flushShipped}). Asked
 * per write, the link's event loop — another thread when the node has more than one — may take the batch away after
 * the first write of a pipelined read, so the read's writes leave in several frames, each a syscall and a wake-up on
 * both nodes (a pipelined SYNC ZADD of 16 on a growing sorted set: 0.1–0.44 frames to the replica per write instead of
 * 1/16). A handler that handles a whole read opens a burst ({@link #open}) and closes it when the read is handled
 * ({@link #close}, in a {@code finally}); flushes asked for in between ({@link #flushAtEnd}) run once each at the
 * close, after every write of the read joined the batch. Outside a burst a flush runs at once, as before. No write
 * is answered before its replica applied it either way: the flush only decides how many writes share a frame.
 *
 * <p>Concurrency: one instance per thread ({@link ThreadLocal}), touched only by that thread. Bursts nest (a depth
 * count); the outermost close runs the flushes. The list holds each distinct flush once (compared by identity),
 * so it is bounded by the replication links of the nodes this thread serves.
 */
public final class ReadBurst {

    private static final ThreadLocal<ReadBurst> CURRENT = ThreadLocal.withInitial(ReadBurst::new);

    private int depth;
    private final ArrayList<Runnable> deferred = new ArrayList<>(4);

    private ReadBurst() {
    }

    /** Opens a burst on this thread (or nests in the open one); the caller closes it in a {@code finally}. */
    public static ReadBurst open() {
        ReadBurst burst = CURRENT.get();
        burst.depth++;
        return burst;
    }

    /**
     * Runs {@code flush} at the end of this thread's open burst, once however often it is asked for (the same
     * instance), or now when no burst is open.
     */
    public static void flushAtEnd(Runnable flush) {
        ReadBurst burst = CURRENT.get();
        if (burst.depth == 0) {
            flush.run();
            return;
        }
        for (int i = 0; i < burst.deferred.size(); i++) { // indexed: no iterator per write
            if (burst.deferred.get(i) == flush) {
                return;
            }
        }
        burst.deferred.add(flush);
    }

    /**
     * Closes the burst {@link #open} returned; the outermost close runs every deferred flush, each even when an
     * earlier one threw (the first failure is rethrown after all ran).
     *
     * @throws IllegalStateException when no burst is open
     */
    public void close() {
        if (depth == 0) {
            throw new IllegalStateException("no read burst is open on this thread");
        }
        if (--depth > 0 || deferred.isEmpty()) {
            return;
        }
        RuntimeException failure = null;
        // The burst is closed while these run: a flush one of them asked for would run at once, not join the list.
        for (int i = 0; i < deferred.size(); i++) {
            try {
                deferred.get(i).run();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        deferred.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** Flushes waiting for this thread's burst to close; for tests. */
    static int deferredCount() {
        return CURRENT.get().deferred.size();
    }
}
