package io.zaris.bench.peers;

import java.util.Arrays;

/** Nearest-rank percentiles of a small set of values (a few thousand at most), computed exactly. */
final class Percentiles {

    private Percentiles() {
    }

    /**
     * The smallest value with at least {@code percentile} % of the values at or below it ({@code 100} gives the
     * maximum); {@code 0} for no values.
     */
    static long nearestRank(long[] values, double percentile) {
        if (values.length == 0) {
            rankIndex(1, percentile); // still checks the percentile
            return 0;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[rankIndex(sorted.length, percentile)];
    }

    /** The index, in {@code count} values sorted ascending, of the value at the percentile (nearest rank). */
    static int rankIndex(int count, double percentile) {
        if (percentile <= 0 || percentile > 100) {
            throw new IllegalArgumentException("percentile must be in (0, 100], not " + percentile);
        }
        if (count < 1) {
            throw new IllegalArgumentException("no rank among " + count + " values");
        }
        int rank = (int) Math.ceil(percentile / 100 * count);
        return Math.min(Math.max(rank, 1), count) - 1;
    }
}
