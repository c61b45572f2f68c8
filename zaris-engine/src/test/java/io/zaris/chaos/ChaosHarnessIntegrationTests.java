package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.replication.AckMode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The short chaos run: 3 server processes, RF 2, SYNC, about 2 minutes of faults under a live workload,
 * then the ledger check. The long runs are {@code chaos/run}.
 *
 * <p>Part of the default suite; {@code -Dzaris.chaos=false} skips it (e.g. for a quick local build), and
 * {@code -Dzaris.chaos.seed} / {@code -Dzaris.chaos.seconds} vary it.
 */
class ChaosHarnessIntegrationTests {

    @Test
    void aShortChaosRunLosesNoAcknowledgedWriteAndSurfacesNoRoutingStatus() throws Exception {
        Assumptions.assumeTrue(!"false".equals(System.getProperty("zaris.chaos")),
                "the short chaos run was switched off with -Dzaris.chaos=false");
        long seed = Long.getLong("zaris.chaos.seed", 20261130L);
        ChaosOptions options = new ChaosOptions(Duration.ofSeconds(Long.getLong("zaris.chaos.seconds", 100)), 3, 2,
                AckMode.SYNC, seed, Duration.ofSeconds(6), Path.of("target", "chaos-short"));
        ChaosReport report = ChaosRun.run(options);
        System.out.println(report.markdown());
        assertThat(report.faultsByKind()).isNotEmpty();
        assertThat(report.acknowledgedWrites()).isPositive();
        assertThat(report.lostWrites()).as("lost acknowledged writes").isEmpty();
        assertThat(report.casAnomalies()).as("CAS anomalies").isEmpty();
        assertThat(report.counterAnomalies()).as("counter anomalies").isEmpty();
        assertThat(report.readAnomalies()).as("read anomalies").isEmpty();
        assertThat(report.routingStatusesSurfaced()).as("routing statuses surfaced").isEmpty();
    }
}
