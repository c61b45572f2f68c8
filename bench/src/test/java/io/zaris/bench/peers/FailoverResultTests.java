package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FailoverResultTests {

    @Test
    void aRunSumsUpAcknowledgementsExceptionsLossesAndWritesStillInFlight() {
        KeyHistory lost = new KeyHistory(List.of(WriteAttempt.acknowledged(1, 0, 1), WriteAttempt.failed(2, 50, 60, "Settling"),
                WriteAttempt.acknowledged(3, 100, 101), WriteAttempt.acknowledged(4, 1050, 1051)), KeyHistory.NONE_IN_FLIGHT);
        KeyHistory failing = new KeyHistory(List.of(WriteAttempt.acknowledged(1, 0, 1),
                WriteAttempt.failed(2, 1010, 1500, "Timeout"), WriteAttempt.failed(3, 1600, 1700, "Refused"),
                WriteAttempt.failed(4, 1800, 1900, "Timeout")), 2000);

        FailoverResult result = FailoverResult.of("S", "config", "node 2", List.of(lost, failing), new long[] {2, 1},
                new FailoverTimes(0, 1000, 5000), new RedundancyWatch.Outcome(Optional.of(Duration.ofSeconds(3)), ""),
                Duration.ofSeconds(30));

        assertThat(result.writesAcknowledged()).isEqualTo(4);
        assertThat(result.exceptionCount()).as("after the kill").isEqualTo(3);
        assertThat(result.exceptions()).containsExactly(Map.entry("Timeout", 2L), Map.entry("Refused", 1L));
        assertThat(result.exceptionsBeforeKill()).isEqualTo(1);
        assertThat(result.lost()).isEqualTo(new LostWrites(1, 2, 0));
        assertThat(result.writesUnresolved()).isEqualTo(1);
        assertThat(result.unavailability().affected()).isEqualTo(1);
        assertThat(result.unavailability().notRecovered()).isEqualTo(1);
    }
}
