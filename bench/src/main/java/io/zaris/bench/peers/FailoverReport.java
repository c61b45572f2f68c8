package io.zaris.bench.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Renders a failover run as Markdown, and writes it under a dated name that never overwrites an earlier report. */
final class FailoverReport {

    /** Exception kinds named in the table; the rest are only counted. */
    static final int TOP_KINDS = 3;

    private FailoverReport() {
    }

    static Path write(String report, Path directory, LocalDate date) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve("failover-" + date + ".md");
        for (int n = 2; Files.exists(file); n++) {
            file = directory.resolve("failover-" + date + "-" + n + ".md");
        }
        return Files.writeString(file, report);
    }

    /** @param failed systems that could not be measured, with why */
    static String render(List<FailoverResult> results, Map<String, String> failed, FailoverSettings settings, Duration took,
                         LocalDate date) {
        StringBuilder out = new StringBuilder();
        line(out, "# Failover side by side: %s", date);
        line(out, "");
        line(out, "- Command: `bench/failover%s`; the run took %d min %d s.",
                settings.arguments().isEmpty() ? "" : " " + settings.arguments(), took.toMinutes(), took.toSecondsPart());
        line(out, "- Machine: %d cores, %s %s, Java %s. A shared machine: other work ran at the same time.",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), System.getProperty("os.arch"),
                System.getProperty("java.version"));
        line(out, "- Load: %s. Every system is a cluster of 3 nodes on loopback, started for its run and stopped after it, "
                + "one system at a time, driven from one client JVM through the system's own client.", settings.describe());
        line(out, "");
        renderTable(out, results);
        if (!failed.isEmpty()) {
            line(out, "");
            failed.forEach((system, why) -> line(out, "- **%s** could not be measured: %s", system, why));
        }
        line(out, "");
        renderDefinitions(out, settings);
        line(out, "");
        renderDetails(out, results);
        line(out, "");
        line(out, "## Configurations");
        line(out, "");
        results.forEach(result -> line(out, "- **%s**: %s.", result.system(), result.configuration()));
        return out.toString();
    }

    private static void renderTable(StringBuilder out, List<FailoverResult> results) {
        line(out, "| system | node killed | keys affected | unavailability p50 | p99 | max | exceptions (top kinds) "
                + "| acknowledged writes lost | back to full redundancy |");
        line(out, "|---|---|---:|---:|---:|---:|---|---:|---:|");
        for (FailoverResult result : results) {
            Unavailability unavailability = result.unavailability();
            line(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |", result.system(), result.victim(), affected(unavailability),
                    figure(unavailability.p50()), figure(unavailability.p99()), figure(unavailability.max()),
                    exceptions(result), lost(result.lost()), redundancy(result));
        }
    }

    private static void renderDefinitions(StringBuilder out, FailoverSettings settings) {
        line(out, "How the columns are measured:");
        line(out, "");
        line(out, "- **Unavailability**, per key: from the kill until the key's first put *sent after the kill* was "
                + "acknowledged, less the time the key sat idle by the load's pacing after an acknowledged put (time with a "
                + "put in flight counts, including a put sent before the kill and still pending; so does time idle after a "
                + "failed put). A key is **affected** when a put of it failed after the kill, when no put sent after the "
                + "kill was acknowledged before the writes stopped (*never recovered*: its figure runs to the stop, a lower "
                + "bound, marked ≥), or when its figure exceeded %d× the steady p99 put latency (that of the puts "
                + "acknowledged in the last %d s before the kill: an untouched key may have one put in flight at the kill "
                + "and then send the next). Keys not affected count 0; p50, p99 and max are nearest-rank over all keys.",
                Unavailability.THRESHOLD_FACTOR, settings.steadyPeriod().toSeconds());
        line(out, "- **Exceptions**: every put the client failed after the kill (completed after it, whenever sent), by kind "
                + "(the exception's class, with the status of a Zaris status exception and the error code of a Redis error "
                + "reply); those before the kill are in the second table. A failing key keeps its pace, so a system that "
                + "fails fast shows more exceptions per second of outage than one that blocks.");
        line(out, "- **Acknowledged writes lost**: after the writes stopped (and the puts in flight completed, up to 20 s), "
                + "every key was read back through the same client. A key whose value carries a lower sequence number than "
                + "the highest put the client acknowledged lost the puts in between (the count is their number); a higher "
                + "one is no loss (a put whose outcome the client never learned may still have been applied).");
        line(out, "- **Back to full redundancy**: from the kill until an observer (a connection of its own, never the "
                + "application's client), asking every %d ms, first found every entry kept on as many live nodes as before. "
                + "Zaris: every partition HEALTHY in the cluster map, assigned to replication-factor nodes, none the killed "
                + "one. Redis Cluster: every slot on a live master that has an online replica (Redis does not give an "
                + "orphaned master a replica unless another master has more than one). Hazelcast: 2 members and "
                + "`PartitionService.isClusterSafe()` on a live member (every partition's backup assigned and in sync). "
                + "*never* means not within the %d s after the kill, and says what the last look found short.",
                RedundancyWatch.PROBE_INTERVAL.toMillis(), settings.recovery().toSeconds());
    }

    private static void renderDetails(StringBuilder out, List<FailoverResult> results) {
        line(out, "| system | puts acknowledged | exceptions before the kill | steady p99 put latency | affected above "
                + "| puts unresolved at read-back | keys unreadable at read-back |");
        line(out, "|---|---:|---:|---:|---:|---:|---:|");
        for (FailoverResult result : results) {
            line(out, "| %s | %,d | %,d | %s | %s | %d | %d |", result.system(), result.writesAcknowledged(),
                    result.exceptionsBeforeKill(), nanos(result.unavailability().steadyP99Nanos()),
                    nanos(result.unavailability().thresholdNanos()), result.writesUnresolved(), result.lost().unreadable());
        }
    }

    static String affected(Unavailability unavailability) {
        String affected = unavailability.affected() + " of " + unavailability.keys();
        return unavailability.notRecovered() == 0 ? affected : affected + " (" + unavailability.notRecovered() + " never recovered)";
    }

    static String figure(Unavailability.Figure figure) {
        return (figure.atLeast() ? "≥ " : "") + nanos(figure.nanos());
    }

    static String exceptions(FailoverResult result) {
        long count = result.exceptionCount();
        if (count == 0) {
            return "0";
        }
        String top = result.exceptions().entrySet().stream().limit(TOP_KINDS)
                .map(kind -> String.format(Locale.ROOT, "%s ×%,d", kind.getKey(), kind.getValue()))
                .collect(Collectors.joining(", "));
        int others = result.exceptions().size() - TOP_KINDS;
        return String.format(Locale.ROOT, "%,d: %s%s", count, top, others > 0 ? ", " + others + " other kinds" : "");
    }

    static String lost(LostWrites lost) {
        return lost.keys() == 0 ? "0" : String.format(Locale.ROOT, "%,d (on %d keys)", lost.writes(), lost.keys());
    }

    static String redundancy(FailoverResult result) {
        return result.redundancy().restoredAfter().map(FailoverReport::seconds)
                .orElse("never (at " + result.recovery().toSeconds() + " s: " + result.redundancy().lastShortfall() + ")");
    }

    /** A duration for the table: {@code 0}, milliseconds below a second, else seconds. */
    static String nanos(long nanos) {
        if (nanos == 0) {
            return "0";
        }
        double millis = nanos / 1e6;
        if (millis < 10) {
            return String.format(Locale.ROOT, "%.1f ms", millis);
        }
        return millis < 1000 ? String.format(Locale.ROOT, "%.0f ms", millis) : String.format(Locale.ROOT, "%.1f s", millis / 1000);
    }

    private static String seconds(Duration duration) {
        return nanos(duration.toNanos());
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
