package io.zaris.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The outcome of a chaos run: what was injected, how the clients were set up, what the workload did, and the
 * checker's verdict. Rendered as Markdown, JSON and an SVG timeline (answered and failed operations per
 * second, faults marked).
 *
 * @param nodes         where the nodes ran and which network faults were available
 * @param deferrals     the faults the nemesis deferred as beyond the promise (they could have taken every live copy
 *                      of a partition)
 * @param clients       how the workload's clients ran and with which options
 */
record ChaosReport(ChaosOptions options, long durationSeconds, String nodes, Map<String, Long> faultsByKind,
                   Deferrals.Summary deferrals, String clients, Verdict verdict, Timeline timeline) {

    /** Examples of each kind of finding the Markdown report lists. */
    static final int EXAMPLES = 10;

    /** The run passes when the checker found nothing (excused ASYNC losses are allowed). */
    boolean passed() {
        return verdict.passed();
    }

    String markdown() {
        Verdict.Tally tally = verdict.tally();
        StringBuilder md = new StringBuilder();
        md.append("# Zaris chaos run\n\n");
        md.append(String.format(Locale.ROOT, "%d nodes, RF %d, %s acknowledgements, seed %d, %d s under faults%n%n",
                options.nodes(), options.replicationFactor(), options.ackMode(), options.seed(), durationSeconds));
        md.append("Nodes: ").append(nodes).append("\n\n");
        md.append("Clients: ").append(clients).append("\n\n");
        md.append("| figure | value |\n|---|---|\n");
        row(md, "faults injected", faultsByKind);
        row(md, "faults deferred: they could have taken down every live copy of a partition (by kind) / longest wait / "
                + "never injected", deferrals.total() + " " + deferrals.byKind() + " / "
                + String.format(Locale.ROOT, "%.1f s", deferrals.longestSeconds()) + " / " + deferrals.neverInjected());
        row(md, "writes acknowledged / indeterminate / refused", tally.writesAcknowledged() + " / "
                + tally.writesIndeterminate() + " / " + tally.writesRefused());
        row(md, "CAS updates acknowledged", tally.casUpdatesAcknowledged());
        row(md, "increments acknowledged", tally.incrementsAcknowledged());
        Verdict.CollectionOps collections = verdict.collections();
        QueueCheck.Counts queues = collections.queues();
        row(md, "hash-field increments (HINCRBY) / sorted-set score increments (ZINCRBY) acknowledged",
                collections.hashIncrementsAcknowledged() + " / " + collections.scoreIncrementsAcknowledged());
        row(md, "set adds (SADD) acknowledged / set reads (SMEMBERS) answered during the run",
                collections.setAddsAcknowledged() + " / " + collections.setReadsAnswered());
        row(md, "list pushes (RPUSH) acknowledged / pops (LPOP) that took an element / found the list empty / of "
                + "unknown outcome", queues.pushesAcknowledged() + " / " + queues.popsTookElement() + " / "
                + queues.popsFoundEmpty() + " / " + queues.popsIndeterminate());
        row(md, "acknowledged pushes never seen, each covered by a pop of unknown outcome",
                queues.unseenCoveredByIndeterminatePops());
        row(md, "reads answered during the run", tally.readsAnswered());
        Verdict.NearReads near = verdict.nearReads();
        row(md, "near-cache reads answered locally", near.localReads());
        row(md, "local reads older than a write acknowledged before they began: within / beyond the bound of "
                + seconds(near.boundNanos()), near.staleWithinBound() + " / " + near.staleBeyondBound());
        row(md, "staleness of those reads, from the acknowledgement they missed (max / p99)",
                millis(near.maxStalenessNanos()) + " / " + millis(near.p99StalenessNanos()));
        Verdict.Watching watching = verdict.watching();
        row(md, "key watches: changes handed on / gap notices by reason", watching.changes() + " / " + watching.gaps());
        row(md, "acknowledged PUTs owed to the watches: handed on / covered by a gap notice / missing", watching.delivered()
                + " / " + watching.coveredByGap() + " / " + watching.missing());
        row(md, "keys written / read back after healing", tally.keysWritten() + " / " + tally.keysReadAfterHealing());
        row(md, "segment copies compared with their active's after healing", verdict.segmentCopiesCompared());
        row(md, "acknowledged ASYNC writes named lost to the client", tally.namedLosses());
        row(md, "anomalies excused by a loss named to the client (ASYNC)", verdict.excused().size());
        verdict.countsByKind().forEach((kind, count) -> row(md, kind.title(), count));
        row(md, "replies to the application by kind", verdict.replies());
        row(md, "failed attempts the client retried by kind", verdict.retriedAttempts());
        row(md, "longest write stall after a fault (max / p99)", String.format(Locale.ROOT, "%.2f s / %.2f s",
                timeline.maxStallSeconds(), timeline.p99StallSeconds()));
        row(md, "longest write stall by kind of fault", timeline.longestStallByFault().entrySet().stream()
                .map(entry -> String.format(Locale.ROOT, "%s %.2f s", entry.getKey(), entry.getValue()))
                .collect(Collectors.joining(", ")));
        row(md, "where the longest write stall lay (seconds since the start)", timeline.longestStall());
        appendStallsByKind(md);
        md.append("\nResult: ").append(passed() ? "**PASS**" : "**FAIL**").append("\n");
        for (Finding.Kind kind : Finding.Kind.values()) {
            appendExamples(md, kind.title(), verdict.of(kind));
        }
        appendExamples(md, "anomalies excused by a named loss", verdict.excused());
        md.append("\n![timeline](timeline.svg)\n");
        return md.toString();
    }

    String json() {
        Verdict.Tally tally = verdict.tally();
        StringBuilder json = new StringBuilder("{\n");
        field(json, "nodes", options.nodes());
        field(json, "replicationFactor", options.replicationFactor());
        field(json, "ackMode", quote(options.ackMode().name()));
        field(json, "seed", options.seed());
        field(json, "durationSeconds", durationSeconds);
        field(json, "network", quote(options.network().name()));
        field(json, "nodesDescription", quote(nodes));
        field(json, "clients", quote(clients));
        field(json, "faults", jsonMap(faultsByKind));
        field(json, "faultsDeferred", jsonMap(deferrals.byKind()));
        field(json, "longestDeferralSeconds", String.format(Locale.ROOT, "%.3f", deferrals.longestSeconds()));
        field(json, "deferredFaultsNeverInjected", deferrals.neverInjected());
        field(json, "writesAcknowledged", tally.writesAcknowledged());
        field(json, "writesIndeterminate", tally.writesIndeterminate());
        field(json, "writesRefused", tally.writesRefused());
        field(json, "casUpdatesAcknowledged", tally.casUpdatesAcknowledged());
        field(json, "incrementsAcknowledged", tally.incrementsAcknowledged());
        Verdict.CollectionOps collections = verdict.collections();
        QueueCheck.Counts queues = collections.queues();
        field(json, "hashIncrementsAcknowledged", collections.hashIncrementsAcknowledged());
        field(json, "scoreIncrementsAcknowledged", collections.scoreIncrementsAcknowledged());
        field(json, "setAddsAcknowledged", collections.setAddsAcknowledged());
        field(json, "setReadsAnswered", collections.setReadsAnswered());
        field(json, "pushesAcknowledged", queues.pushesAcknowledged());
        field(json, "popsTookElement", queues.popsTookElement());
        field(json, "popsFoundEmpty", queues.popsFoundEmpty());
        field(json, "popsIndeterminate", queues.popsIndeterminate());
        field(json, "unseenPushesCoveredByIndeterminatePops", queues.unseenCoveredByIndeterminatePops());
        field(json, "readsAnswered", tally.readsAnswered());
        Verdict.NearReads near = verdict.nearReads();
        field(json, "nearLocalReads", near.localReads());
        field(json, "nearStaleWithinBound", near.staleWithinBound());
        field(json, "nearStaleBeyondBound", near.staleBeyondBound());
        field(json, "nearMaxStalenessMillis", String.format(Locale.ROOT, "%.3f", near.maxStalenessNanos() / 1e6));
        field(json, "nearP99StalenessMillis", String.format(Locale.ROOT, "%.3f", near.p99StalenessNanos() / 1e6));
        field(json, "nearStalenessBoundSeconds", String.format(Locale.ROOT, "%.3f", near.boundNanos() / 1e9));
        Verdict.Watching watching = verdict.watching();
        field(json, "watchChanges", watching.changes());
        field(json, "watchGaps", jsonMap(watching.gaps()));
        field(json, "watchOwed", watching.owed());
        field(json, "watchDelivered", watching.delivered());
        field(json, "watchCoveredByGap", watching.coveredByGap());
        field(json, "keysWritten", tally.keysWritten());
        field(json, "keysReadAfterHealing", tally.keysReadAfterHealing());
        field(json, "segmentCopiesCompared", verdict.segmentCopiesCompared());
        field(json, "namedLosses", tally.namedLosses());
        field(json, "excusedAnomalies", verdict.excused().size());
        field(json, "findings", jsonMap(verdict.countsByKind()));
        field(json, "replies", jsonMap(verdict.replies()));
        field(json, "retriedAttempts", jsonMap(verdict.retriedAttempts()));
        field(json, "maxStallSeconds", String.format(Locale.ROOT, "%.3f", timeline.maxStallSeconds()));
        field(json, "p99StallSeconds", String.format(Locale.ROOT, "%.3f", timeline.p99StallSeconds()));
        field(json, "longestStallByFault", timeline.longestStallByFault().entrySet().stream()
                .map(entry -> String.format(Locale.ROOT, "\"%s\": %.3f", entry.getKey(), entry.getValue()))
                .collect(Collectors.joining(", ", "{", "}")));
        json.append("  \"passed\": ").append(passed()).append("\n}\n");
        return json.toString();
    }

    /** Answered (green) and failed (red) operations per second; faults as vertical grey lines. */
    String svg() {
        long[] answered = timeline.answeredPerSecond();
        long[] failed = timeline.failedPerSecond();
        int seconds = answered.length;
        int width = 900;
        int height = 300;
        double xScale = (double) (width - 60) / Math.max(1, seconds);
        long max = 1;
        for (int i = 0; i < seconds; i++) {
            max = Math.max(max, Math.max(answered[i], failed[i]));
        }
        double yScale = (height - 60) / (double) max;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">%n",
                width, height));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        for (double fault : timeline.faultSeconds()) {
            double x = 40 + fault * xScale;
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"20\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\" stroke-dasharray=\"4\"/>%n",
                    x, x, height - 40));
        }
        svg.append(polyline(answered, xScale, yScale, height, "#2a2"));
        svg.append(polyline(failed, xScale, yScale, height, "#c22"));
        svg.append(String.format(Locale.ROOT, "<text x=\"40\" y=\"15\" font-size=\"12\">ops/s (green answered, red "
                + "failed), max %d; dashed lines: faults; %d s</text>%n", max, seconds));
        svg.append("</svg>\n");
        return svg.toString();
    }

    void writeTo(Path directory) throws IOException {
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("report.md"), markdown());
        Files.writeString(directory.resolve("report.json"), json());
        Files.writeString(directory.resolve("timeline.svg"), svg());
    }

    /** One row per kind of fault injected: how many, and the longest write stall one of them caused. */
    private void appendStallsByKind(StringBuilder md) {
        md.append("\n| kind of fault | injected | longest write stall |\n|---|---|---|\n");
        faultsByKind.forEach((kind, count) -> md.append(String.format(Locale.ROOT, "| %s | %d | %.2f s |%n", kind, count,
                timeline.longestStallByFault().getOrDefault(kind, 0.0))));
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    private static void row(StringBuilder md, String figure, Object value) {
        md.append("| ").append(figure).append(" | ").append(value).append(" |\n");
    }

    private static void field(StringBuilder json, String name, Object value) {
        json.append("  \"").append(name).append("\": ").append(value).append(",\n");
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String polyline(long[] values, double xScale, double yScale, int height, String colour) {
        String points = IntStream.range(0, values.length)
                .mapToObj(i -> String.format(Locale.ROOT, "%.1f,%.1f", 40 + i * xScale, height - 40 - values[i] * yScale))
                .collect(Collectors.joining(" "));
        return "<polyline fill=\"none\" stroke=\"" + colour + "\" points=\"" + points + "\"/>\n";
    }

    private static void appendExamples(StringBuilder md, String title, List<Finding> items) {
        if (!items.isEmpty()) {
            md.append("\n### ").append(title).append(" (").append(items.size()).append("; first ").append(EXAMPLES)
                    .append(")\n\n");
            items.stream().limit(EXAMPLES).forEach(item -> md.append("- ").append(item).append('\n'));
        }
    }

    private static String jsonMap(Map<?, Long> map) {
        return map.entrySet().stream().map(e -> "\"" + e.getKey() + "\": " + e.getValue())
                .collect(Collectors.joining(", ", "{", "}"));
    }
}
