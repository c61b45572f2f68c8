package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FailoverReportTests {

    private static FailoverResult result(Map<String, Long> exceptions, LostWrites lost, Optional<Duration> restoredAfter) {
        Unavailability unavailability = new Unavailability(512, 171, 2, new Unavailability.Figure(0, false),
                new Unavailability.Figure(5_100_000_000L, false), new Unavailability.Figure(30_200_000_000L, true), 1_500_000, 3_000_000);
        return new FailoverResult("Zaris SYNC", "three nodes", "n3, not the leader (n1 leads)", unavailability, 40_000, exceptions,
                5, lost, 0, new RedundancyWatch.Outcome(restoredAfter, restoredAfter.isEmpty() ? "86 of 128 partitions short" : ""),
                Duration.ofSeconds(30));
    }

    @Test
    void durationsReadAsZeroMillisecondsOrSeconds() {
        assertThat(FailoverReport.nanos(0)).isEqualTo("0");
        assertThat(FailoverReport.nanos(1_540_000)).isEqualTo("1.5 ms");
        assertThat(FailoverReport.nanos(250_400_000)).isEqualTo("250 ms");
        assertThat(FailoverReport.nanos(5_120_000_000L)).isEqualTo("5.1 s");
    }

    @Test
    void cellsNameTheTopExceptionKindsTheLossesAndALowerBound() {
        Map<String, Long> exceptions = new LinkedHashMap<>();
        exceptions.put("ZarisStatusException UNAVAILABLE", 1200L);
        exceptions.put("ZarisTransportException", 30L);
        exceptions.put("ZarisTimeoutException", 2L);
        exceptions.put("IllegalStateException", 1L);
        FailoverResult result = result(exceptions, new LostWrites(3, 7, 0), Optional.empty());

        assertThat(FailoverReport.exceptions(result)).isEqualTo(
                "1,233: ZarisStatusException UNAVAILABLE ×1,200, ZarisTransportException ×30, ZarisTimeoutException ×2, 1 other kinds");
        assertThat(FailoverReport.lost(result.lost())).isEqualTo("7 (on 3 keys)");
        assertThat(FailoverReport.lost(new LostWrites(0, 0, 4))).isEqualTo("0");
        assertThat(FailoverReport.affected(result.unavailability())).isEqualTo("171 of 512 (2 never recovered)");
        assertThat(FailoverReport.figure(result.unavailability().max())).isEqualTo("≥ 30.2 s");
        assertThat(FailoverReport.redundancy(result)).isEqualTo("never (at 30 s: 86 of 128 partitions short)");
        assertThat(FailoverReport.exceptions(result(Map.of(), new LostWrites(0, 0, 0), Optional.empty()))).isEqualTo("0");
    }

    @Test
    void theReportHasOneRowPerSystemAndNamesTheSystemsThatFailed() {
        FailoverSettings settings = FailoverSettings.parse(new String[] {"--systems", "zaris-sync"}, Path.of("/repo"));
        String report = FailoverReport.render(List.of(result(Map.of(), new LostWrites(0, 0, 0), Optional.of(Duration.ofMillis(4200)))),
                Map.of("hazelcast", "java.io.IOException: no members"), settings, Duration.ofSeconds(75), LocalDate.of(2026, 12, 3));

        assertThat(report).startsWith("# Failover side by side: 2026-12-03\n")
                .contains("- Command: `bench/failover --systems zaris-sync`; the run took 1 min 15 s.")
                .contains("| Zaris SYNC | n3, not the leader (n1 leads) | 171 of 512 (2 never recovered) | 0 | 5.1 s | ≥ 30.2 s | 0 | 0 | 4.2 s |")
                .contains("| Zaris SYNC | 40,000 | 5 | 1.5 ms | 3.0 ms | 0 | 0 |")
                .contains("- **hazelcast** could not be measured: java.io.IOException: no members")
                .contains("- **Zaris SYNC**: three nodes.");
    }
}
