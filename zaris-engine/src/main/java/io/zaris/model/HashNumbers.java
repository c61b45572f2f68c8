package io.zaris.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * How HINCRBYFLOAT reads, adds and prints numbers, as Redis does on x86-64: in {@code long double}, the x87 extended
 * format with a 64-bit significand. A value is kept as the exact {@link BigDecimal} of such a number; reading text
 * rounds it to the nearest one (as {@code strtold} does), a sum is rounded the same way, and the result prints as
 * {@code printf("%.17Lf")} with trailing zeros cut, Redis's human form. So 0.1 prints "0.1" (not the
 * "0.10000000000000001" of a double) and 1e308 prints its 309 exact digits, as Redis answers.
 */
public final class HashNumbers {

    /** Bits of the extended format's significand. */
    private static final int SIGNIFICAND_BITS = 64;
    /** Decimal exponents past which strtold overflows to infinity or underflows to zero (range errors Redis refuses). */
    private static final int MAX_DECIMAL_EXPONENT = 4932;
    private static final int MIN_DECIMAL_EXPONENT = -4950;
    private static final int PRINTED_DECIMALS = 17;
    /** 2^16384: the extended format's numbers are all smaller; a sum that reaches it is infinite. */
    private static final BigDecimal OVERFLOW = new BigDecimal(BigInteger.ONE.shiftLeft(16384));

    private HashNumbers() {
    }

    /**
     * A finite decimal number without spaces, as Redis accepts one, rounded to the extended format; {@code null}
     * otherwise (also for infinities and NaN: see {@link #isInfinity}).
     */
    public static BigDecimal parseFloat(byte[] text) {
        String s = new String(text, StandardCharsets.US_ASCII);
        if (s.isEmpty() || s.length() > 5000 || !s.matches("[-+]?[0-9.]*([eE][-+]?[0-9]+)?")) {
            return null;
        }
        BigDecimal exact;
        try {
            exact = new BigDecimal(s);
        } catch (NumberFormatException e) {
            return null;
        }
        if (exact.signum() != 0) {
            long exponent = (long) exact.precision() - exact.scale() - 1;
            if (exponent > MAX_DECIMAL_EXPONENT || exponent < MIN_DECIMAL_EXPONENT) {
                return null;
            }
        }
        BigDecimal rounded = toExtended(exact);
        return rounded.abs().compareTo(OVERFLOW) >= 0 ? null : rounded;
    }

    /** Whether {@code text} names an infinity, which Redis reads and then refuses as "value is NaN or Infinity". */
    public static boolean isInfinity(byte[] text) {
        String s = new String(text, StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
        if (s.startsWith("+") || s.startsWith("-")) {
            s = s.substring(1);
        }
        return s.equals("inf") || s.equals("infinity");
    }

    /** {@code base + delta} in the extended format; {@code null} when it overflows (Redis: NaN or Infinity). */
    public static BigDecimal add(BigDecimal base, BigDecimal delta) {
        BigDecimal sum = toExtended(base.add(delta));
        return sum.abs().compareTo(OVERFLOW) >= 0 ? null : sum;
    }

    /** {@code printf("%.17Lf")} without trailing zeros (nor a trailing point, nor a minus on zero): Redis's human form. */
    public static String formatFloat(BigDecimal value) {
        BigDecimal printed = value.setScale(PRINTED_DECIMALS, RoundingMode.HALF_EVEN);
        return printed.signum() == 0 ? "0" : printed.stripTrailingZeros().toPlainString();
    }

    /** The extended-format number nearest to {@code exact} (ties to even), exactly. */
    static BigDecimal toExtended(BigDecimal exact) {
        if (exact.signum() == 0) {
            return BigDecimal.ZERO;
        }
        BigInteger numerator = exact.unscaledValue().abs();
        BigInteger denominator = BigInteger.ONE;
        if (exact.scale() > 0) {
            denominator = BigInteger.TEN.pow(exact.scale());
        } else {
            numerator = numerator.multiply(BigInteger.TEN.pow(-exact.scale()));
        }
        // shift such that 2^63 <= numerator * 2^shift / denominator < 2^64
        int shift = SIGNIFICAND_BITS - (numerator.bitLength() - denominator.bitLength());
        BigInteger[] division = scaled(numerator, denominator, shift);
        while (division[0].bitLength() > SIGNIFICAND_BITS) {
            division = scaled(numerator, denominator, --shift);
        }
        while (division[0].bitLength() < SIGNIFICAND_BITS) {
            division = scaled(numerator, denominator, ++shift);
        }
        BigInteger significand = division[0];
        int half = division[1].shiftLeft(1).compareTo(division[2]);
        if (half > 0 || (half == 0 && significand.testBit(0))) {
            significand = significand.add(BigInteger.ONE);
        }
        BigDecimal magnitude = shift <= 0
                ? new BigDecimal(significand.shiftLeft(-shift))
                : new BigDecimal(significand.multiply(BigInteger.valueOf(5).pow(shift)), shift); // m / 2^s = m * 5^s / 10^s
        return exact.signum() < 0 ? magnitude.negate() : magnitude;
    }

    /** numerator * 2^shift / denominator as quotient, remainder and the divisor the remainder is a fraction of. */
    private static BigInteger[] scaled(BigInteger numerator, BigInteger denominator, int shift) {
        BigInteger dividend = shift >= 0 ? numerator.shiftLeft(shift) : numerator;
        BigInteger divisor = shift >= 0 ? denominator : denominator.shiftLeft(-shift);
        BigInteger[] division = dividend.divideAndRemainder(divisor);
        return new BigInteger[] {division[0], division[1], divisor};
    }
}
