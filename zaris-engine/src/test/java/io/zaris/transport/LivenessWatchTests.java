package io.zaris.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class LivenessWatchTests {

    private static final long MS = 1_000_000;

    private final LivenessWatch watch = new LivenessWatch(Duration.ofSeconds(1), 0);

    @Test
    void aConnectionAwaitingAnswersThatHearsNothingForTheProbeDelayProbesOnce() {
        assertThat(watch.sweep(50 * MS, 0, true)).isFalse();
        assertThat(watch.sweep(999 * MS, 0, true)).isFalse();
        assertThat(watch.sweep(1000 * MS, 0, true)).isTrue();
        assertThat(watch.sweep(1050 * MS, 0, true)).as("one probe in flight at a time").isFalse();
        assertThat(watch.silentFor(4000 * MS)).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void aResponseBetweenSweepsIsProgress() {
        watch.sweep(900 * MS, 1, true);
        assertThat(watch.sweep(1800 * MS, 1, true)).as("0.9 s since the response was seen").isFalse();
        assertThat(watch.sweep(1900 * MS, 1, true)).isTrue();
    }

    @Test
    void aConnectionAwaitingNothingIsNeverSilent() {
        assertThat(watch.sweep(5000 * MS, 0, false)).isFalse();
        assertThat(watch.sweep(5050 * MS, 0, true)).as("the wait starts at the last idle sweep").isFalse();
        assertThat(watch.sweep(6050 * MS, 0, true)).isTrue();
    }

    @Test
    void anAnsweredProbeAllowsTheNextOne() {
        assertThat(watch.sweep(1000 * MS, 0, true)).isTrue();
        watch.probeAnswered(); // answered, but no request response arrived (the node answers probes only)
        assertThat(watch.sweep(1050 * MS, 1, true)).as("the probe's answer is a response read").isFalse();
        assertThat(watch.sweep(2050 * MS, 1, true)).isTrue();
    }
}
