package io.zaris.transport;

import java.time.Duration;

/**
 * Decides when a connection that awaits answers but hears nothing should probe its node: after {@code probeAfter}
 * without progress, where progress is a response read since the previous sweep, or nothing awaited. Pure: the
 * connection's timeout sweep feeds it the time and its counters, so the rule is tested with plain numbers.
 *
 * <p>Thread ownership: the connection's event loop only (the sweep and the probe's answer run there), so no field
 * needs to be volatile.
 */
final class LivenessWatch {

    private final long probeAfterNanos;
    /** The responses-read count the previous sweep saw. */
    private long responsesAtSweep;
    /** When a sweep last saw progress. */
    private long progressNanos;
    private boolean probeInFlight;

    LivenessWatch(Duration probeAfter, long nowNanos) {
        this.probeAfterNanos = probeAfter.toNanos();
        this.progressNanos = nowNanos;
    }

    /**
     * One sweep: whether to send a probe now. Records progress when {@code responsesRead} moved or nothing is
     * awaited; asks for a probe when none is in flight and the connection has gone {@code probeAfter} without it.
     * A probe asked for counts as in flight until {@link #probeAnswered}.
     */
    boolean sweep(long nowNanos, long responsesRead, boolean awaiting) {
        if (responsesRead != responsesAtSweep || !awaiting) {
            responsesAtSweep = responsesRead;
            progressNanos = nowNanos;
            return false;
        }
        if (probeInFlight || nowNanos - progressNanos < probeAfterNanos) {
            return false;
        }
        probeInFlight = true;
        return true;
    }

    /** The probe completed, answered or not. */
    void probeAnswered() {
        probeInFlight = false;
    }

    /** How long the connection has gone without progress, as of {@code nowNanos}. */
    Duration silentFor(long nowNanos) {
        return Duration.ofNanos(nowNanos - progressNanos);
    }
}
