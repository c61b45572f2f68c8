package io.zaris.store;

/** Counters are stored as decimal ASCII, the way Redis stores INCR values, so any client reads them. */
final class DecimalCounter {

    private DecimalCounter() {
    }

    /** Parses an optional '-' and 1..19 digits without leading zeros; {@code null} if not a signed 64-bit integer. */
    static Long parse(byte[] text) {
        int length = text.length;
        if (length == 0 || length > 20) {
            return null;
        }
        boolean negative = text[0] == '-';
        int start = negative ? 1 : 0;
        if (start == length || (text[start] == '0' && length - start > 1) || (negative && text[start] == '0')) {
            return null;
        }
        long value = 0;
        for (int i = start; i < length; i++) {
            int digit = text[i] - '0';
            if (digit < 0 || digit > 9) {
                return null;
            }
            // Accumulate negatively so Long.MIN_VALUE parses without overflow.
            if (value < (Long.MIN_VALUE + digit) / 10) {
                return null;
            }
            value = value * 10 - digit;
        }
        if (!negative) {
            if (value == Long.MIN_VALUE) {
                return null;
            }
            value = -value;
        }
        return value;
    }
}
