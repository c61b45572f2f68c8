package io.zaris.bench.peers;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Per-key unavailability after the kill, over every key of a run (see {@link KeyOutage} for one key).
 *
 * <p>A key is <em>affected</em> when a write of it failed after the kill, when it never had a write sent after
 * the kill acknowledged, or when its {@link KeyOutage#unavailableNanos()} exceeded {@link #THRESHOLD_FACTOR} times
 * the steady-state p99 write latency (one write may be in flight at the kill and the next one follows: an
 * untouched key shows up to two latencies). An affected key counts with its figure, every other key with 0, and the
 * percentiles are taken over all keys (nearest rank).
 *
 * @param keys         keys written
 * @param affected     keys affected
 * @param notRecovered keys with no write sent after the kill acknowledged before the writes stopped (their figure
 *                     runs to the stop: a lower bound)
 * @param steadyP99Nanos p99 latency of the writes acknowledged in the steady period before the kill
 * @param thresholdNanos {@link #THRESHOLD_FACTOR} times that
 */
record Unavailability(int keys, int affected, int notRecovered, Figure p50, Figure p99, Figure max, long steadyP99Nanos,
                      long thresholdNanos) {

    /** How many steady-state p99 latencies a key may take to write after the kill and still count as untouched. */
    static final int THRESHOLD_FACTOR = 2;

    /** One percentile; {@code atLeast} when it is the figure of a key that never recovered (a lower bound). */
    record Figure(long nanos, boolean atLeast) {
    }

    static Unavailability of(List<KeyHistory> histories, FailoverTimes times) {
        long[] steady = histories.stream().flatMap(history -> history.attempts().stream())
                .filter(a -> a.isAcknowledged() && a.sentNanos() >= times.steadyFromNanos() && a.doneNanos() <= times.killNanos())
                .mapToLong(WriteAttempt::latencyNanos).toArray();
        long steadyP99 = Percentiles.nearestRank(steady, 99);
        long threshold = THRESHOLD_FACTOR * steadyP99;
        Figure[] figures = new Figure[histories.size()];
        int affected = 0;
        int notRecovered = 0;
        for (int k = 0; k < figures.length; k++) {
            KeyOutage outage = KeyOutage.of(histories.get(k), times.killNanos(), times.stopNanos());
            if (outage.affected(threshold)) {
                affected++;
                notRecovered += outage.recovered() ? 0 : 1;
                figures[k] = new Figure(outage.unavailableNanos(), !outage.recovered());
            } else {
                figures[k] = new Figure(0, false);
            }
        }
        Arrays.sort(figures, Comparator.comparingLong(Figure::nanos).thenComparing(Figure::atLeast));
        return new Unavailability(figures.length, affected, notRecovered, rank(figures, 50), rank(figures, 99),
                rank(figures, 100), steadyP99, threshold);
    }

    private static Figure rank(Figure[] sorted, double percentile) {
        return sorted.length == 0 ? new Figure(0, false) : sorted[Percentiles.rankIndex(sorted.length, percentile)];
    }
}
