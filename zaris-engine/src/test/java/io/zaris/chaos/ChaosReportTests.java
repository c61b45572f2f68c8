package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.AckMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ChaosReportTests {

    @Test
    void aRunWithAFindingFailsAndTheReportCountsItByKind() {
        ChaosReport report = report(List.of(new Finding(Finding.Kind.LOST_WRITE, "w0-1", "read 'w0:0' after healing")),
                List.of());

        assertThat(report.passed()).isFalse();
        assertThat(report.markdown())
                .contains("| lost acknowledged writes | 1 |")
                .contains("| stale reads | 0 |")
                .contains("### lost acknowledged writes (1; first 10)")
                .contains("Result: **FAIL**");
        assertThat(report.json()).contains("\"LOST_WRITE\": 1").contains("\"passed\": false");
    }

    @Test
    void anExcusedAsyncLossIsReportedAndDoesNotFailTheRun() {
        ChaosReport report = report(List.of(), List.of(new Finding(Finding.Kind.LOST_WRITE, "w0-1", "named")));

        assertThat(report.passed()).isTrue();
        assertThat(report.markdown())
                .contains("| anomalies excused by a loss named to the client (ASYNC) | 1 |")
                .contains("Result: **PASS**");
        assertThat(report.json()).contains("\"excusedAnomalies\": 1");
    }

    @Test
    void theReportStatesTheClientsOptionsAndCountsRepliesByKind() {
        ChaosReport report = report(List.of(), List.of());

        assertThat(report.markdown())
                .contains("Clients: 12 separate client instances, each with default client options")
                .contains("| replies to the application by kind | {OK=90, UNAVAILABLE=3, TIMEOUT=2} |")
                .contains("| failed attempts the client retried by kind | {MIGRATING=4} |");
        assertThat(report.json()).contains("\"replies\": {\"OK\": 90, \"UNAVAILABLE\": 3, \"TIMEOUT\": 2}");
    }

    @Test
    void theReportCountsTheFaultsDeferredAsBeyondThePromise() {
        ChaosReport report = report(List.of(), List.of());

        assertThat(report.markdown()).contains("| faults deferred: they could have taken down every live copy of a "
                + "partition (by kind) / longest wait / never injected | 3 {KILL=2, PAUSE=1} / 4.3 s / 1 |");
        assertThat(report.json()).contains("\"faultsDeferred\": {\"KILL\": 2, \"PAUSE\": 1}")
                .contains("\"longestDeferralSeconds\": 4.250").contains("\"deferredFaultsNeverInjected\": 1");
    }

    @Test
    void theReportCountsTheReplicaCopiesCompared() {
        ChaosReport report = report(List.of(), List.of());

        assertThat(report.markdown()).contains("| segment copies compared with their active's after healing | 64 |")
                .contains("| diverged replica copies | 0 |").contains("| replica copies not compared | 0 |");
        assertThat(report.json()).contains("\"segmentCopiesCompared\": 64").contains("\"DIVERGED_REPLICA\": 0");
    }

    @Test
    void theReportSaysWhereTheNodesRan() {
        ChaosReport report = report(List.of(), List.of());

        assertThat(report.markdown()).contains("Nodes: 3 processes on loopback");
        assertThat(report.json()).contains("\"network\": \"LOOPBACK\"");
    }

    @Test
    void theReportNamesTheLongestWriteStallOfEachKindOfFault() {
        ChaosReport report = report(List.of(), List.of());

        assertThat(report.markdown()).contains("| longest write stall by kind of fault | KILL 1.00 s |")
                .contains("| kind of fault | injected | longest write stall |\n|---|---|---|\n| KILL | 1 | 1.00 s |");
        assertThat(report.json()).contains("\"longestStallByFault\": {\"KILL\": 1.000}");
        assertThat(report.markdown()).contains("| where the longest write stall lay (seconds since the start) | w0-1 by "
                + "client 0, invoked at 10.0 s, OK at 11.0 s; KILL of n2 from 10.0 s to 12.0 s |");
    }

    @Test
    void theReportGivesTheNearCacheReadsStalenessAndWhatTheWatchesWereHanded() {
        ChaosReport report = report(List.of(), List.of());

        assertThat(report.markdown())
                .contains("| near-cache reads answered locally | 30 |")
                .contains("| local reads older than a write acknowledged before they began: within / beyond the bound "
                        + "of 20.0 s | 4 / 0 |")
                .contains("| staleness of those reads, from the acknowledgement they missed (max / p99) | 2.5 ms / 2.0 ms |")
                .contains("| key watches: changes handed on / gap notices by reason | 80 / {HISTORY_LOST=1} |")
                .contains("| acknowledged PUTs owed to the watches: handed on / covered by a gap notice / missing "
                        + "| 66 / 4 / 0 |")
                .contains("| near-cache reads staler than the bound | 0 |")
                .contains("| watched changes skipped without a gap notice | 0 |");
        assertThat(report.json()).contains("\"nearLocalReads\": 30").contains("\"nearMaxStalenessMillis\": 2.500")
                .contains("\"watchGaps\": {\"HISTORY_LOST\": 1}").contains("\"watchOwed\": 70");
    }

    @Test
    void theReportCountsTheCollectionOperationsAndTheirFindings() {
        ChaosReport plain = report(List.of(new Finding(Finding.Kind.DUPLICATE_POP, "queue-0", "'q20:0' popped again")),
                List.of());
        Verdict verdict = new Verdict(plain.verdict().findings(), List.of(), Map.of(), Map.of(), plain.verdict().tally(),
                64, Verdict.NearReads.NONE, Verdict.Watching.NONE,
                new Verdict.CollectionOps(300, 40, 120, 110, new QueueCheck.Counts(200, 150, 30, 2, 1)));
        ChaosReport report = new ChaosReport(plain.options(), 60, plain.nodes(), plain.faultsByKind(), plain.deferrals(),
                plain.clients(), verdict, plain.timeline());

        assertThat(report.markdown())
                .contains("| hash-field increments (HINCRBY) / sorted-set score increments (ZINCRBY) acknowledged | 120 / 110 |")
                .contains("| set adds (SADD) acknowledged / set reads (SMEMBERS) answered during the run | 300 / 40 |")
                .contains("| list pushes (RPUSH) acknowledged / pops (LPOP) that took an element / found the list empty / "
                        + "of unknown outcome | 200 / 150 / 30 / 2 |")
                .contains("| acknowledged pushes never seen, each covered by a pop of unknown outcome | 1 |")
                .contains("| lost set adds | 0 |").contains("| lost acknowledged list pushes | 0 |")
                .contains("| list elements popped twice | 1 |").contains("| list elements popped out of order | 0 |")
                .contains("Result: **FAIL**");
        assertThat(report.json()).contains("\"setAddsAcknowledged\": 300").contains("\"popsIndeterminate\": 2")
                .contains("\"DUPLICATE_POP\": 1");
    }

    private static ChaosReport report(List<Finding> findings, List<Finding> excused) {
        ChaosOptions options = new ChaosOptions(Duration.ofMinutes(1), 3, 2, AckMode.ASYNC, 1, Duration.ofSeconds(6),
                Path.of("target"));
        Verdict verdict = new Verdict(findings, excused, Map.of(Reply.OK, 90L, Reply.UNAVAILABLE, 3L, Reply.TIMEOUT, 2L),
                Map.of(Reply.MIGRATING, 4L), new Verdict.Tally(50, 2, 1, 10, 10, 40, 20, 20, 1), 64,
                new Verdict.NearReads(30, 4, 0, 2_500_000, 2_000_000, 20_000_000_000L),
                new Verdict.Watching(2, 80, Map.of("HISTORY_LOST", 1L), 70, 66, 4));
        Timeline timeline = new Timeline(new long[] {100}, new long[] {0}, List.of(10.0), Map.of("KILL", 1.0), 1.0, 1.0,
                "w0-1 by client 0, invoked at 10.0 s, OK at 11.0 s; KILL of n2 from 10.0 s to 12.0 s");
        return new ChaosReport(options, 60, "3 processes on loopback", Map.of("KILL", 1L),
                new Deferrals.Summary(Map.of("KILL", 2L, "PAUSE", 1L), 4.25, 1),
                "12 separate client instances, each with default client options", verdict, timeline);
    }
}
