package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.replication.AckMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChaosReportTests {

    @Test
    void anAsyncRunPassesWithAnomaliesOnlyWhenEachAnomalousKeyHadALossNamed() {
        ChaosReport explained = report(AckMode.ASYNC, List.of("cas-1: two acknowledged CAS updates from version 9"), List.of());
        ChaosReport unexplained = report(AckMode.ASYNC, List.of("cas-1: two acknowledged CAS updates from version 9"),
                List.of("cas-1"));

        assertThat(explained.passed()).isTrue();
        assertThat(unexplained.passed()).isFalse();
        assertThat(unexplained.markdown())
                .contains("| keys with a CAS, counter or read anomaly and no loss named to the client | 1 |")
                .contains("Result: **FAIL**");
        assertThat(unexplained.json()).contains("\"anomaliesOnUnnamedKeys\": 1");
    }

    @Test
    void aSyncRunFailsOnAnyAnomalyNamedOrNot() {
        assertThat(report(AckMode.SYNC, List.of("cas-1: two acknowledged CAS updates from version 9"), List.of()).passed())
                .isFalse();
        assertThat(report(AckMode.SYNC, List.of(), List.of()).passed()).isTrue();
    }

    @Test
    void theReportNamesTheLongestWriteStallOfEachKindOfFault() {
        ChaosReport report = report(AckMode.SYNC, List.of(), List.of());

        assertThat(report.markdown()).contains("| longest write stall by kind of fault | KILL 1.00 s |");
        assertThat(report.json()).contains("\"longestStallByFault\": {\"KILL\": 1.000}");
    }

    private static ChaosReport report(AckMode ack, List<String> casAnomalies, List<String> anomaliesOnUnnamedKeys) {
        ChaosOptions options = new ChaosOptions(Duration.ofMinutes(1), 3, 2, ack, 1, Duration.ofSeconds(6), Path.of("target"));
        return new ChaosReport(options, 60, Map.of("KILL", 1L), Map.of("OK", 100L), 50, List.of(), List.of(), 1,
                casAnomalies, List.of(), List.of(), anomaliesOnUnnamedKeys, List.of(), 1.0, 1.0, Map.of("KILL", 1.0), new long[] {100},
                new long[] {0}, List.of(10.0));
    }
}
