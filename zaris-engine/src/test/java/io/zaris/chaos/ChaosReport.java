package io.zaris.chaos;

import io.zaris.replication.AckMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The outcome of a chaos run: what was injected, what the workload did, and what the checker found.
 * Rendered as Markdown, JSON and an SVG timeline (throughput and errors per second, faults marked).
 */
record ChaosReport(ChaosOptions options, long durationSeconds, Map<String, Long> faultsByKind,
                   Map<String, Long> outcomes, long acknowledgedWrites, List<String> lostWrites,
                   List<String> unexplainedLostWrites, long namedLostWrites, List<String> casAnomalies, List<String> counterAnomalies, List<String> readAnomalies,
                   List<String> anomaliesOnUnnamedKeys,
                   List<String> routingStatusesSurfaced, double maxUnavailableSeconds, double p99UnavailableSeconds,
                   Map<String, Double> longestStallByFault, long[] okPerSecond, long[] failedPerSecond, List<Double> faultSeconds) {

    /**
     * SYNC promises everything: no loss, no anomaly, no routing status. ASYNC promises that every lost
     * acknowledged write is named to the client and no routing status reaches the application: a CAS, counter
     * or read anomaly is the loss showing through, so it passes only on a key the client was told lost a write.
     */
    boolean passed() {
        if (options.ackMode() == AckMode.ASYNC) {
            return unexplainedLostWrites.isEmpty() && anomaliesOnUnnamedKeys.isEmpty() && routingStatusesSurfaced.isEmpty();
        }
        return lostWrites.isEmpty() && casAnomalies.isEmpty() && counterAnomalies.isEmpty() && readAnomalies.isEmpty()
                && routingStatusesSurfaced.isEmpty();
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Zaris chaos run\n\n");
        md.append(String.format(Locale.ROOT, "%d nodes, RF %d, %s acknowledgements, seed %d, %d s under faults%n%n",
                options.nodes(), options.replicationFactor(), options.ackMode(), options.seed(), durationSeconds));
        md.append("| figure | value |\n|---|---|\n");
        md.append("| faults injected | ").append(faultsByKind).append(" |\n");
        md.append("| operations by outcome | ").append(outcomes).append(" |\n");
        md.append("| acknowledged single-writer writes | ").append(acknowledgedWrites).append(" |\n");
        md.append("| keys that lost an acknowledged write | ").append(lostWrites.size()).append(" |\n");
        md.append("| acknowledged ASYNC writes the client was told were lost | ").append(namedLostWrites).append(" |\n");
        md.append("| lost keys with no loss named to the client | ").append(unexplainedLostWrites.size()).append(" |\n");
        md.append("| CAS anomalies | ").append(casAnomalies.size()).append(" |\n");
        md.append("| counter anomalies | ").append(counterAnomalies.size()).append(" |\n");
        md.append("| read anomalies | ").append(readAnomalies.size()).append(" |\n");
        md.append("| keys with a CAS, counter or read anomaly and no loss named to the client | ")
                .append(anomaliesOnUnnamedKeys.size()).append(" |\n");
        md.append("| routing statuses surfaced to the application | ").append(routingStatusesSurfaced.size()).append(" |\n");
        md.append(String.format(Locale.ROOT, "| longest write stall after a fault (max / p99) | %.2f s / %.2f s |%n",
                maxUnavailableSeconds, p99UnavailableSeconds));
        md.append("| longest write stall by kind of fault | ").append(longestStallByFault.entrySet().stream()
                .map(entry -> String.format(Locale.ROOT, "%s %.2f s", entry.getKey(), entry.getValue()))
                .collect(Collectors.joining(", "))).append(" |\n");
        md.append("\nResult: ").append(passed() ? "**PASS**" : "**FAIL**").append("\n");
        appendExamples(md, "Lost writes", lostWrites);
        appendExamples(md, "Lost writes nobody named", unexplainedLostWrites);
        appendExamples(md, "CAS anomalies", casAnomalies);
        appendExamples(md, "Counter anomalies", counterAnomalies);
        appendExamples(md, "Read anomalies", readAnomalies);
        appendExamples(md, "Anomalous keys with no loss named", anomaliesOnUnnamedKeys);
        appendExamples(md, "Routing statuses surfaced", routingStatusesSurfaced);
        md.append("\n![timeline](timeline.svg)\n");
        return md.toString();
    }

    String json() {
        return "{\n"
                + "  \"nodes\": " + options.nodes() + ",\n"
                + "  \"replicationFactor\": " + options.replicationFactor() + ",\n"
                + "  \"ackMode\": \"" + options.ackMode() + "\",\n"
                + "  \"seed\": " + options.seed() + ",\n"
                + "  \"durationSeconds\": " + durationSeconds + ",\n"
                + "  \"faults\": " + jsonMap(faultsByKind) + ",\n"
                + "  \"outcomes\": " + jsonMap(outcomes) + ",\n"
                + "  \"acknowledgedWrites\": " + acknowledgedWrites + ",\n"
                + "  \"lostWrites\": " + lostWrites.size() + ",\n"
                + "  \"namedLostWrites\": " + namedLostWrites + ",\n"
                + "  \"unexplainedLostWrites\": " + unexplainedLostWrites.size() + ",\n"
                + "  \"casAnomalies\": " + casAnomalies.size() + ",\n"
                + "  \"counterAnomalies\": " + counterAnomalies.size() + ",\n"
                + "  \"readAnomalies\": " + readAnomalies.size() + ",\n"
                + "  \"anomaliesOnUnnamedKeys\": " + anomaliesOnUnnamedKeys.size() + ",\n"
                + "  \"routingStatusesSurfaced\": " + routingStatusesSurfaced.size() + ",\n"
                + String.format(Locale.ROOT, "  \"maxUnavailableSeconds\": %.3f,%n", maxUnavailableSeconds)
                + String.format(Locale.ROOT, "  \"p99UnavailableSeconds\": %.3f,%n", p99UnavailableSeconds)
                + "  \"longestStallByFault\": {" + longestStallByFault.entrySet().stream()
                        .map(entry -> String.format(Locale.ROOT, "\"%s\": %.3f", entry.getKey(), entry.getValue()))
                        .collect(Collectors.joining(", ")) + "},\n"
                + "  \"passed\": " + passed() + "\n}\n";
    }

    /** Throughput (green) and failures (red) per second; faults as vertical grey lines. */
    String svg() {
        int seconds = okPerSecond.length;
        int width = 900;
        int height = 300;
        double xScale = (double) (width - 60) / Math.max(1, seconds);
        long max = 1;
        for (int i = 0; i < seconds; i++) {
            max = Math.max(max, Math.max(okPerSecond[i], failedPerSecond[i]));
        }
        double yScale = (height - 60) / (double) max;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">%n", width, height));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        for (double fault : faultSeconds) {
            double x = 40 + fault * xScale;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"20\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\" stroke-dasharray=\"4\"/>%n",
                    x, x, height - 40));
        }
        svg.append(polyline(okPerSecond, xScale, yScale, height, "#2a2"));
        svg.append(polyline(failedPerSecond, xScale, yScale, height, "#c22"));
        svg.append(String.format(Locale.ROOT, "<text x=\"40\" y=\"15\" font-size=\"12\">ops/s (green ok, red failed), "
                + "max %d; dashed lines: faults; %d s</text>%n", max, seconds));
        svg.append("</svg>\n");
        return svg.toString();
    }

    void writeTo(Path directory) throws IOException {
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("report.md"), markdown());
        Files.writeString(directory.resolve("report.json"), json());
        Files.writeString(directory.resolve("timeline.svg"), svg());
    }

    private static String polyline(long[] values, double xScale, double yScale, int height, String colour) {
        String points = java.util.stream.IntStream.range(0, values.length)
                .mapToObj(i -> String.format(Locale.ROOT, "%.1f,%.1f", 40 + i * xScale, height - 40 - values[i] * yScale))
                .collect(Collectors.joining(" "));
        return "<polyline fill=\"none\" stroke=\"" + colour + "\" points=\"" + points + "\"/>\n";
    }

    private static void appendExamples(StringBuilder md, String title, List<String> items) {
        if (!items.isEmpty()) {
            md.append("\n### ").append(title).append(" (first 10)\n\n");
            items.stream().limit(10).forEach(item -> md.append("- ").append(item).append('\n'));
        }
    }

    private static String jsonMap(Map<String, Long> map) {
        return map.entrySet().stream().map(e -> "\"" + e.getKey() + "\": " + e.getValue())
                .collect(Collectors.joining(", ", "{", "}"));
    }
}
