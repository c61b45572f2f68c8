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
 * <p>Not yet part of the default suite: it runs only with {@code -Dzaris.chaos=true} until it passes
 * reliably (a node restarted after {@code kill -9} can stay outside the membership view for 20 s or more
 * while JGroups retries its join, which the run does not tolerate yet).
 */
class ChaosHarnessIntegrationTests {

    @Test
    void aShortChaosRunLosesNoAcknowledgedWriteAndSurfacesNoRoutingStatus() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("zaris.chaos"),
                "the short chaos run is opt-in until it is reliable: mvn verify -Dzaris.chaos=true");
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
