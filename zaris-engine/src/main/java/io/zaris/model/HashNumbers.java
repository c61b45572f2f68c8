package io.zaris.model;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;

/** How HINCRBYFLOAT reads and prints numbers, as Redis does. */
public final class HashNumbers {

    private HashNumbers() {
    }

    /** A finite decimal number without spaces, as Redis accepts one; {@code null} otherwise. */
    public static Double parseFloat(byte[] text) {
        String s = new String(text, StandardCharsets.US_ASCII);
        if (s.isEmpty() || s.length() > 5000 || Character.isWhitespace(s.charAt(0))
                || Character.isWhitespace(s.charAt(s.length() - 1))) {
            return null;
        }
        try {
            double value = Double.parseDouble(s);
            // Java also reads hexadecimal, "NaN", "Infinity" and a trailing d/f, which Redis refuses.
            return Double.isNaN(value) || Double.isInfinite(value) || !s.matches("[-+]?[0-9.]*([eE][-+]?[0-9]+)?")
                    ? null : value;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Up to 17 significant digits, no exponent, no trailing zeros: how Redis prints an HINCRBYFLOAT result. */
    public static String formatFloat(double value) {
        if (value == 0) {
            return "0";
        }
        return new BigDecimal(value).round(new MathContext(17)).stripTrailingZeros().toPlainString();
    }

}
