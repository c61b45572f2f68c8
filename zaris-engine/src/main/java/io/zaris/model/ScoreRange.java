package io.zaris.model;

import java.nio.charset.StandardCharsets;

/**
 * A score interval as ZCOUNT, ZRANGEBYSCORE and ZREMRANGEBYSCORE take it: each bound a number, {@code -inf} or
 * {@code +inf}, exclusive after {@code (}. Redis's rule: NaN is refused; the interval may be empty (min above max).
 *
 * @param min          the lower bound
 * @param minExclusive whether a score equal to {@code min} is outside
 * @param max          the upper bound
 * @param maxExclusive whether a score equal to {@code max} is outside
 */
public record ScoreRange(double min, boolean minExclusive, double max, boolean maxExclusive) {

    /** Redis's answer to a bound it cannot read. */
    public static final String NOT_A_FLOAT = "min or max is not a float";

    /** Reads two bounds; {@code null} when either is not one (Redis answers {@link #NOT_A_FLOAT}). */
    public static ScoreRange parse(byte[] min, byte[] max) {
        String lo = new String(min, StandardCharsets.US_ASCII);
        String hi = new String(max, StandardCharsets.US_ASCII);
        boolean loExclusive = lo.startsWith("(");
        boolean hiExclusive = hi.startsWith("(");
        Double from = SortedSetScores.parseBound(loExclusive ? lo.substring(1) : lo);
        Double to = SortedSetScores.parseBound(hiExclusive ? hi.substring(1) : hi);
        return from == null || to == null ? null : new ScoreRange(from, loExclusive, to, hiExclusive);
    }

    /** Whether {@code score} is not below the interval. */
    public boolean aboveMin(double score) {
        return minExclusive ? score > min : score >= min;
    }

    /** Whether {@code score} is not above the interval. */
    public boolean belowMax(double score) {
        return maxExclusive ? score < max : score <= max;
    }

    public boolean contains(double score) {
        return aboveMin(score) && belowMax(score);
    }
}
