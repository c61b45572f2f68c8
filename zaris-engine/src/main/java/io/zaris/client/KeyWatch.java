package io.zaris.client;

import java.util.Arrays;

/**
 * One watch of a key or of a key prefix. Its changes are handed to its listener on the client's delivery thread, at
 * most {@link KeyWatches#MAX_PENDING} of them waiting at a time; past that the watch drops changes until a
 * {@link WatchGap.Reason#LISTENER_TOO_SLOW} notice, queued behind the changes already waiting, told the listener how
 * many.
 *
 * <p>Concurrency: the queueing state ({@code pending}, {@code dropped}, {@code noticeQueued}) is guarded by
 * {@code this}; it is touched by connections' event loops (queueing) and the delivery thread (delivering).
 */
public final class KeyWatch implements AutoCloseable {

    private final byte[] bytes;
    private final boolean prefix;
    private final KeyWatchListener listener;
    private final KeyWatches owner;
    private final int[] segments;
    private int pending;
    private long dropped;
    private boolean noticeQueued;
    private volatile boolean closed;

    KeyWatch(byte[] bytes, boolean prefix, KeyWatchListener listener, KeyWatches owner, int[] segments) {
        this.bytes = bytes;
        this.prefix = prefix;
        this.listener = listener;
        this.owner = owner;
        this.segments = segments;
    }

    /** Whether every segment this watch covers has its stream live, so every change from now on is delivered. */
    public boolean isLive() {
        return owner.live(segments);
    }

    /** Stops the watch; changes already queued may still be delivered. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            owner.remove(this);
        }
    }

    boolean isClosed() {
        return closed;
    }

    int[] segments() {
        return segments;
    }

    boolean covers(int segment) {
        return prefix || segments[0] == segment;
    }

    boolean matches(byte[] key) {
        if (!prefix) {
            return Arrays.equals(bytes, key);
        }
        return key.length >= bytes.length && Arrays.equals(key, 0, bytes.length, bytes, 0, bytes.length);
    }

    KeyWatchListener listener() {
        return listener;
    }

    /**
     * Whether one more change may be queued; when not, counts it dropped and says whether the caller must queue the
     * notice (once per overflow, behind what is queued).
     */
    synchronized Admission admit() {
        if (noticeQueued) {
            dropped++;
            return Admission.DROP;
        }
        if (pending >= KeyWatches.MAX_PENDING) {
            dropped++;
            noticeQueued = true;
            return Admission.DROP_AND_NOTIFY;
        }
        pending++;
        return Admission.QUEUE;
    }

    /** Delivery thread: one queued change was delivered. */
    synchronized void delivered() {
        pending--;
    }

    /** Delivery thread: the overflow notice runs now; returns how many changes were dropped, and admits again. */
    synchronized long takeDropped() {
        long count = dropped;
        dropped = 0;
        noticeQueued = false;
        return count;
    }

    enum Admission { QUEUE, DROP, DROP_AND_NOTIFY }
}
