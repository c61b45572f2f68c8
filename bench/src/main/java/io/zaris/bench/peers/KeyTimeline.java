package io.zaris.bench.peers;

import java.util.ArrayList;
import java.util.List;

/**
 * Records the writes of one key of a failover run as they happen; {@link #snapshot()} hands out what was
 * recorded as an immutable {@link KeyHistory}.
 *
 * <p>Invariant: at most one write of the key is in flight; {@link #send} refuses a second one, and
 * {@link #complete} only accepts the write in flight. Sequence numbers start at 1 and grow by one per send.
 *
 * <p>Concurrency: the writer thread that sends a write and the client's thread that completes it take turns, and
 * the run snapshots the timeline from its own thread, possibly while a write that outlived the drain completes.
 * Every method is synchronized on the timeline (never contended in practice: the turns are sequential).
 */
final class KeyTimeline {

    private final List<WriteAttempt> completed = new ArrayList<>();
    private long lastSequence;
    private long inFlightSince = KeyHistory.NONE_IN_FLIGHT;

    /** Starts the next write at {@code nowNanos} and returns its sequence number. */
    synchronized long send(long nowNanos) {
        if (inFlightSince != KeyHistory.NONE_IN_FLIGHT) {
            throw new IllegalStateException("write " + lastSequence + " is still in flight; a key's writes are sequential");
        }
        inFlightSince = nowNanos;
        return ++lastSequence;
    }

    /** Records the outcome of the write in flight: {@code failure} is {@code null} when it was acknowledged. */
    synchronized void complete(long sequence, long nowNanos, String failure) {
        if (inFlightSince == KeyHistory.NONE_IN_FLIGHT || sequence != lastSequence) {
            throw new IllegalStateException("write " + sequence + " completed, but the write in flight is "
                    + (inFlightSince == KeyHistory.NONE_IN_FLIGHT ? "none" : lastSequence));
        }
        completed.add(new WriteAttempt(sequence, inFlightSince, Math.max(nowNanos, inFlightSince), failure));
        inFlightSince = KeyHistory.NONE_IN_FLIGHT;
    }

    synchronized KeyHistory snapshot() {
        return new KeyHistory(completed, inFlightSince);
    }
}
