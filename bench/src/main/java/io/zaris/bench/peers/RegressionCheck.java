package io.zaris.bench.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Compares this run's throughput rows with the previous report in the history directory and lists every
 * row whose median ops/s dropped by more than {@link #TOLERATED_DROP}. Reports are read back from their
 * Markdown throughput table (the first four cells name the row, the fifth is the median ops/s).
 */
final class RegressionCheck {

    /** A drop larger than this share of the previous figure is flagged. */
    static final double TOLERATED_DROP = 0.10;

    private RegressionCheck() {
    }

    /**
     * The newest report in the history directory: {@code YYYY-MM-DD.md} is a day's first run and
     * {@code YYYY-MM-DD-N.md} its N-th, so the order is by date, then by N (a plain name sort would put the
     * first run after the later ones, since {@code -} sorts before {@code .}).
     */
    static Optional<Path> latestReport(Path history) throws IOException {
        if (!Files.isDirectory(history)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(history)) {
            return files.filter(f -> REPORT_NAME.matcher(f.getFileName().toString()).matches())
                    .max(Comparator.comparing((Path f) -> reportDate(f)).thenComparingInt(RegressionCheck::runOfDay));
        }
    }

    private static final Pattern REPORT_NAME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})(?:-(\\d+))?\\.md");

    private static String reportDate(Path report) {
        Matcher name = REPORT_NAME.matcher(report.getFileName().toString());
        return name.matches() ? name.group(1) : "";
    }

    private static int runOfDay(Path report) {
        Matcher name = REPORT_NAME.matcher(report.getFileName().toString());
        return name.matches() && name.group(2) != null ? Integer.parseInt(name.group(2)) : 1;
    }

    static List<String> compare(BenchResults results, Path previousReport) throws IOException {
        Map<String, Double> previous = throughputByRow(Files.readAllLines(previousReport));
        List<String> drops = new ArrayList<>();
        for (ThroughputRow row : results.throughput) {
            Double before = previous.get(MarkdownReport.rowKey(row));
            if (before == null || before <= 0) {
                continue;
            }
            double now = row.medianOpsPerSecond();
            if (now < before * (1 - TOLERATED_DROP)) {
                drops.add(String.format(Locale.ROOT, "%s: %,.0f → %,.0f ops/s (%.0f %%)", MarkdownReport.rowKey(row),
                        before, now, (now / before - 1) * 100));
            }
        }
        return drops;
    }

    static Map<String, Double> throughputByRow(List<String> lines) {
        Map<String, Double> rows = new HashMap<>();
        boolean inThroughput = false;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                inThroughput = line.startsWith(MarkdownReport.THROUGHPUT_HEADING);
                continue;
            }
            if (!inThroughput || !line.startsWith("|") || line.startsWith("|---") || line.startsWith("| system")) {
                continue;
            }
            String[] cells = line.split("\\|");
            if (cells.length < 6) {
                continue;
            }
            String key = String.join(" | ", cells[1].trim(), cells[2].trim(), cells[3].trim(), cells[4].trim());
            try {
                rows.put(key, Double.parseDouble(cells[5].trim().replace(",", "")));
            } catch (NumberFormatException notARow) {
                // a note inside the table section
            }
        }
        return rows;
    }
}
