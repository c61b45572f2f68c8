package io.zaris.client;

import io.zaris.model.SortedSetScores;
import java.nio.charset.StandardCharsets;

/**
 * One end of a score interval of a sorted set, as ZRANGEBYSCORE, ZCOUNT and ZREMRANGEBYSCORE take it: a score that is
 * itself inside ({@link #inclusive}), outside ({@link #exclusive}, Redis's {@code (}), or no bound on that side
 * ({@link #unbounded}, Redis's {@code -inf} as a lower end and {@code +inf} as an upper one). Immutable; a NaN score is
 * refused.
 */
public final class ScoreBound {

    private static final ScoreBound UNBOUNDED = new ScoreBound(0, false, true);

    private final double score;
    private final boolean exclusive;
    private final boolean unbounded;

    private ScoreBound(double score, boolean exclusive, boolean unbounded) {
        this.score = score;
        this.exclusive = exclusive;
        this.unbounded = unbounded;
    }

    /** The interval includes {@code score} (it may be infinite). */
    public static ScoreBound inclusive(double score) {
        return new ScoreBound(requireScore(score), false, false);
    }

    /** The interval ends just short of {@code score} (it may be infinite). */
    public static ScoreBound exclusive(double score) {
        return new ScoreBound(requireScore(score), true, false);
    }

    /** No bound on this side: every score below (as the lower end) or above (as the upper end) is inside. */
    public static ScoreBound unbounded() {
        return UNBOUNDED;
    }

    private static double requireScore(double score) {
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException("a score bound must not be NaN");
        }
        return score;
    }

    /** This bound as Redis writes it, as the lower ({@code lower}) or the upper end of an interval. */
    byte[] encode(boolean lower) {
        if (unbounded) {
            return (lower ? "-inf" : "+inf").getBytes(StandardCharsets.US_ASCII);
        }
        byte[] number = SortedSetScores.formatBytes(score);
        if (!exclusive) {
            return number;
        }
        byte[] text = new byte[number.length + 1];
        text[0] = '(';
        System.arraycopy(number, 0, text, 1, number.length);
        return text;
    }

    @Override
    public String toString() {
        return unbounded ? "unbounded" : (exclusive ? "(" : "[") + score;
    }
}
