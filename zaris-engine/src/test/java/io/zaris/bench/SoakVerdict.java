package io.zaris.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides whether a memory soak kept every node's heap flat and bounded. Pure: it only reads the samples.
 *
 * <p>A run passes when all of these hold:
 * <ol>
 *   <li>every node answered every sample (a node that died or hung has no heap figure);</li>
 *   <li>no live-heap sample exceeds the budget plus {@code slackMiB} (the op logs, connection buffers
 *   and the JVM's own objects live outside the budget);</li>
 *   <li>per node, the mean live heap over the last third of the run is at most {@code tolerance} above
 *   its mean over the first third, counting in the first third only samples taken once the node had
 *   started evicting (before that the budget is still filling, which is growth by design) — a node that
 *   never evicted in the first third makes the run inconclusive, hence failed;</li>
 *   <li>failed operations are at most {@link #MAX_FAILED_FRACTION} of the operations issued.</li>
 * </ol>
 */
final class SoakVerdict {

    /** Failed operations tolerated, as a fraction of those issued: a few timeouts on a loaded machine. */
    static final double MAX_FAILED_FRACTION = 0.001;

    /** One node's figures at one sample time; {@code heapMiB} is NaN when the node did not answer. */
    record Sample(long seconds, String nodeId, double heapMiB, long evictions) {
    }

    /** The outcome and one line per check, for the report. */
    record Result(boolean passed, List<String> lines) {
    }

    private SoakVerdict() {
    }

    static Result judge(List<Sample> samples, long runSeconds, double budgetMiB, double slackMiB, double tolerance,
                        long operations, long failedOperations) {
        List<String> lines = new ArrayList<>();
        boolean passed = true;
        double ceiling = budgetMiB + slackMiB;
        long firstThirdEnd = runSeconds / 3;
        long lastThirdStart = runSeconds - runSeconds / 3;

        Map<String, List<Sample>> byNode = new TreeMap<>();
        for (Sample sample : samples) {
            byNode.computeIfAbsent(sample.nodeId(), id -> new ArrayList<>()).add(sample);
        }
        if (byNode.isEmpty()) {
            return new Result(false, List.of("FAIL: no samples"));
        }
        for (Map.Entry<String, List<Sample>> node : byNode.entrySet()) {
            String id = node.getKey();
            double peak = 0;
            boolean answered = true;
            double steadySum = 0;
            int steadyCount = 0;
            double lastSum = 0;
            int lastCount = 0;
            for (Sample sample : node.getValue()) {
                if (Double.isNaN(sample.heapMiB())) {
                    answered = false;
                    lines.add(String.format(Locale.ROOT, "FAIL: %s gave no heap figure at t=%d s", id, sample.seconds()));
                    continue;
                }
                peak = Math.max(peak, sample.heapMiB());
                if (sample.seconds() <= firstThirdEnd && sample.evictions() > 0) {
                    steadySum += sample.heapMiB();
                    steadyCount++;
                }
                if (sample.seconds() >= lastThirdStart) {
                    lastSum += sample.heapMiB();
                    lastCount++;
                }
            }
            passed &= answered;
            boolean bounded = peak <= ceiling;
            passed &= bounded;
            lines.add(String.format(Locale.ROOT, "%s: %s peak live heap %.1f MiB (limit: budget %.0f + slack %.0f = %.0f MiB)",
                    bounded ? "PASS" : "FAIL", id, peak, budgetMiB, slackMiB, ceiling));
            if (steadyCount == 0 || lastCount == 0) {
                passed = false;
                lines.add(String.format(Locale.ROOT,
                        "FAIL: %s inconclusive: %s (first third ends at %d s; run longer)", id,
                        steadyCount == 0 ? "no sample in the first third after its budget filled" : "no sample in the last third",
                        firstThirdEnd));
                continue;
            }
            double steadyMean = steadySum / steadyCount;
            double lastMean = lastSum / lastCount;
            boolean flat = lastMean <= steadyMean * (1 + tolerance);
            passed &= flat;
            lines.add(String.format(Locale.ROOT,
                    "%s: %s mean live heap %.1f MiB in the last third (%d samples) vs %.1f MiB in the first third"
                            + " once full (%d samples): %+.1f%% (limit +%.0f%%)",
                    flat ? "PASS" : "FAIL", id, lastMean, lastCount, steadyMean, steadyCount,
                    (lastMean / steadyMean - 1) * 100, tolerance * 100));
        }
        boolean fewFailures = failedOperations <= operations * MAX_FAILED_FRACTION;
        passed &= fewFailures;
        lines.add(String.format(Locale.ROOT, "%s: %d of %d operations failed (limit %.1f%%)",
                fewFailures ? "PASS" : "FAIL", failedOperations, operations, MAX_FAILED_FRACTION * 100));
        lines.add(passed ? "VERDICT: PASS" : "VERDICT: FAIL");
        return new Result(passed, lines);
    }
}
