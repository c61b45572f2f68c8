package io.zaris.model;

import java.nio.charset.StandardCharsets;

/**
 * Where a list change applies, as its {@link Change#field()} carries it: decimal text, one index ({@code "7"}) for an
 * insert or a set, an index and a count ({@code "7 3"}) for a removal. Text keeps a change readable in a dump and
 * within the field's bound whatever the numbers. Indexes are absolute, counted from the head.
 */
public final class ListPosition {

    private ListPosition() {
    }

    public static byte[] of(long index) {
        byte[] out = new byte[digits(index)];
        writeDigits(out, out.length, index);
        return out;
    }

    public static byte[] of(long index, long count) {
        int indexDigits = digits(index);
        byte[] out = new byte[indexDigits + 1 + digits(count)];
        writeDigits(out, indexDigits, index);
        out[indexDigits] = ' ';
        writeDigits(out, out.length, count);
        return out;
    }

    /** How many decimal digits a non-negative number has. */
    private static int digits(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("a list position is not negative: " + value);
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        return digits;
    }

    /** Writes {@code value}'s digits so that the last one lands before {@code end}. */
    private static void writeDigits(byte[] out, int end, long value) {
        long rest = value;
        int at = end;
        do {
            out[--at] = (byte) ('0' + rest % 10);
            rest /= 10;
        } while (rest > 0);
    }

    /**
     * The numbers a position holds: one or two non-negative decimals separated by one space. Read from the bytes
     * (every list change a copy applies, its owner's own included, passes here).
     *
     * @throws IllegalArgumentException when the field is not such a position
     */
    public static long[] parse(byte[] field) {
        int space = space(field);
        if (space < 0) {
            return new long[] {number(field, 0, field.length)};
        }
        return new long[] {number(field, 0, space), number(field, space + 1, field.length)};
    }

    /**
     * How many numbers a position holds, 1 or 2, checked as {@link #parse} checks them, without making an array (every
     * list change a replica receives passes here).
     *
     * @throws IllegalArgumentException when the field is not such a position
     */
    public static int numbers(byte[] field) {
        int space = space(field);
        if (space < 0) {
            number(field, 0, field.length);
            return 1;
        }
        number(field, 0, space);
        number(field, space + 1, field.length);
        return 2;
    }

    /**
     * A position's first number (an index), without making an array.
     *
     * @throws IllegalArgumentException when the field is not a position
     */
    public static long first(byte[] field) {
        int space = space(field);
        return number(field, 0, space < 0 ? field.length : space);
    }

    /**
     * A position's second number (a removal's count), without making an array.
     *
     * @throws IllegalArgumentException when the field is not a position of two numbers
     */
    public static long second(byte[] field) {
        int space = space(field);
        if (space < 0) {
            throw notAPosition(field);
        }
        return number(field, space + 1, field.length);
    }

    /** Whether a valid position is written as {@link #of} writes its numbers: without leading zeros. */
    public static boolean isCanonical(byte[] field) {
        int space = space(field);
        if (space < 0) {
            return field.length == digits(first(field));
        }
        return field.length == digits(first(field)) + 1 + digits(second(field));
    }

    /** Where the one space of a position is, -1 when it has none; more than one is no position. */
    private static int space(byte[] field) {
        int space = -1;
        for (int i = 0; i < field.length; i++) {
            if (field[i] == ' ') {
                if (space >= 0) {
                    throw notAPosition(field);
                }
                space = i;
            }
        }
        return space;
    }

    /** The decimal in {@code field[from, to)}: 1 to 18 digits. */
    private static long number(byte[] field, int from, int to) {
        if (to == from || to - from > 18) {
            throw notAPosition(field);
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int digit = field[i] - '0';
            if (digit < 0 || digit > 9) {
                throw notAPosition(field);
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private static IllegalArgumentException notAPosition(byte[] field) {
        return new IllegalArgumentException("not a list position: " + new String(field, StandardCharsets.US_ASCII));
    }
}
