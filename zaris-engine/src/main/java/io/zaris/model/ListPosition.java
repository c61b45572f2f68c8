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
        return Long.toString(index).getBytes(StandardCharsets.US_ASCII);
    }

    public static byte[] of(long index, long count) {
        return (index + " " + count).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The numbers a position holds: one or two non-negative decimals separated by one space.
     *
     * @throws IllegalArgumentException when the field is not such a position
     */
    public static long[] parse(byte[] field) {
        String text = new String(field, StandardCharsets.US_ASCII);
        String[] parts = text.split(" ", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException("not a list position: " + text);
        }
        long[] numbers = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].isEmpty() || parts[i].length() > 18 || !parts[i].chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("not a list position: " + text);
            }
            numbers[i] = Long.parseLong(parts[i]);
        }
        return numbers;
    }
}
