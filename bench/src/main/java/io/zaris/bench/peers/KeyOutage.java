package io.zaris.bench.peers;

/**
 * How long one key could not be written after the kill: the time from the kill until its first write that was
 * sent after the kill was acknowledged, less the time the key sat idle by the run's pacing while it was fine.
 *
 * <p>Along that stretch a key is always in one of three states; two count:
 * <ul>
 *   <li>a write in flight — counts (a write sent before the kill and still pending counts from the kill);
 *   <li>idle after a failed write (or after the kill, when its last write before the kill failed) — counts: the
 *       application has nothing written and waits to try again;
 *   <li>idle after an acknowledged write — does not count: that is the run's pacing, not the cluster.
 * </ul>
 * So a key the kill did not touch shows about one write's latency, or two when a write was in flight at the kill.
 *
 * <p>A key with no acknowledged write sent after the kill is <em>not recovered</em>; its figure then runs to the
 * moment the writes stopped (a lower bound).
 *
 * @param unavailableNanos the time that counted
 * @param recovered        whether a write sent after the kill was acknowledged
 * @param failures         writes that failed after the kill (completed after it, whenever sent)
 */
record KeyOutage(long unavailableNanos, boolean recovered, int failures) {

    /** Whether the kill touched the key: a write of it failed, it never recovered, or it was held up past the threshold. */
    boolean affected(long thresholdNanos) {
        return failures > 0 || !recovered || unavailableNanos > thresholdNanos;
    }

    static KeyOutage of(KeyHistory history, long killNanos, long stopNanos) {
        long unavailable = 0;
        long cursor = killNanos; // everything before the cursor has been accounted for
        boolean lastFailed = false;
        int failures = 0;
        for (WriteAttempt attempt : history.attempts()) {
            if (attempt.doneNanos() <= killNanos) {
                lastFailed = !attempt.isAcknowledged();
                continue;
            }
            if (attempt.sentNanos() > cursor) {
                if (lastFailed) {
                    unavailable += attempt.sentNanos() - cursor;
                }
                cursor = attempt.sentNanos();
            }
            unavailable += attempt.doneNanos() - cursor;
            cursor = attempt.doneNanos();
            if (!attempt.isAcknowledged()) {
                failures++;
            } else if (attempt.sentNanos() >= killNanos) {
                return new KeyOutage(unavailable, true, failures);
            }
            lastFailed = !attempt.isAcknowledged();
        }
        if (history.hasWriteInFlight()) {
            if (history.inFlightSince() > cursor) {
                if (lastFailed) {
                    unavailable += history.inFlightSince() - cursor;
                }
                cursor = history.inFlightSince();
            }
            unavailable += Math.max(0, stopNanos - cursor);
        } else if (lastFailed) {
            unavailable += Math.max(0, stopNanos - cursor);
        }
        return new KeyOutage(unavailable, false, failures);
    }
}
