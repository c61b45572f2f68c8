package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.AckMode;
import io.zaris.time.FakeTime;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class AttemptLogTests {

    private final HistoryRecorder recorder = new HistoryRecorder(FakeTime.followingNanos(() -> 0L));
    private final AttemptLog attempts = new AttemptLog(recorder);

    @Test
    void aCallWithARetriedTimeoutHadAnAmbiguousAttempt() {
        attempts.begin();
        attempts.retry("timeout");
        attempts.retry("unavailable");

        assertThat(attempts.ambiguousAttemptSinceBegin()).isTrue();
    }

    @Test
    void aCallWhoseRetriedAttemptsWereRefusalsHadNone() {
        attempts.begin();
        attempts.retry("moved");
        attempts.retry("migrating");

        assertThat(attempts.ambiguousAttemptSinceBegin()).isFalse();
    }

    @Test
    void eachCallStartsAfresh() {
        attempts.begin();
        attempts.retry("transport");
        attempts.begin();

        assertThat(attempts.ambiguousAttemptSinceBegin()).isFalse();
    }

    @Test
    void everyRetriedAttemptIsCountedByKindInTheHistory() {
        attempts.retry("unavailable");
        attempts.retry("unavailable");
        attempts.retry("timeout");

        assertThat(recorder.history(AckMode.SYNC, 0).retriedAttempts())
                .containsEntry(Reply.UNAVAILABLE, 2L).containsEntry(Reply.TIMEOUT, 1L).hasSize(2);
    }
}
