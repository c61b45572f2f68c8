package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnavailabilityTests {

    /** Steady from 0, kill at 1000, stop at 5000. */
    private static final FailoverTimes TIMES = new FailoverTimes(0, 1000, 5000);

    /** A key written every 100 with a latency of {@code latency} until the kill, then once more at 1050. */
    private static KeyHistory untouched(long latency, long afterKillLatency) {
        List<WriteAttempt> attempts = new ArrayList<>();
        long sequence = 1;
        for (long sent = 0; sent < 1000; sent += 100) {
            attempts.add(WriteAttempt.acknowledged(sequence++, sent, sent + latency));
        }
        attempts.add(WriteAttempt.acknowledged(sequence, 1050, 1050 + afterKillLatency));
        return new KeyHistory(attempts, KeyHistory.NONE_IN_FLIGHT);
    }

    @Test
    void untouchedKeysCountZeroAndOnlyAffectedKeysCountTheirOutage() {
        List<KeyHistory> keys = new ArrayList<>();
        for (int k = 0; k < 98; k++) {
            keys.add(untouched(2, 3)); // 3 is within twice the steady p99 of 2
        }
        keys.add(untouched(2, 700));
        keys.add(new KeyHistory(List.of(WriteAttempt.acknowledged(1, 900, 902), WriteAttempt.failed(2, 1100, 1200, "Timeout")),
                KeyHistory.NONE_IN_FLIGHT));

        Unavailability unavailability = Unavailability.of(keys, TIMES);

        assertThat(unavailability.steadyP99Nanos()).isEqualTo(2);
        assertThat(unavailability.thresholdNanos()).isEqualTo(4);
        assertThat(unavailability.keys()).isEqualTo(100);
        assertThat(unavailability.affected()).isEqualTo(2);
        assertThat(unavailability.notRecovered()).isEqualTo(1);
        assertThat(unavailability.p50()).isEqualTo(new Unavailability.Figure(0, false));
        assertThat(unavailability.p99()).isEqualTo(new Unavailability.Figure(700, false));
        assertThat(unavailability.max()).isEqualTo(new Unavailability.Figure(5000 - 1100, true));
    }

    @Test
    void writesCompletedAfterTheKillDoNotCountTowardsTheSteadyLatency() {
        KeyHistory slowAcrossTheKill = new KeyHistory(List.of(WriteAttempt.acknowledged(1, 900, 902),
                WriteAttempt.acknowledged(2, 990, 2000), WriteAttempt.acknowledged(3, 2000, 2002)), KeyHistory.NONE_IN_FLIGHT);
        Unavailability unavailability = Unavailability.of(List.of(slowAcrossTheKill), TIMES);
        assertThat(unavailability.steadyP99Nanos()).isEqualTo(2);
        assertThat(unavailability.max()).isEqualTo(new Unavailability.Figure(1000 + 2, false));
    }
}
