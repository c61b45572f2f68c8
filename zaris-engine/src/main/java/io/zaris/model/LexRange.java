package io.zaris.model;

import java.util.Arrays;

/**
 * A member interval as ZRANGEBYLEX takes it: {@code -} (below every member), {@code +} (above every member),
 * {@code [m} (from m, inclusive) or {@code (m} (exclusive). Members compare as unsigned bytes, as Redis's memcmp.
 *
 * @param min          the lower bound's member, {@code null} for {@code -} or {@code +} (see {@code minInfinite})
 * @param minExclusive whether {@code min} itself is outside
 * @param minInfinite  0 for a member bound, -1 for {@code -}, +1 for {@code +}
 * @param max          the upper bound's member, or {@code null}
 * @param maxExclusive whether {@code max} itself is outside
 * @param maxInfinite  0 for a member bound, -1 for {@code -}, +1 for {@code +}
 */
public record LexRange(byte[] min, boolean minExclusive, int minInfinite, byte[] max, boolean maxExclusive, int maxInfinite) {

    /** Redis's answer to a bound it cannot read. */
    public static final String NOT_VALID = "min or max not valid string range item";

    /** Reads two bounds; {@code null} when either is not one (Redis answers {@link #NOT_VALID}). */
    public static LexRange parse(byte[] min, byte[] max) {
        if (!valid(min) || !valid(max)) {
            return null;
        }
        return new LexRange(member(min), min[0] == '(', infinite(min), member(max), max[0] == '(', infinite(max));
    }

    private static boolean valid(byte[] bound) {
        if (bound.length == 0) {
            return false;
        }
        return bound[0] == '(' || bound[0] == '[' || (bound.length == 1 && (bound[0] == '-' || bound[0] == '+'));
    }

    private static int infinite(byte[] bound) {
        return bound[0] == '-' ? -1 : bound[0] == '+' ? 1 : 0;
    }

    private static byte[] member(byte[] bound) {
        return bound[0] == '(' || bound[0] == '[' ? Arrays.copyOfRange(bound, 1, bound.length) : null;
    }

    /** Whether {@code member} is not below the interval. */
    public boolean aboveMin(byte[] member) {
        if (minInfinite != 0) {
            return minInfinite < 0;
        }
        int c = Arrays.compareUnsigned(member, min);
        return minExclusive ? c > 0 : c >= 0;
    }

    /** Whether {@code member} is not above the interval. */
    public boolean belowMax(byte[] member) {
        if (maxInfinite != 0) {
            return maxInfinite > 0;
        }
        int c = Arrays.compareUnsigned(member, max);
        return maxExclusive ? c < 0 : c <= 0;
    }
}
