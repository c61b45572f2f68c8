package io.zaris.chaos;

import io.zaris.client.ClientMetrics;

/**
 * Watches one client's retries so a call's outcome is judged on all its attempts, not only the last: the
 * client retries a PUT after a timeout and then throws, say, {@code UNAVAILABLE}, although the first attempt
 * may have been applied. Installed as the client's {@link ClientMetrics}, whose {@code retry} callback names
 * the failure of every attempt the client retries.
 *
 * <p>Thread ownership: the client is used by one workload thread, one call at a time, which calls
 * {@link #begin} before each call and {@link #ambiguousAttemptSinceBegin} after it returns. The client calls
 * {@link #retry} on its own threads while the call runs, before the next attempt is scheduled, so before the
 * call completes; {@code volatile} publishes the flag to the workload thread.
 */
final class AttemptLog implements ClientMetrics {

    private final HistoryRecorder recorder;
    private volatile boolean ambiguous;

    AttemptLog(HistoryRecorder recorder) {
        this.recorder = recorder;
    }

    /** A call starts: forget the previous one's attempts. */
    void begin() {
        ambiguous = false;
    }

    /** Whether an attempt retried since {@link #begin} was sent and got no answer or an ambiguous one. */
    boolean ambiguousAttemptSinceBegin() {
        return ambiguous;
    }

    @Override
    public void retry(String status) {
        Reply kind = Reply.ofRetryReason(status);
        recorder.retried(kind);
        if (kind.isAmbiguous()) {
            ambiguous = true;
        }
    }
}
