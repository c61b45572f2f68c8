package io.zaris.model;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * How sorted-set scores are read, printed and carried, as Redis 7.0 does: a score is a double; ZADD takes a decimal
 * or hexadecimal ({@code 0x1.8p1}, as C's strtod reads it) number or {@code inf}/{@code -inf} (never NaN, nor a number that overflows or underflows to zero); a reply prints
 * it as C's {@code %.17g} ({@code 0.1} is {@code 0.10000000000000001}, {@code 3} is {@code 3}, {@code 1e+20}), and
 * {@code inf}/{@code -inf}. Replication carries the score's 8 IEEE 754 bytes, so every copy holds the same double.
 * Pure functions.
 */
public final class SortedSetScores {

    private static final Pattern DECIMAL = Pattern.compile("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");
    /** C99's hexadecimal floating constant as strtod reads it: {@code 0x10} is 16, {@code 0x1.8p1} is 3. */
    private static final Pattern HEXADECIMAL =
            Pattern.compile("[-+]?0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)([pP][-+]?[0-9]+)?");
    private static final MathContext SEVENTEEN_DIGITS = new MathContext(17, RoundingMode.HALF_EVEN);

    private SortedSetScores() {
    }

    /**
     * Integers of up to this many digits are exact doubles, read without a String or the pattern (every score
     * redis-benchmark's ZADD sends, and most leaderboards'): 15 digits stay below 2^53.
     */
    private static final int PLAIN_INTEGER_DIGITS = 15;

    /** A score as ZADD and ZINCRBY take it; {@code null} when Redis answers "value is not a valid float". */
    public static Double parse(byte[] text) {
        Double integer = plainInteger(text);
        if (integer != null) {
            return integer;
        }
        String s = new String(text, StandardCharsets.US_ASCII);
        if (s.isEmpty() || s.length() > 5000 || isCSpace(s.charAt(0))) {
            return null;
        }
        Double infinity = infinity(s);
        if (infinity != null) {
            return infinity;
        }
        Double value = number(s);
        if (value == null || value.isInfinite() || (value == 0 && hasNonZeroDigit(s))) {
            return null; // strtod's ERANGE: Redis refuses an overflow and an underflow to zero
        }
        return value;
    }

    /** A decimal or hexadecimal number as strtod reads the whole of it; {@code null} for anything else. */
    private static Double number(String s) {
        if (s.length() > 5000) {
            return null;
        }
        if (DECIMAL.matcher(s).matches()) {
            return Double.parseDouble(s);
        }
        if (HEXADECIMAL.matcher(s).matches()) {
            // Java reads a hexadecimal significand only with its binary exponent, which C makes optional.
            boolean hasExponent = s.indexOf('p') >= 0 || s.indexOf('P') >= 0;
            return Double.parseDouble(hasExponent ? s : s + "p0");
        }
        return null;
    }

    /**
     * A score bound as ZRANGEBYSCORE and its kin read one (after any {@code (}): like strtod alone, leading spaces are
     * skipped, an empty text is 0, an overflow is infinite; {@code null} for anything else that is not a number, or NaN.
     */
    public static Double parseBound(String s) {
        int start = 0;
        while (start < s.length() && isCSpace(s.charAt(start))) {
            start++;
        }
        String t = s.substring(start);
        if (t.isEmpty()) {
            return s.isEmpty() ? 0.0 : null; // strtod reads nothing, then Redis sees the spaces left over
        }
        Double infinity = infinity(t);
        if (infinity != null) {
            return infinity;
        }
        return number(t);
    }

    /**
     * {@code [-]digits} of at most {@value #PLAIN_INTEGER_DIGITS} digits as the double it is exactly ({@code -0} is
     * −0.0, as strtod reads it); {@code null} for any other text, which {@link #parse} then reads the general way.
     */
    private static Double plainInteger(byte[] text) {
        int start = text.length > 0 && text[0] == '-' ? 1 : 0;
        int digits = text.length - start;
        if (digits < 1 || digits > PLAIN_INTEGER_DIGITS) {
            return null;
        }
        long magnitude = 0;
        for (int i = start; i < text.length; i++) {
            int digit = text[i] - '0';
            if (digit < 0 || digit > 9) {
                return null;
            }
            magnitude = magnitude * 10 + digit;
        }
        return start == 1 ? -(double) magnitude : (double) magnitude;
    }

    private static Double infinity(String s) {
        String lower = s.toLowerCase(java.util.Locale.ROOT);
        boolean negative = lower.startsWith("-");
        String body = lower.startsWith("-") || lower.startsWith("+") ? lower.substring(1) : lower;
        if (body.equals("inf") || body.equals("infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return null;
    }

    /** Whether the significand of a decimal or hexadecimal number has a digit other than 0. */
    private static boolean hasNonZeroDigit(String s) {
        boolean hexadecimal = s.indexOf('x') >= 0 || s.indexOf('X') >= 0;
        int start = hexadecimal ? Math.max(s.indexOf('x'), s.indexOf('X')) + 1 : 0;
        for (int i = start; i < s.length(); i++) {
            char c = s.charAt(i);
            if (hexadecimal ? c == 'p' || c == 'P' : c == 'e' || c == 'E') {
                return false;
            }
            if ((c >= '1' && c <= '9') || (hexadecimal && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))) {
                return true;
            }
        }
        return false;
    }

    /** C's isspace in the "C" locale. */
    private static boolean isCSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** The score as Redis 7.0 prints it in a reply: {@code inf}, {@code -inf}, else C's {@code %.17g}. */
    public static String format(double score) {
        if (Double.isInfinite(score)) {
            return score > 0 ? "inf" : "-inf";
        }
        if (score == 0) {
            return 1 / score < 0 ? "-0" : "0";
        }
        if (isPlainInteger(score)) {
            return Long.toString((long) score);
        }
        BigDecimal rounded = new BigDecimal(score).round(SEVENTEEN_DIGITS);
        int exponent = rounded.precision() - rounded.scale() - 1;
        BigDecimal stripped = rounded.stripTrailingZeros();
        if (exponent >= -4 && exponent < 17) {
            return stripped.toPlainString();
        }
        String digits = stripped.unscaledValue().abs().toString();
        StringBuilder out = new StringBuilder(score < 0 ? "-" : "");
        out.append(digits.charAt(0));
        if (digits.length() > 1) {
            out.append('.').append(digits, 1, digits.length());
        }
        out.append('e').append(exponent < 0 ? '-' : '+');
        int magnitude = Math.abs(exponent);
        if (magnitude < 10) {
            out.append('0');
        }
        return out.append(magnitude).toString();
    }

    /**
     * An integral score below 2^53 in magnitude: {@code %.17g} prints it as its plain digits (at most 16 of them, all
     * exact), so it needs no 17-digit rounding.
     */
    private static boolean isPlainInteger(double score) {
        return Math.abs(score) < 0x1p53 && score == Math.rint(score);
    }

    /**
     * Whether {@link #format} prints the score as its plain decimal digits, which fit a {@code long}: a nonzero integral
     * score below 2^53 in magnitude (0 prints as "0" or "-0").
     */
    public static boolean printsAsLong(double score) {
        return score != 0 && isPlainInteger(score);
    }

    /** {@link #format} as ASCII bytes; an integral score's digits are written straight into the array. */
    public static byte[] formatBytes(double score) {
        if (printsAsLong(score)) {
            return asciiDigits((long) score);
        }
        return format(score).getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code value} in decimal, as ASCII bytes ({@code value} is never {@link Long#MIN_VALUE} here). */
    private static byte[] asciiDigits(long value) {
        long magnitude = Math.abs(value);
        int length = value < 0 ? 2 : 1;
        for (long rest = magnitude / 10; rest > 0; rest /= 10) {
            length++;
        }
        byte[] out = new byte[length];
        for (int i = length - 1; i >= (value < 0 ? 1 : 0); i--) {
            out[i] = (byte) ('0' + magnitude % 10);
            magnitude /= 10;
        }
        if (value < 0) {
            out[0] = '-';
        }
        return out;
    }

    /** The 8 bytes a score is stored and replicated as. */
    public static byte[] encode(double score) {
        // Big-endian IEEE 754 bits, as ByteBuffer.putDouble writes them, without a ByteBuffer per ZADD.
        long bits = Double.doubleToRawLongBits(score);
        byte[] out = new byte[Double.BYTES];
        for (int i = 0; i < Double.BYTES; i++) {
            out[i] = (byte) (bits >>> (8 * (Double.BYTES - 1 - i)));
        }
        return out;
    }

    /** Reads {@link #encode}'s bytes back. */
    public static double decode(byte[] bytes) {
        if (bytes.length != Double.BYTES) {
            throw new IllegalArgumentException("a score is " + Double.BYTES + " bytes, got " + bytes.length);
        }
        long bits = 0;
        for (byte b : bytes) {
            bits = bits << 8 | (b & 0xFF);
        }
        return Double.longBitsToDouble(bits);
    }
}
