package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTimelineTests {

    @Test
    void writesAreNumberedFromOneAndRecordedInOrder() {
        KeyTimeline timeline = new KeyTimeline();
        long first = timeline.send(10);
        timeline.complete(first, 12, null);
        long second = timeline.send(20);
        assertThat(timeline.snapshot()).isEqualTo(new KeyHistory(List.of(WriteAttempt.acknowledged(1, 10, 12)), 20));
        timeline.complete(second, 25, "Timeout");
        assertThat(timeline.snapshot().attempts()).containsExactly(WriteAttempt.acknowledged(1, 10, 12),
                WriteAttempt.failed(2, 20, 25, "Timeout"));
        assertThat(timeline.snapshot().hasWriteInFlight()).isFalse();
        assertThat(timeline.snapshot().lastAcknowledged()).isEqualTo(1);
    }

    @Test
    void aSecondWriteWhileOneIsInFlightIsRefused() {
        KeyTimeline timeline = new KeyTimeline();
        timeline.send(10);
        assertThatIllegalStateException().isThrownBy(() -> timeline.send(11));
    }

    @Test
    void onlyTheWriteInFlightCanComplete() {
        KeyTimeline timeline = new KeyTimeline();
        assertThatIllegalStateException().isThrownBy(() -> timeline.complete(1, 5, null));
        long sequence = timeline.send(10);
        assertThatIllegalStateException().isThrownBy(() -> timeline.complete(sequence + 1, 12, null));
    }
}
