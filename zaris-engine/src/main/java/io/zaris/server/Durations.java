package io.zaris.server;

import java.time.Duration;
import java.util.Locale;

/**
 * The one duration syntax of the server's options: a whole number and a unit, {@code 250us}, {@code 1500ms},
 * {@code 30s}, {@code 2m} or {@code 1h}; {@code 0} needs none. A plain number is the spelling from before this
 * syntax: {@link #parse} reads it in the unit the caller names and reports it as deprecated. Pure.
 */
final class Durations {

    /** What {@link #parse} read: the duration, and whether it was written the deprecated way (no unit). */
    record Parsed(Duration duration, boolean withoutUnit) {
    }

    private Durations() {
    }

    /**
     * Reads {@code text}; a number without a unit is taken in {@code plainUnit} ({@code ms} or {@code us}).
     *
     * @param what names the option in the error message
     * @throws IllegalArgumentException naming {@code what} and the text, for anything else (negative, a fraction,
     *                                  an unknown unit, too large)
     */
    static Parsed parse(String what, String text, String plainUnit) {
        String trimmed = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        int digits = 0;
        while (digits < trimmed.length() && Character.isDigit(trimmed.charAt(digits))) {
            digits++;
        }
        String unit = trimmed.substring(digits);
        boolean withoutUnit = unit.isEmpty();
        long nanosPerUnit = nanosPer(withoutUnit ? plainUnit : unit);
        if (digits == 0 || nanosPerUnit < 0 || digits > 12) {
            throw new IllegalArgumentException(what + " must be a duration such as 30s, 1500ms or 2m (plain numbers are"
                    + " " + plainUnit + ") but was '" + text + "'");
        }
        long amount = Long.parseLong(trimmed.substring(0, digits));
        return new Parsed(Duration.ofNanos(Math.multiplyExact(amount, nanosPerUnit)), withoutUnit && amount != 0);
    }

    private static long nanosPer(String unit) {
        return switch (unit) {
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> -1;
        };
    }

    /** The shortest exact spelling in this syntax: {@code 30s}, {@code 1500ms}, {@code 250us}, {@code 0}. */
    static String describe(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos == 0) {
            return "0";
        }
        String[] units = {"h", "m", "s", "ms", "us"};
        for (String unit : units) {
            long per = nanosPer(unit);
            if (nanos % per == 0) {
                return nanos / per + unit;
            }
        }
        return nanos / 1000 + "us";
    }
}
